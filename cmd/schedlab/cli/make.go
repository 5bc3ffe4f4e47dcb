package cli

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/internal/atomicfile"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/workload/swf"
)

// traceMakeCmd writes an SWF trace from a short list of jobs, one a
// line: SUBMIT RUNTIME CPUS [REQUEST] (examples/teaching: no 18-field
// lines to write by hand).
type traceMakeCmd struct {
	File  string `arg:"" placeholder:"JOBS" help:"A text file of jobs, one a line: SUBMIT RUNTIME CPUS [REQUEST] (seconds, seconds, processors, requested seconds; REQUEST defaults to RUNTIME); jobs are numbered 1, 2, ... in line order; '#' starts a comment. '-' reads standard input."`
	Procs int    `required:"" placeholder:"P" help:"Machine size in processors (the trace's MaxProcs); no job may ask for more."`
	Out   string `required:"" placeholder:"PATH" help:"Output SWF file (.gz to compress)."`
}

// MaxMakeJobs bounds the jobs of trace make (a tool for small,
// hand-written traces; trace synth writes large ones).
const MaxMakeJobs = 100000

// madeJob is one line of a trace make file.
type madeJob struct {
	submit, run, req float64
	cpus             int
}

// readMakeJobs reads the jobs of a trace make file (name in errors),
// refusing, by line and field, what is not a number, a negative time, a
// CPU count outside 1..procs and submit times out of order.
func readMakeJobs(r io.Reader, name string, procs int) ([]madeJob, error) {
	var jobs []madeJob
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), 4096)
	line := 0
	for sc.Scan() {
		line++
		text, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(text)
		if len(f) == 0 {
			continue
		}
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
		}
		if len(f) < 3 || len(f) > 4 {
			return nil, bad("want SUBMIT RUNTIME CPUS [REQUEST], got %d field(s): %q", len(f), strings.TrimSpace(text))
		}
		num := func(i int, what string) (float64, error) {
			v, err := strconv.ParseFloat(f[i], 64)
			switch {
			case err != nil || math.IsNaN(v) || math.IsInf(v, 0):
				return 0, bad("%s %q is not a number", what, f[i])
			case v < 0:
				return 0, bad("%s %s is negative", what, f[i])
			case v > swf.MaxSeconds:
				return 0, bad("%s %s is beyond %d seconds", what, f[i], int64(swf.MaxSeconds))
			}
			return v, nil
		}
		var j madeJob
		var err error
		if j.submit, err = num(0, "SUBMIT"); err != nil {
			return nil, err
		}
		if j.run, err = num(1, "RUNTIME"); err != nil {
			return nil, err
		}
		cpus, err := strconv.Atoi(f[2])
		if err != nil || cpus < 1 || cpus > procs {
			return nil, bad("CPUS %q: want a whole number 1..%d (--procs)", f[2], procs)
		}
		j.cpus, j.req = cpus, j.run
		if len(f) == 4 {
			if j.req, err = num(3, "REQUEST"); err != nil {
				return nil, err
			}
		}
		if n := len(jobs); n > 0 && j.submit < jobs[n-1].submit {
			return nil, bad("SUBMIT %s is before the previous job's %s: list the jobs in submit order", f[0], strconv.FormatFloat(jobs[n-1].submit, 'f', -1, 64))
		}
		if len(jobs) == MaxMakeJobs {
			return nil, bad("more than %d jobs (trace make is for small traces; trace synth writes large ones)", MaxMakeJobs)
		}
		jobs = append(jobs, j)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s:%d: a line longer than 4096 bytes: not a list of jobs", name, line+1)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(jobs) == 0 {
		return nil, fmt.Errorf("%s: no jobs (one a line: SUBMIT RUNTIME CPUS [REQUEST])", name)
	}
	return jobs, nil
}

// writeMadeTrace writes jobs as an SWF trace: job i+1, its submit
// time, runtime, CPUs (allocated and requested) and requested time;
// status 1 (completed), user and group 1; every other field -1.
func writeMadeTrace(w io.Writer, jobs []madeJob, procs int, from string) error {
	sw := swf.NewWriter(w)
	h := swf.Header{Lines: []string{
		" Written by schedlab trace make from " + from + " (one job a line: SUBMIT RUNTIME CPUS [REQUEST]).",
		" Fields: job submit wait runtime procs cpu mem reqprocs reqtime reqmem status user group app queue partition prev think",
		" MaxProcs: " + strconv.Itoa(procs),
	}}
	if err := sw.WriteHeader(h); err != nil {
		return err
	}
	for i, j := range jobs {
		rec := swf.Record{JobNumber: int64(i + 1), Submit: j.submit, Wait: -1, Run: j.run, AllocProcs: j.cpus,
			AvgCPU: -1, UsedMem: -1, ReqProcs: j.cpus, ReqTime: j.req, ReqMem: -1, Status: 1, User: 1, Group: 1,
			Exec: -1, Queue: -1, Partition: -1, PrecedingJob: -1, ThinkTime: -1}
		if err := sw.Write(rec); err != nil {
			return err
		}
	}
	return sw.Flush()
}

func (c *traceMakeCmd) Run(g *globals) error {
	if c.Procs < 1 || c.Procs > platform.MaxCPUs {
		return usageError{fmt.Errorf("--procs %d: want 1..%d", c.Procs, platform.MaxCPUs)}
	}
	var in io.Reader = os.Stdin
	name := c.File
	if c.File == "-" {
		name = "standard input"
	} else {
		f, err := os.Open(c.File)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	jobs, err := readMakeJobs(in, name, c.Procs)
	if err != nil {
		return err
	}
	if err := g.claimOutDir(filepath.Dir(c.Out)); err != nil {
		return err
	}
	err = atomicfile.Write(c.Out, func(file io.Writer) error {
		if !strings.HasSuffix(c.Out, ".gz") {
			return writeMadeTrace(file, jobs, c.Procs, filepath.Base(name))
		}
		gz := gzip.NewWriter(file)
		if err := writeMadeTrace(gz, jobs, c.Procs, filepath.Base(name)); err != nil {
			return err
		}
		return gz.Close()
	})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(g.stdout, "wrote %s: %d jobs on %d CPUs\n", c.Out, len(jobs), c.Procs)
	return err
}
