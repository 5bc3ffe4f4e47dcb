package main

import (
	"os"
	_ "time/tzdata" // trace time zones (run --from dates, report dates) on machines without a zone database

	"github.com/schedlab/schedlab/cmd/schedlab/cli"
	"github.com/schedlab/schedlab/internal/addrspace"
)

func main() {
	addrspace.SetMemoryLimit() // under ulimit -v only
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
