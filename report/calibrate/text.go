package calibrate

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
)

// WriteText writes the report as text: the overall numbers, then a
// table per partition and per user.
func (r Report) WriteText(w io.Writer, recName, simName string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "calibration: %s (simulated) against %s (recorded)\n", simName, recName)
	fmt.Fprintf(&b, "jobs matched %d", r.All.Jobs)
	if r.OnlyRecorded > 0 || r.OnlySimulated > 0 {
		fmt.Fprintf(&b, " (only recorded %d, only simulated %d)", r.OnlyRecorded, r.OnlySimulated)
	}
	b.WriteString("\n")
	if r.SubmitMismatch > 0 {
		fmt.Fprintf(&b, "warning: %d matched jobs have different submission times: the runs may not be of the same trace\n", r.SubmitMismatch)
	}
	a := r.All
	fmt.Fprintf(&b, "\nstart error (simulated - recorded start):\n")
	fmt.Fprintf(&b, "  mean %s, median %s, 10%% %s, 90%% %s, mean |error| %s\n", sec(a.MeanErr), sec(a.MedianErr), sec(a.P10Err), sec(a.P90Err), sec(a.MeanAbsErr))
	fmt.Fprintf(&b, "  within 1 min %s, within 10 min %s, within 1 h %s of the jobs\n", pct(a.Within60), pct(a.Within600), pct(a.Within3600))
	fmt.Fprintf(&b, "wait: mean %s recorded, %s simulated (%s); median %s recorded, %s simulated\n",
		sec(a.RecMeanWait), sec(a.SimMeanWait), rel(a.RelMeanWait), sec(a.RecMedianWait), sec(a.SimMedianWait))
	table := func(title string, gs []Group) {
		if len(gs) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n%s\n", title)
		tw := tabwriter.NewWriter(&b, 2, 8, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "name\tjobs\tmean wait rec\tmean wait sim\tdiff\tmedian |err|\twithin 10 min\t")
		for _, g := range gs {
			name := g.Name
			if name == "" || name == "-1" {
				name = "(none)"
			}
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t\n", name, g.Jobs, sec(g.RecMeanWait), sec(g.SimMeanWait), rel(g.RelMeanWait), sec(math.Abs(g.MedianErr)), pct(g.Within600))
		}
		tw.Flush()
	}
	if len(r.Partitions) > 1 {
		table("per partition:", r.Partitions)
	}
	if len(r.Users) > 1 {
		table(fmt.Sprintf("per user (the %d with the most jobs):", len(r.Users)), r.Users)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func sec(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return fmt.Sprintf("%.0f s", x)
}

func pct(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }

func rel(x float64) string {
	if math.IsNaN(x) {
		return "n/a"
	}
	return fmt.Sprintf("%+.1f%%", 100*x)
}
