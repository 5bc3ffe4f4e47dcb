package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"

	"github.com/schedlab/schedlab/report/htmlreport"
	"github.com/schedlab/schedlab/repro"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/synth"
)

type reproduceCmd struct {
	Paper    string `arg:"" enum:"zikos2008,dimitriadou2010,klusacek2008,hafshejani2012,alnajjar2019,all" help:"Which reproduction: zikos2008, dimitriadou2010, klusacek2008, hafshejani2012, alnajjar2019, or all."`
	Readings bool   `help:"Also check the paper's claims under each named reading of its open rules: claims.csv gains a reading column (default first), report.txt a claims x readings table, readings/<name>/ the figures. klusacek2008: every suitable x gaps combination under both deadline rules, as-implemented, pick-last-late (and EASY, EG-EDF under every BM_est rule, EG-EDF and Tabu under the other gap and tie rules in readings.csv); alnajjar2019: strict, fit-now-speed, strict-speed-fitted (a fitted setting), eq6-log and their combinations (and the speed sweep, speed_sweep.csv); hafshejani2012: wide-jobs, batch; dimitriadou2010: the alternative readings of the gang rules. docs/papers/<paper>.md gives each reading and its time."`
	BMEst    string `name:"bm-est" enum:"uniform,min,max,random-machine" default:"min" help:"klusacek2008: the machine speed at which a job's Estimated holds (the paper does not say; min makes its lightest load stable)."`
	Deadline string `name:"deadline-rule" enum:"factor,fastest,alea" default:"factor" help:"klusacek2008: deadline = submit + s x Estimated (factor, s in [2,4]), s x the runtime on the fastest machine (fastest), or 2 x Estimated (alea)."`
	Arrival  string `name:"arrival-reading" enum:"A,B" default:"A" help:"alnajjar2019: 'Poisson creation time' read as each job's creation time drawn from Poisson(10,000 s) vs DiscreteUniform{0..400,000} (A), or a Poisson process vs uniform gaps (B). --readings also runs Table 10 under the other reading and with memory in KB in the ranks."`
	Out      string `placeholder:"DIR" default:"schedlab-out" help:"Folder for the results; each paper writes to DIR/<paper>."`
	Report   bool   `help:"Also write DIR/<paper>/report.html, a self-contained page of the reproduction (as 'schedlab report')."`
	Quick    bool   `help:"A smoke-sized run (3 replications of a quarter of the jobs): minutes become seconds, intervals widen."`
	Workers  int    `default:"0" help:"Parallel replications (0 = all cores). Results do not depend on it."`
	Seed     uint64 `placeholder:"S" help:"Master seed (default: each paper's: 2008, 2010)."`
	Reps     *int   `placeholder:"N" help:"Replications per configuration, 2..1000 (default: the paper's; not hafshejani2012, which runs its traces once)."`
	Jobs     *int64 `placeholder:"N" help:"Completed jobs per replication (default: the paper's; not hafshejani2012, which runs its traces)."`
}

type paperRun struct {
	name string
	run  func(repro.Options, *reproduceCmd) (*repro.Report, error)
	opts func(quick bool) repro.Options
}

var papers = []paperRun{
	{"zikos2008", func(o repro.Options, _ *reproduceCmd) (*repro.Report, error) { return repro.Zikos2008(o) }, func(q bool) repro.Options {
		if q {
			return repro.ZikosQuick()
		}
		return repro.ZikosDefaults()
	}},
	{"dimitriadou2010", func(o repro.Options, c *reproduceCmd) (*repro.Report, error) {
		return repro.Dimitriadou2010(o, c.Readings)
	},
		func(q bool) repro.Options {
			if q {
				return repro.DimitriadouQuick()
			}
			return repro.DimitriadouDefaults()
		}},
	{"klusacek2008", func(o repro.Options, c *reproduceCmd) (*repro.Report, error) {
		bm, err := synth.ParseBMEst(c.BMEst)
		if err != nil {
			return nil, usageError{err}
		}
		dl, err := synth.ParseDeadline(c.Deadline)
		if err != nil {
			return nil, usageError{err}
		}
		return repro.Klusacek2008(o, repro.KlusacekReading{BMEst: bm, Deadline: dl, Readings: c.Readings})
	},
		func(q bool) repro.Options {
			if q {
				return repro.KlusacekQuick()
			}
			return repro.KlusacekDefaults()
		}},
	{"hafshejani2012", func(o repro.Options, c *reproduceCmd) (*repro.Report, error) {
		return repro.Hafshejani2012(o, c.Readings)
	}, func(q bool) repro.Options {
		if q {
			return repro.HafshejaniQuick()
		}
		return repro.HafshejaniDefaults()
	}},
	{"alnajjar2019", func(o repro.Options, c *reproduceCmd) (*repro.Report, error) {
		return repro.AlNajjar2019(o, repro.AlNajjarReading{Reading: c.Arrival, Readings: c.Readings})
	},
		func(q bool) repro.Options {
			if q {
				return repro.AlNajjarQuick()
			}
			return repro.AlNajjarDefaults()
		}},
}

