package cli

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/schedlab/schedlab/repro"
)

type fitCmd struct {
	Trace string `arg:"" name:"trace" help:"SWF trace (path or bare name)."`
	JSON  bool   `name:"json" help:"Print the fits as JSON."`
}

// Run fits runtime on CPUs and memory per CPU, linear and log10, like
// al-najjar-2019's Tables 2-9, and prints the --rank-coefficients to use.
func (c *fitCmd) Run(g *globals) error {
	r, err := repro.FitTrace(c.Trace)
	if err != nil {
		return err
	}
	if c.JSON {
		return writeJSON(g.stdout, r)
	}
	w := g.stdout
	fmt.Fprintf(w, "trace %s: %d jobs fitted; %d left out (%d without memory, %d with fewer than 1 CPU)", r.Trace, r.N, r.LeftOut, r.NoMemory, r.NoCPU)
	if r.Skipped+r.Rejected > 0 {
		fmt.Fprintf(w, "; %d records skipped (no submit or run time), %d larger than the machine", r.Skipped, r.Rejected)
	}
	fmt.Fprintln(w, "\nruntime in seconds; memory per CPU in MB; ordinary least squares with a constant")
	for _, t := range []repro.FitTable{r.Linear, r.Log} {
		fmt.Fprintln(w)
		if err := writeFitTable(w, t); err != nil {
			return err
		}
	}
	return nil
}

func writeFitTable(w io.Writer, t repro.FitTable) error {
	fmt.Fprintf(w, "%s\n\nParameter estimates\n", t.Model)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "parameter\testimate\tstd. error\tlower 95%\tupper 95%\t")
	for _, p := range t.Params {
		fmt.Fprintf(tw, "%s\t%.6g\t%.6g\t%.6g\t%.6g\t\n", p, t.Coefficients[p], t.StdErrors[p], t.Lower95[p], t.Upper95[p])
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nCorrelation of the estimates")
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "\t")
	for _, p := range t.Params {
		fmt.Fprintf(tw, "%s\t", p)
	}
	fmt.Fprintln(tw)
	for i, p := range t.Params {
		fmt.Fprintf(tw, "%s\t", p)
		for j := range t.Params {
			fmt.Fprintf(tw, "%.6f\t", t.Correlation[i][j])
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nAnalysis of variance")
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "source\tsum of squares\tdf\tmean square\t")
	a := t.ANOVA
	fmt.Fprintf(tw, "regression\t%.6g\t%d\t%.6g\t\n", a.Regression.SS, a.Regression.DF, a.Regression.MeanSquare)
	fmt.Fprintf(tw, "residual\t%.6g\t%d\t%.6g\t\n", a.Residual.SS, a.Residual.DF, a.Residual.MeanSquare)
	fmt.Fprintf(tw, "uncorrected total\t%.6g\t%d\t\t\n", a.Uncorrected.SS, a.Uncorrected.DF)
	fmt.Fprintf(tw, "corrected total\t%.6g\t%d\t\t\n", a.Corrected.SS, a.Corrected.DF)
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\nR squared = 1 - residual / corrected = %.6f\nrank: %s\n", t.RSquared, t.Flag)
	return err
}
