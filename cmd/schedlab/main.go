package main

import (
	"os"

	"github.com/schedlab/schedlab/internal/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr)) }