// paperMaxJobs are the reproductions whose --jobs limit is below
// repro.MaxJobs: their workloads are generated whole.
var paperMaxJobs = []struct {
	name string
	max  int64
	why  string
}{
	{"klusacek2008", synth.MaxHeteroJobs, "synth.MaxHeteroJobs"},
	{"alnajjar2019", synth.MaxJRBJobs, "synth.MaxJRBJobs"},
}

func (c *reproduceCmd) Run(g *globals) error {
	if c.Reps != nil && (*c.Reps < 2 || *c.Reps > repro.MaxReps) {
		return usageError{fmt.Errorf("--reps %d: want 2..%d (a confidence interval needs two replications; the limit is in docs/limits.md)", *c.Reps, repro.MaxReps)}
	}
	if c.Jobs != nil && (*c.Jobs < 1 || *c.Jobs > repro.MaxJobs) {
		return usageError{fmt.Errorf("--jobs %d: want 1..%d", *c.Jobs, repro.MaxJobs)}
	}
	if c.Jobs != nil {
		for _, p := range paperMaxJobs {
			if (c.Paper == "all" || c.Paper == p.name) && *c.Jobs > p.max {
				return usageError{fmt.Errorf("--jobs %d: want 1..%d for %s (%s; docs/limits.md)", *c.Jobs, p.max, p.name, p.why)}
			}
		}
	}
	if c.Workers < 0 {
		return usageError{fmt.Errorf("--workers %d: must not be negative (0 = all cores)", c.Workers)}
	}
	if err := c.checkOptions(); err != nil {
		return usageError{err}
	}
	for _, p := range papers {
		if c.Paper == "all" || c.Paper == p.name {
			if err := g.claimOutDir(filepath.Join(c.Out, p.name)); err != nil {
				return err
			}
		}
	}
	ran := 0
	var skipped []skippedWorkload
	var tallies []string
	for _, p := range papers {
		if c.Paper != "all" && c.Paper != p.name {
			continue
		}
		opt, full := p.opts(c.Quick), p.opts(false)
		opt.Workers = c.Workers
		if c.Seed != 0 {
			opt.Seed = c.Seed
		}
		if c.Reps != nil && p.name != "hafshejani2012" {
			opt.Reps = *c.Reps
		}
		if c.Jobs != nil && p.name != "hafshejani2012" {
			opt.Jobs = *c.Jobs
		}
		bar := newBar(g.stderr, p.name)
		opt.Progress = bar
		t0 := time.Now()
		rep, err := p.run(opt, c)
		bar.done()
		if err != nil {
			return fmt.Errorf("%s: %w", p.name, err)
		}
		dir := filepath.Join(c.Out, p.name)
		if err := rep.WriteDir(dir); err != nil {
			return fmt.Errorf("%s: writing %s: %w", p.name, dir, err)
		}
		if err := rep.WriteText(g.stdout); err != nil {
			return err
		}
		if c.Report {
			pages, err := htmlreport.Write(dir)
			if err != nil {
				return fmt.Errorf("%s: %w", p.name, err)
			}
			fmt.Fprintf(g.stdout, "wrote %s\n", pages[0])
		}
		for _, line := range rep.Console {
			fmt.Fprintln(g.stdout, line)
		}
		// hafshejani2012 runs its traces whatever Reps and Jobs say.
		smaller := p.name != "hafshejani2012" && (opt.Reps < full.Reps || opt.Jobs < full.Jobs)
		if failed := failedClaims(rep); failed > 0 || smaller {
			fmt.Fprintln(g.stdout)
			if smaller {
				say(g.stdout, fmt.Sprintf("This run: %d replications of %d jobs; the paper's size is %d of %d. Intervals are wider than at full size, and the notes above speak of the full-size run.",
					opt.Reps, opt.Jobs, full.Reps, full.Jobs))
			}
			if failed > 0 {
				msg := fmt.Sprintf("[NO], [DIRECTION ONLY] and [NOT REPRODUCED] mark the claims of the paper that these runs do not show (%d of %d: %s); docs/papers/%s.md discusses each, docs/papers/README.md gives the rule.", failed, len(rep.Checks), repro.TallyText(rep.Checks), p.name)
				if smaller {
					msg += " At this size a claim may fail only because the intervals are wide: judge the claims on a full-size run."
				}
				say(g.stdout, msg)
			}
		}
		secs := time.Since(t0).Seconds()
		fmt.Fprintln(g.stdout)
		say(g.stdout, fmt.Sprintf("%s: %d simulated jobs in %.1f s (%.3g million jobs/s); results in %s (comparison.csv, figNN.csv, figNN.svg, report.txt)",
			p.name, rep.Jobs, secs, float64(rep.Jobs)/secs/1e6, dir))
		fmt.Fprintln(g.stdout)
		for _, s := range rep.Skipped {
			skipped = append(skipped, skippedWorkload{p.name, s})
		}
		tallies = append(tallies, fmt.Sprintf("  %-16s %s", p.name+":", repro.TallyText(rep.Checks)))
		ran++
	}
	if ran == 0 {
		return usageError{fmt.Errorf("unknown reproduction %q", c.Paper)}
	}
	if ran > 1 {
		fmt.Fprintln(g.stdout, "Claims of the papers, by verdict (docs/papers/README.md gives the rule):")
		for _, t := range tallies {
			fmt.Fprintln(g.stdout, t)
		}
		fmt.Fprintln(g.stdout)
	}
	if len(skipped) > 0 {
		say(g.stdout, skippedSummary(skipped))
	}
	return nil
}

