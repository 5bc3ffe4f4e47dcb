package cli

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/schedlab/schedlab/internal/atomicfile"
	"github.com/schedlab/schedlab/workload/lublin"
	"github.com/schedlab/schedlab/workload/swf"
	"github.com/schedlab/schedlab/workload/tsafrir"
)

// traceSynthCmd writes a synthetic workload model's jobs as an SWF trace.
type traceSynthCmd struct {
	Model         string  `required:"" enum:"lublin" placeholder:"NAME" help:"The workload model: lublin (Lublin and Feitelson 2003, rigid parallel jobs; docs/workloads.md)."`
	Procs         int     `required:"" placeholder:"P" help:"Machine size in processors (1..1048576); no job is larger."`
	Jobs          int     `required:"" placeholder:"N" help:"Number of jobs (1..100000000)."`
	Seed          uint64  `default:"1" help:"Master seed: the same seed writes the same file."`
	Class         string  `default:"batch" enum:"batch,interactive" help:"The model's published parameter set: batch or interactive."`
	ArrivalFactor float64 `default:"1" placeholder:"X" help:"Multiply every inter-arrival time by X (2 halves the load)."`
	RuntimeFactor float64 `default:"1" placeholder:"Y" help:"Multiply every runtime by Y."`
	Load          float64 `default:"0" placeholder:"L" help:"Target offered load: sets the arrival factor from the model's expected work (0: none; not with --arrival-factor)."`
	NoDailyCycle  bool    `help:"Arrivals at every hour alike (the model has a daily cycle)."`
	Users         int     `default:"0" placeholder:"U" help:"Give jobs user ids 1..U, user k with probability proportional to 1/k (not part of the model; 0: user -1)."`
	Requests      string  `default:"tsafrir" enum:"tsafrir,exact" help:"Requested times (SWF field 9): tsafrir (drawn from Tsafrir's model of user estimates, never below the runtime) or exact (the runtime)."`
	Out           string  `required:"" placeholder:"PATH" help:"Output SWF file (.gz to compress)."`
}

// synthFlags maps the fields of lublin.Params to the flags that set them.
var synthFlags = map[string]string{
	"Procs": "--procs", "Jobs": "--jobs", "ArrivalFactor": "--arrival-factor",
	"RuntimeFactor": "--runtime-factor", "Load": "--load", "Users": "--users",
}

// params checks the flags and returns the model's parameters; every
// problem is named by its flag.
func (c *traceSynthCmd) params() (lublin.Params, error) {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	if c.Procs < 1 || c.Procs > lublin.MaxProcs {
		bad("--procs %d: want 1..%d", c.Procs, lublin.MaxProcs)
	}
	if c.Jobs < 1 || c.Jobs > lublin.MaxJobs {
		bad("--jobs %d: want 1..%d", c.Jobs, lublin.MaxJobs)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"--arrival-factor", c.ArrivalFactor}, {"--runtime-factor", c.RuntimeFactor}} {
		if !(f.v > 0 && f.v <= lublin.MaxFactor) {
			bad("%s %v: want a number in (0, %g]", f.name, f.v, lublin.MaxFactor)
		}
	}
	if !(c.Load >= 0 && c.Load <= lublin.MaxLoad) {
		bad("--load %v: want a target offered load in (0, %g] (0: none)", c.Load, lublin.MaxLoad)
	} else if c.Load > 0 && c.ArrivalFactor != 1 {
		bad("--load %v sets the arrival factor: give --load or --arrival-factor, not both", c.Load)
	}
	if c.Users < 0 || c.Users > lublin.MaxUsers {
		bad("--users %d: want 0..%d", c.Users, lublin.MaxUsers)
	}
	if len(errs) > 0 {
		return lublin.Params{}, usageError{errors.New(strings.Join(errs, "; "))}
	}
	class := lublin.Batch
	if c.Class == "interactive" {
		class = lublin.Interactive
	}
	p := lublin.For(class, c.Procs)
	p.Jobs, p.ArrivalFactor, p.RuntimeFactor, p.Load = c.Jobs, c.ArrivalFactor, c.RuntimeFactor, c.Load
	p.DailyCycle, p.Users = !c.NoDailyCycle, c.Users
	if c.Requests == "tsafrir" {
		m, err := tsafrir.SiteModel(c.Seed)
		if err != nil {
			return p, err
		}
		p.Request, p.RequestName = m.Request, tsafrir.SiteModelName
	}
	if err := p.Check(); err != nil {
		var ce *lublin.CheckError
		if errors.As(err, &ce) {
			for _, pr := range ce.Problems {
				name := synthFlags[pr.Field]
				if name == "" {
					name = "the model's " + pr.Field
				}
				errs = append(errs, name+" "+pr.Msg)
			}
			return p, usageError{errors.New(strings.Join(errs, "; "))}
		}
		return p, usageError{err}
	}
	// Submit times must fit an SWF time field: the expected span with a
	// hundredfold margin for the heavy tail of inter-arrival times.
	if span := float64(p.Jobs) * p.MeanInterarrival(); span > swf.MaxSeconds/100 {
		return p, usageError{fmt.Errorf("--jobs %d at a mean inter-arrival time of %.4g s span about %.3g s of submit times; at most %g (a hundredth of what an SWF time field holds): fewer jobs or a smaller --arrival-factor", p.Jobs, p.MeanInterarrival(), span, swf.MaxSeconds/100)}
	}
	return p, nil
}

func (c *traceSynthCmd) Run(g *globals) error {
	p, err := c.params()
	if err != nil {
		return err
	}
	if err := g.claimOutDir(filepath.Dir(c.Out)); err != nil {
		return err
	}
	err = atomicfile.Write(c.Out, func(file io.Writer) error {
		out := file
		var gz *gzip.Writer
		if strings.HasSuffix(c.Out, ".gz") {
			gz, _ = gzip.NewWriterLevel(file, gzip.BestSpeed)
			out = gz
		}
		if err := lublin.WriteSWF(out, p, c.Seed, 0); err != nil {
			return err
		}
		if gz != nil {
			return gz.Close()
		}
		return nil
	})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(g.stdout, "wrote %s: %d jobs of the Lublin-Feitelson model (%s set, %d processors, seed %d), expected offered load %.3f\n",
		c.Out, p.Jobs, p.Class, p.Procs, c.Seed, p.OfferedLoad())
	return err
}
