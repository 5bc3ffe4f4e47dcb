package external

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Option class takes MODULE:CLASS (dotted identifiers) or FILE.py:CLASS,
// and refuses every other form, saying which part is wrong.
func TestCheckClass(t *testing.T) {
	for _, ok := range []string{"mymod:MyPolicy", "pkg.sub_2.mod:P1", "_m:_C", "examples/python/fcfs.py:FCFS", "/tmp/a b/it's.py:C", "c:/x.py:C"} {
		if err := checkClass(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for s, want := range map[string]string{
		"mymod":      "is not MODULE:CLASS",
		"mymod:":     "is not MODULE:CLASS",
		":P":         "is not MODULE:CLASS",
		"my-mod:P":   `"my-mod" is not a module name`,
		"a..b:P":     `"a..b" is not a module name`,
		"1mod:P":     `"1mod" is not a module name`,
		"mymod:1P":   `"1P" is not a Python class name`,
		"mymod:P.Q":  `"P.Q" is not a Python class name`,
		"m:C:D":      `"m:C" is not a module name`,
		"f.py:C\nx":  `"C\nx" is not a Python class name`,
		"f\n.py:C":   "newline",
		"mymod:P Q":  `"P Q" is not a Python class name`,
		"-m mymod:P": `"-m mymod" is not a module name`,
	} {
		err := checkClass(s)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error with %q", s, err, want)
		}
	}
}

// The command line quotes every value for the shell and puts option
// path before the inherited PYTHONPATH (or alone without one): a fake
// interpreter prints what it was given.
func TestPythonCommand(t *testing.T) {
	if got, want := PythonCommand("", "", "m:C"), `exec 'python3' -m schedlab.serve 'm:C'`; got != want {
		t.Errorf("command %s, want %s", got, want)
	}
	dir := t.TempDir()
	fake := filepath.Join(dir, "fake py")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\nprintf '%s|' \"$PYTHONPATH\" \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, inherited, want string }{
		{"a b:c", "old", "a b:c:old|-m|schedlab.serve|it's here.py:C|"},
		{"a b:c", "", "a b:c|-m|schedlab.serve|it's here.py:C|"},
		{"", "old", "old|-m|schedlab.serve|it's here.py:C|"},
	} {
		cmd := exec.Command("/bin/sh", "-c", PythonCommand(fake, c.path, "it's here.py:C"))
		cmd.Env = []string{"PATH=/usr/bin:/bin"}
		if c.inherited != "" {
			cmd.Env = append(cmd.Env, "PYTHONPATH="+c.inherited)
		}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", cmd.Args[2], err)
		}
		if string(out) != c.want {
			t.Errorf("path %q, PYTHONPATH %q: the interpreter got %q, want %q", c.path, c.inherited, out, c.want)
		}
	}
}
