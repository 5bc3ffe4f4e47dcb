package main

import (
	"os"
	_ "time/tzdata" // trace time zones (run --from dates, report dates) on machines without a zone database

	"github.com/schedlab/schedlab/cmd/schedlab/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr)) }