// say writes a sentence wrapped at repro.TextWidth, as the reports are.
func say(w io.Writer, s string) {
	fmt.Fprintln(w, repro.Wrap(s, "", "  ", repro.TextWidth))
}

// skippedWorkload is a workload a paper's reproduction left out.
type skippedWorkload struct {
	paper string
	repro.Skip
}

// skippedSummary is the closing sentence of a reproduction that left
// workloads out: which, for which paper, and how to make them available.
func skippedSummary(sk []skippedWorkload) string {
	var parts, files []string
	for i := 0; i < len(sk); {
		j := i
		var wls []string
		for ; j < len(sk) && sk[j].paper == sk[i].paper; j++ {
			wls = append(wls, sk[j].Workload)
			files = append(files, sk[j].Trace)
		}
		parts = append(parts, fmt.Sprintf("%s ran without its %s %s", sk[i].paper, andList(wls), plural(len(wls), "workload", "workloads")))
		i = j
	}
	return fmt.Sprintf("Skipped: %s: %s %s %s not found. To include %s, put %s (from the Parallel Workloads Archive; docs/traces.md) in a folder, set %s to that folder, and run the reproduction again.",
		strings.Join(parts, "; "), plural(len(files), "trace", "traces"), andList(files), plural(len(files), "was", "were"), plural(len(files), "it", "them"), plural(len(files), "it", "them"), workload.TraceDirsEnv)
}

