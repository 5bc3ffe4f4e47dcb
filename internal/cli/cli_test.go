package cli

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"schedlab": func() { os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// The scripts in testdata/script drive the real command line: what a user
// types, what they see, which files appear, and the exit status.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script"})
}
