package cli

import (
	"os"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
)

// The README's command table lists every command and every flag that
// --help lists.
func TestReadmeCommands(t *testing.T) {
	b, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "| `schedlab ") {
			rows = append(rows, line)
		}
	}
	var spec cliSpec
	p, err := kong.New(&spec, vars())
	if err != nil {
		t.Fatal(err)
	}
	var walk func(n *kong.Node)
	walk = func(n *kong.Node) {
		if n.Type == kong.CommandNode && len(n.Children) == 0 {
			var mine []string
			for _, r := range rows {
				if strings.Contains(r, "`schedlab "+n.Path()) {
					mine = append(mine, r)
				}
			}
			if len(mine) == 0 {
				t.Errorf("README: no row for schedlab %s", n.Path())
			}
			for _, f := range n.Flags {
				if f.Name == "help" {
					continue
				}
				found := false
				for _, r := range mine {
					found = found || strings.Contains(r, "--"+f.Name+"]") || strings.Contains(r, "--"+f.Name+" ")
				}
				if !found {
					t.Errorf("README: schedlab %s --%s is not in its row", n.Path(), f.Name)
				}
			}
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(p.Model.Node)
	for _, f := range p.Model.Node.Flags {
		if f.Name != "help" && !strings.Contains(string(b), "schedlab --"+f.Name) {
			t.Errorf("README: schedlab --%s is not listed", f.Name)
		}
	}
}
