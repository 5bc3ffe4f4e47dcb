package slurmconf

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/platform/nodes"
)

const gresConf = `# gres.conf of the site
AutoDetect=off
NodeName=gpu[01-08] Name=gpu Type=a100 File=/dev/nvidia[0-3] Cores=0-15
NodeName=gpu[09-10] Name=gpu Type=v100 Count=4
NodeName=gpu[09-10] Name=gpu Type=a100 Count=1
`

func TestReadGres(t *testing.T) {
	g, err := ReadGres(strings.NewReader(gresConf), "gres.conf")
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Lines) != 3 || g.Lines[0].Count != 4 || g.Lines[0].Kind != (nodes.Kind{Name: "gpu", Type: "a100"}) || len(g.Lines[0].Nodes) != 8 || g.Lines[1].Count != 4 {
		t.Fatalf("lines %+v", g.Lines)
	}
	if len(g.Warnings) != 2 || g.Warnings[0].Key != "AutoDetect" || g.Warnings[1].Key != "Cores" {
		t.Fatalf("warnings %+v", g.Warnings)
	}
	c, err := ReadFile("testdata/site.conf")
	if err != nil {
		t.Fatal(err)
	}
	// slurm.conf gives gpu[09-10] gpu:v100=4 and no a100: line 5 differs
	// on both nodes.
	ws := c.CheckGres(g)
	if len(ws) != 2 || ws[0].Line != 5 || !strings.Contains(ws[0].Msg, "node gpu09: gpu:a100 1 here, 0 in slurm.conf") {
		t.Fatalf("check %+v", ws)
	}
	for text, want := range map[string]string{
		"Name=gpu Count=0\n":                       "g:1: Count: \"0\"",
		"NodeName=n1 Count=2\n":                    "g:1: Name: missing",
		"Name=gpu Count=2 File=/dev/nvidia[0-3]\n": "g:1: Count: 2, but File names 4 devices",
		"NodeName=n[1- Name=gpu\n":                 "g:1: NodeName:",
	} {
		if _, err := ReadGres(strings.NewReader(text), "g"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
}
