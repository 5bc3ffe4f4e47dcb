package cli

import (
	"fmt"

	"github.com/schedlab/schedlab/report/htmlreport"
)

type reportCmd struct {
	Dirs    []string `arg:"" placeholder:"DIR" help:"Output folder of 'schedlab run', 'sweep' or 'reproduce' (--out DIR; for reproduce, DIR or DIR/<paper>); or two or more run folders of one trace to compare (with --out FILE)."`
	Out     string   `placeholder:"FILE" help:"The comparison page of two or more run folders, a name ending in .html (required with them; only with them)."`
	NoGantt bool     `name:"no-gantt" help:"Leave the Gantt charts (and the per-job data they need) out of run and comparison pages: a page of a few hundred KB, not tens of MB."`
}

// Run writes DIR/report.html, or with several run folders the
// comparison page --out.
func (c *reportCmd) Run(g *globals) error {
	switch {
	case len(c.Dirs) == 1 && c.Out != "":
		return usageError{fmt.Errorf("--out is only for a comparison of two or more run folders (one folder's page is DIR/report.html)")}
	case len(c.Dirs) > htmlreport.MaxCompareRuns:
		return usageError{fmt.Errorf("%d folders: a comparison takes at most %d runs", len(c.Dirs), htmlreport.MaxCompareRuns)}
	case len(c.Dirs) > 1 && c.Out == "":
		return usageError{fmt.Errorf("two or more run folders make one comparison page: say where with --out FILE (e.g. --out compare.html)")}
	case len(c.Dirs) > 1 && !htmlreport.IsHTMLName(c.Out):
		return usageError{fmt.Errorf("--out %s: the comparison page's name must end in .html", c.Out)}
	case len(c.Dirs) > 1:
		if err := htmlreport.CompareOpts(c.Dirs, c.Out, htmlreport.Options{NoGantt: c.NoGantt}); err != nil {
			return err
		}
		fmt.Fprintf(g.stdout, "wrote %s\n", c.Out)
		return nil
	}
	outs, err := htmlreport.WriteOpts(c.Dirs[0], htmlreport.Options{NoGantt: c.NoGantt})
	for _, out := range outs {
		fmt.Fprintf(g.stdout, "wrote %s\n", out)
	}
	return err
}
