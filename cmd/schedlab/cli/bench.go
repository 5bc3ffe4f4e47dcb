package cli

import (
	"fmt"
	"runtime"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/schedlab/schedlab/experiment"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/workload"
)

type benchCmd struct {
	Trace    []string `placeholder:"FILE" default:"KTH-SP2-1996-2.1-cln.swf.gz,HPC2N-2002-2.1-cln.swf.gz" help:"Traces to run (paths or bare names); missing ones are reported and skipped."`
	Policy   []string `placeholder:"NAME" default:"${simple_policies}" help:"Policies to time."`
	Repeat   int      `default:"5" help:"Runs per (trace, policy); the median and the fastest are reported."`
	Estimate string   `default:"${estimate_default}" enum:"${estimates}" help:"Runtime estimates."`
	Procs    int      `placeholder:"N" help:"Machine size, for traces whose header gives no MaxProcs (default: the header's)."`
}

func (c *benchCmd) Run(g *globals) error {
	if c.Repeat < 1 {
		return usageError{fmt.Errorf("--repeat must be >= 1, got %d", c.Repeat)}
	}
	if err := checkProcs(c.Procs); err != nil {
		return err
	}
	est, err := workload.ParseEstimate(c.Estimate)
	if err != nil {
		return usageError{err}
	}
	for i, p := range c.Policy {
		p = registry.CanonicalName(registry.ModelCluster, registry.KindQueue, p)
		c.Policy[i] = p
		if _, err := registry.Lookup(registry.ModelCluster, registry.KindQueue, p); err != nil {
			return usageError{fmt.Errorf("--policy: %w", err)}
		}
	}
	fmt.Fprintf(g.stdout, "schedlab bench: %s, %d CPUs, GOMAXPROCS %d, %d runs each, in-process (no output files)\n\n",
		runtime.Version(), runtime.NumCPU(), runtime.GOMAXPROCS(0), c.Repeat)
	tw := tabwriter.NewWriter(g.stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "trace\tpolicy\tjobs\tmedian s\tfastest s\tjobs/s\tmean wait s\t")
	ran := 0
	for _, tr := range c.Trace {
		for _, p := range c.Policy {
			var times []float64
			var res *experiment.TraceResult
			var err error
			for i := 0; i < c.Repeat; i++ {
				runtime.GC()
				t0 := time.Now()
				res, err = (experiment.RunSpec{Workload: experiment.WorkloadSpec{Trace: tr, Estimate: est}, Platform: experiment.PlatformSpec{Procs: c.Procs}, Policy: experiment.PolicySpec{Name: p}}).Run()
				if err != nil {
					break
				}
				times = append(times, time.Since(t0).Seconds())
			}
			if err != nil {
				fmt.Fprintf(g.stderr, "bench: %s %s: %v (skipped)\n", tr, p, err)
				break
			}
			slices.Sort(times)
			med := times[len(times)/2]
			fmt.Fprintf(tw, "%s\t%s\t%d\t%.3f\t%.3f\t%.0f\t%.1f\t\n", res.Run.Trace, p, res.Jobs, med, times[0], float64(res.Jobs)/med, res.MeanWait)
			ran++
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if ran == 0 {
		return fmt.Errorf("bench: nothing ran")
	}
	return nil
}
