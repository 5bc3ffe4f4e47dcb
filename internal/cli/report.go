package cli

import (
	"fmt"

	"github.com/schedlab/schedlab/report/htmlreport"
)

type reportCmd struct {
	Dir string `arg:"" placeholder:"DIR" help:"Output folder of 'schedlab run', 'sweep' or 'reproduce' (--out DIR; for reproduce, DIR or DIR/<paper>)."`
}

// Run writes DIR/report.html.
func (c *reportCmd) Run(g *globals) error {
	outs, err := htmlreport.Write(c.Dir)
	for _, out := range outs {
		fmt.Fprintf(g.stdout, "wrote %s\n", out)
	}
	return err
}
