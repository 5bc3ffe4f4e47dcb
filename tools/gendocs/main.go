package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/schedlab/schedlab/scenario"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gendocs docs/scenarios.md")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "gendocs:", err)
		os.Exit(1)
	}
}

// run rewrites the tables of the page at path, writing it only when they
// change.
func run(path string) error {
	old, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	doc, err := scenario.WriteDocTables(old)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if bytes.Equal(doc, old) {
		return nil
	}
	return os.WriteFile(path, doc, 0o644)
}
