package cli

import (
	"fmt"

	"github.com/schedlab/schedlab/report/htmlreport"
)

type reportCmd struct {
	Dir string `arg:"" placeholder:"DIR" help:"Output folder of 'schedlab run --out DIR' or 'schedlab sweep --out DIR'."`
}

// Run writes DIR/report.html.
func (c *reportCmd) Run(g *globals) error {
	out, err := htmlreport.Write(c.Dir)
	if err != nil {
		return err
	}
	fmt.Fprintf(g.stdout, "wrote %s\n", out)
	return nil
}