// andList joins words as "a", "a and b", "a, b and c".
func andList(ws []string) string {
	if len(ws) < 2 {
		return strings.Join(ws, "")
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " and " + ws[len(ws)-1]
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// failedClaims counts the claims of a report that these runs do not
// show (Check.Failed: no, direction only, not reproduced).
func failedClaims(r *repro.Report) int {
	n := 0
	for _, c := range r.Checks {
		if c.Failed() {
			n++
		}
	}
	return n
}

// checkOptions refuses the options the chosen paper would ignore.
func (c *reproduceCmd) checkOptions() error {
	only := func(flag, papers string, set bool) error {
		if set && c.Paper != "all" && !strings.Contains(papers, c.Paper) {
			return fmt.Errorf("%s is only for %s (reproduce %s does not use it)", flag, papers, c.Paper)
		}
		return nil
	}
	for _, e := range []error{
		only("--readings", "dimitriadou2010, klusacek2008, hafshejani2012 or alnajjar2019", c.Readings),
		only("--bm-est", "klusacek2008", c.BMEst != "min"),
		only("--deadline-rule", "klusacek2008", c.Deadline != "factor"),
		only("--arrival-reading", "alnajjar2019", c.Arrival != "A"),
		only("--reps", "zikos2008, dimitriadou2010, klusacek2008 or alnajjar2019", c.Reps != nil),
		only("--jobs", "zikos2008, dimitriadou2010, klusacek2008 or alnajjar2019", c.Jobs != nil),
	} {
		if e != nil {
			return e
		}
	}
	return nil
}

// checkOutDir fails early when dir cannot be an output folder: it, or
// the nearest of its parents that exists, is not a folder. Commands call
// it before computing, so a wrong --out costs nothing.
func checkOutDir(dir string) error {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		st, err := os.Stat(d)
		if err == nil {
			if !st.IsDir() {
				return fmt.Errorf("output folder %s: %s exists and is not a folder", dir, d)
			}
			return nil
		}
		if !os.IsNotExist(err) && !errors.Is(err, syscall.ENOTDIR) {
			return fmt.Errorf("output folder %s: %w", dir, err)
		}
		if p := filepath.Dir(d); p == d {
			return nil
		}
	}
}

// bar is a progress bar on a terminal; elsewhere (a pipe, a file, a
// job's log) plain lines: the runs done so far every plainEvery, and one
// line when the paper is done, so that a log shows progress without a
// bar's control characters.
type bar struct {
	mu    sync.Mutex
	p     *mpb.Progress
	b     *mpb.Bar
	total int64
	// incr feeds the bar's moving average: n runs done in the time since
	// the previous report, lastAdd (b.b.EwmaIncrBy; a test's recorder).
	incr    func(n int, d time.Duration)
	lastAdd time.Time
	now     func() time.Time

	plain    io.Writer // not a terminal: where the lines go
	name     string
	doneRuns int64
	start    time.Time
	last     time.Time // the last line
}

// plainEvery is how often a plain progress line is written.
const plainEvery = 10 * time.Second

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// newBar is a bar on w: drawn where w is a terminal that reports a size,
// plain lines otherwise (a pipe, a file, a terminal of no size, on which
// a drawn bar shows nothing).
func newBar(w io.Writer, name string) *bar {
	if !isTerminal(w) || !hasSize(w) {
		now := time.Now()
		return &bar{plain: w, name: name, start: now, last: now}
	}
	return drawnBar(w, name)
}

// drawnBar is the bar drawn on w (newBar's on a terminal), with more
// options of the container (a test's mpb.WithAutoRefresh: w is not a
// terminal).
func drawnBar(w io.Writer, name string, opts ...mpb.ContainerOption) *bar {
	p := mpb.New(append([]mpb.ContainerOption{mpb.WithOutput(w), mpb.WithWidth(40)}, opts...)...)
	b := p.AddBar(0,
		mpb.PrependDecorators(decor.Name(name+" "), decor.CountersNoUnit("%d/%d runs")),
		mpb.AppendDecorators(decor.Percentage(), decor.Name(" ETA "), decor.EwmaETA(decor.ET_STYLE_GO, 30)))
	return &bar{p: p, b: b, incr: b.EwmaIncrBy, now: time.Now, lastAdd: time.Now()}
}

func (b *bar) Grow(n int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.total += int64(n)
	if b.b != nil {
		b.b.SetTotal(b.total, false)
	}
}

func (b *bar) Add(n int) {
	if b.incr != nil {
		// The moving average takes the real time the runs took (a
		// constant duration made its ETA read 0s).
		b.mu.Lock()
		now := b.now()
		d := now.Sub(b.lastAdd)
		b.lastAdd = now
		b.mu.Unlock()
		b.incr(n, d)
		return
	}
	if b.plain == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.doneRuns += int64(n)
	if now := time.Now(); now.Sub(b.last) >= plainEvery {
		b.last = now
		fmt.Fprintf(b.plain, "%s: %d of %d runs so far (%s)%s\n", b.name, b.doneRuns, b.total, now.Sub(b.start).Round(time.Second), plainETA(now.Sub(b.start), b.doneRuns, b.total))
	}
}

// plainETA is a plain line's time left: the runs left at the mean time
// of the runs done so far ("" before the first or after the last).
func plainETA(elapsed time.Duration, done, total int64) string {
	if done <= 0 || done >= total {
		return ""
	}
	left := time.Duration(float64(elapsed) * float64(total-done) / float64(done))
	return ", about " + left.Round(time.Second).String() + " left"
}

func (b *bar) done() {
	if b.b == nil {
		if b.plain != nil {
			fmt.Fprintf(b.plain, "%s: %d runs done (%s)\n", b.name, b.doneRuns, time.Since(b.start).Round(time.Second))
		}
		return
	}
	b.b.SetTotal(b.total, true)
	b.p.Wait()
}
