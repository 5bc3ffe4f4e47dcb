package repro

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/schedlab/schedlab/experiment"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/policy/rank"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/report/plot"
	"github.com/schedlab/schedlab/scenario"
	"github.com/schedlab/schedlab/stats"
	"github.com/schedlab/schedlab/sweep"
	"github.com/schedlab/schedlab/workload/synth"
)

// AlNajjarDefaults: 10,000 jobs (the paper's), 5 replications (the paper
// reports one run; ours give confidence intervals).
func AlNajjarDefaults() Options { return Options{Seed: 2019, Reps: 5, Jobs: 10_000} }

// AlNajjarQuick is a smoke-sized run: 2 replications of 2,000 jobs (the
// jobs test then runs 200..2,000 jobs).
func AlNajjarQuick() Options { return Options{Seed: 2019, Reps: 2, Jobs: 2000} }

// AlNajjarReading names the reading of the arrival model a reproduction
// uses: "A" (default: each job's creation time a Poisson(10,000 s) draw,
// versus DiscreteUniform{0..400,000} s creation times) or "B" (a Poisson
// process of mean gap 10 s, versus DiscreteUniform{0..80} s gaps).
// Readings also runs Table 10 under the other reading and with the rank
// reading memory in KB instead of MB (readings.csv).
type AlNajjarReading struct {
	Reading  string
	Readings bool
}

// AlNajjarDefaultReading is reading A, the one whose pattern is closest
// to Table 10's (docs/papers/alnajjar2019.md).
func AlNajjarDefaultReading() AlNajjarReading { return AlNajjarReading{Reading: "A"} }

// arrivals returns the Poisson and the uniform arrival of a reading.
func arrivals(reading string) (synth.Arrival, synth.Arrival, error) {
	switch reading {
	case "A":
		return synth.PoissonTime, synth.UniformTime, nil
	case "B":
		return synth.PoissonProcess, synth.UniformGaps, nil
	}
	return 0, 0, fmt.Errorf("unknown arrival reading %q (known: A, B)", reading)
}

// acfg is one configuration: a rank on a platform of cpus CPUs, jobs jobs
// arriving by arrival; kb reads memory in KB in the rank.
type acfg struct {
	form    rank.Form
	arrival synth.Arrival
	cpus    int
	jobs    int
	kb      bool
	rules   anRules
}

// anRules is a reading of JRB's open rules: the selection rule, the jobs'
// CPU-speed requirement (uniform on [0, speed]; 0: none) and the log
// rank's log10 below 1.
type anRules struct {
	sel      rank.Select
	speed    float64
	logBelow bool
}

type alnajjar struct {
	opt              Options
	runs             *sweep.Memo
	poisson, uniform synth.Arrival
	rules            anRules
}

// scenario is configuration c as a cluster scenario: c.cpus CPUs, the
// jrb workload model (its arrival reading and CPU-speed requirement;
// c.jobs jobs) under the jrb queue policy with c's rank form, selection
// rule, log rule and memory unit.
func (a *alnajjar) scenario(c acfg) scenario.Scenario {
	logBelow, unit := "zero", "mb"
	if c.rules.logBelow {
		logBelow = "log"
	}
	if c.kb {
		unit = "kb"
	}
	return scenario.Scenario{Name: "alnajjar2019", Model: registry.ModelCluster, Seed: a.opt.Seed, Replications: a.opt.Reps,
		Stop: scenario.Stop{Completed: int64(c.jobs)}, Platform: scenario.Platform{Procs: c.cpus},
		Workload: scenario.Workload{Model: "jrb", Estimate: "request", OnOverrun: "kill",
			Options: map[string]string{"arrival": c.arrival.String(), "speed_max": strconv.FormatFloat(c.rules.speed, 'g', -1, 64)}},
		Policy: scenario.PolicySpec{Queue: "jrb",
			Options: map[string]string{"rank": c.form.String(), "select": c.rules.sel.String(), "log_below_one": logBelow, "memory_unit": unit}}}
}

// col is metric m of configuration c over its replications, from each
// replication's summary (RepMetrics.Detail).
func (a *alnajjar) col(c acfg, m func(metrics.Result) float64) []float64 {
	rs := a.runs.Reps(a.scenario(c))
	out := make([]float64, len(rs))
	for i, r := range rs {
		out[i] = m(r.Detail.(experiment.ClusterResult).Result)
	}
	return out
}

// offeredLoad is the offered load of configuration c per replication:
// its jobs' work over c.cpus x the span of their submissions.
func (a *alnajjar) offeredLoad(c acfg) ([]float64, error) {
	var out []float64
	for rep := range a.opt.Reps {
		o := synth.JRBDefaults(c.jobs, c.arrival)
		o.SpeedMax = c.rules.speed
		jobs, err := synth.JRBJobs(a.opt.Seed, rep, o)
		if err != nil {
			return nil, err
		}
		out = append(out, synth.JRBLoad(jobs, c.cpus))
	}
	return out, nil
}

// anReading is a named reading (reproduce --readings).
type anReading struct {
	name, why string
	rules     anRules
}

// anSpeedSweep are the upper ends of the CPU-speed requirement --readings
// sweeps under strict selection (the paper gives no distribution).
func anSpeedSweep() []float64 { return []float64{0, 3_000, 10_000, 30_000, 100_000} }

func anReadings() []anReading {
	return []anReading{
		{"strict", "select: strict (the smallest-rank job starts next and holds the queue until it fits: \"Select the job with the smallest positive rank value and assign it to start execution\"; \"the scheduler chooses the smallest ranked job in the queue to be served\"), jobs without a speed requirement",
			anRules{sel: rank.SelectStrict}},
		{"fit-now-speed", "today's selection (fit-now) with every job given a CPU-speed requirement uniform on [0, 100,000], so that Eq. 1's 10*Speed term is not always 0 (\"each job ... contains three variables including number of CPUs, memory size and average CPU speed\")",
			anRules{speed: 100_000}},
		{"strict-speed-fitted", "A FITTED SETTING, not a reading of the text: its speed range U[0, 100,000] is the top of the speed sweep beside it (speed_sweep.csv, speed-sweep.svg: the AWT ratio grows with the range, x1.01 at 0 to x6.02 at 100,000), chosen after seeing the ratios. select: strict and a CPU-speed requirement uniform on [0, 100,000]: both open points read as the text states them; at this range Eq. 1's speed term outweighs its CPU term (10 x 50,000 on average vs 3,000 x 7.3), so JRB orders jobs almost regardless of size while the fitted ranks (no speed term) order them by size. The paper gives no speed distribution: speed_sweep.csv shows the ratios over the range",
			anRules{sel: rank.SelectStrict, speed: 100_000}},
		{"eq6-log", "the log rank takes log10 of memory below 1 MB per CPU (negative) as Eq. 6 writes it, instead of counting it as 0; otherwise the default",
			anRules{logBelow: true}},
		// The rest of the select x speed x log-below combinations, so
		// that the readings table shows every one.
		{"strict+eq6-log", "strict and eq6-log together", anRules{sel: rank.SelectStrict, logBelow: true}},
		{"fit-now-speed+eq6-log", "fit-now-speed and eq6-log together", anRules{speed: 100_000, logBelow: true}},
		{"strict-speed-fitted+eq6-log", "strict-speed-fitted (A FITTED SETTING: its speed range is the top of the speed sweep) and eq6-log together",
			anRules{sel: rank.SelectStrict, speed: 100_000, logBelow: true}},
	}
}

// The paper's policies in its order, with its names.
var anForms = []rank.Form{rank.FormOriginal, rank.FormLinear, rank.FormLog}

func anName(f rank.Form) string {
	return map[rank.Form]string{rank.FormOriginal: "JRB", rank.FormLinear: "JRB_Linear", rank.FormLog: "JRB_Log10"}[f]
}

func anCPUs() []int { return []int{200, 300, 400, 500, 600, 700, 800, 900, 1000} }

// AlNajjar2019 reproduces al-najjar-2019: Tables 10-12 (the improvement
// of JRB_Linear and JRB_Log10 over JRB in TET and AWT, in multiples and
// percentages) for the creation-time test, the CPUs test (200..1,000) and
// the jobs test (Jobs/10 .. Jobs), Figures 3-7, and the paper's claims.
func AlNajjar2019(opt Options, rd AlNajjarReading) (*Report, error) {
	if opt.Reps < 2 || opt.Jobs < 10 {
		return nil, fmt.Errorf("need at least 2 replications (for a CI) and 10 jobs, got %d and %d", opt.Reps, opt.Jobs)
	}
	if opt.Jobs > synth.MaxJRBJobs {
		return nil, fmt.Errorf("%d jobs per replication, more than the limit of %d", opt.Jobs, synth.MaxJRBJobs)
	}
	if opt.Progress == nil {
		opt.Progress = nopProgress{}
	}
	po, un, err := arrivals(rd.Reading)
	if err != nil {
		return nil, err
	}
	if err := checkReps(opt); err != nil {
		return nil, err
	}
	a := &alnajjar{opt: opt, runs: sweep.NewMemo(opt.Workers, opt.Progress), poisson: po, uniform: un}
	views := []*alnajjar{a}
	if rd.Readings {
		for _, ar := range anReadings() {
			v := *a
			v.rules = ar.rules
			views = append(views, &v)
		}
	}

	n := int(opt.Jobs)
	jobCounts := make([]int, 10)
	for k := range jobCounts {
		jobCounts[k] = n * (k + 1) / 10
	}
	var cfgs []acfg
	for _, a := range views {
		for _, f := range anForms {
			cfgs = append(cfgs, acfg{f, po, 200, n, false, a.rules}, acfg{f, un, 200, n, false, a.rules})
			for _, c := range anCPUs() {
				cfgs = append(cfgs, acfg{f, po, c, n, false, a.rules})
			}
			for _, j := range jobCounts {
				cfgs = append(cfgs, acfg{f, po, 200, j, false, a.rules})
			}
		}
	}
	if rd.Readings {
		for _, sp := range anSpeedSweep() {
			for _, f := range anForms {
				cfgs = append(cfgs, acfg{f, po, 200, n, false, anRules{sel: rank.SelectStrict, speed: sp}})
			}
		}
	}
	otherReading := map[string]string{"A": "B", "B": "A"}[rd.Reading]
	opo, oun, _ := arrivals(otherReading)
	if rd.Readings {
		for _, f := range anForms {
			for _, arr := range []synth.Arrival{po, un, opo, oun} {
				cfgs = append(cfgs, acfg{f, arr, 200, n, true, a.rules})
			}
			cfgs = append(cfgs, acfg{f, opo, 200, n, false, a.rules}, acfg{f, oun, 200, n, false, a.rules})
		}
	}
	scens := make([]scenario.Scenario, len(cfgs))
	for i, c := range cfgs {
		scens[i] = a.scenario(c)
	}
	if err := a.runs.Run(scens); err != nil {
		return nil, err
	}

	r := &Report{Paper: "alnajjar2019", Title: "Al-Najjar et al. 2019: Job Ranking Backfilling with linear and logarithmic ranks",
		Setup: fmt.Sprintf("JRB (3000*CPU + 75*MemMB + 10*Speed), JRB_Linear (257.099 + 6.565*CPU - 0.011*MemMB) and JRB_Log10 "+
			"(10.130 + 568.756*log10 CPU + 91.513*log10 MemMB) on one machine; smallest rank among the jobs that fit, no reservation. "+
			"Workload reconstructed from the paper's Tables 2-9 (CPUs 1..128, memory per CPU geo-mean 5 MB, runtimes mean 305 s, SD ~4,400 s); "+
			"arrival reading %s (Poisson: %s, uniform: %s); %d jobs (jobs test: %d..%d), 200 CPUs (CPUs test: 200..1000), %d replications. "+
			"Improvement = metric of JRB / metric of the variant, per replication (common random numbers); percentage = (1 - 1/ratio) x 100.",
			rd.Reading, po, un, n, jobCounts[0], n, opt.Reps)}

	// Table 10: creation-time test.
	for _, arr := range []struct {
		name string
		a    synth.Arrival
	}{{"poisson", po}, {"uniform", un}} {
		for _, f := range anForms[1:] {
			p := table10[arr.name+"/"+f.String()]
			a.ratioItems(r, fmt.Sprintf("table10/%s/%s", arr.name, f), p, acfg{rank.FormOriginal, arr.a, 200, n, false, a.rules}, acfg{f, arr.a, 200, n, false, a.rules}, "")
		}
	}
	// Table 11: CPUs test, then the average row.
	for _, f := range anForms[1:] {
		var tets, awts [][]float64
		for i, c := range anCPUs() {
			t, w := a.ratioItems(r, fmt.Sprintf("table11/%s/cpu%d", f, c), table11[f.String()][i], acfg{rank.FormOriginal, po, c, n, false, a.rules}, acfg{f, po, c, n, false, a.rules}, "")
			tets, awts = append(tets, t), append(awts, w)
		}
		avg := table11[f.String()][len(anCPUs())]
		r.Items = append(r.Items, meanRowItem(fmt.Sprintf("table11/%s/average/tet", f), avg[0], tets),
			meanRowItem(fmt.Sprintf("table11/%s/average/awt", f), avg[1], awts))
	}
	// Table 12: jobs test; the legible cells (linear at 1,000 and 2,000
	// jobs when Jobs is the paper's 10,000), then the text's ranges and
	// averages.
	for _, f := range anForms[1:] {
		var tets, awts [][]float64
		for _, j := range jobCounts {
			p := [4]float64{math.NaN(), math.NaN(), math.NaN(), math.NaN()}
			if v, ok := table12[fmt.Sprintf("%s/%d", f, j)]; ok && n == 10_000 {
				p = v
			}
			t, w := a.ratioItems(r, fmt.Sprintf("table12/%s/jobs%d", f, j), p, acfg{rank.FormOriginal, po, 200, j, false, a.rules}, acfg{f, po, 200, j, false, a.rules}, "")
			tets, awts = append(tets, t), append(awts, w)
		}
		tx := table12Text[f.String()]
		r.Items = append(r.Items, meanRowItem(fmt.Sprintf("table12/%s/average/tet", f), tx[0], tets),
			meanRowItem(fmt.Sprintf("table12/%s/average/awt", f), tx[1], awts),
			extremeItem(fmt.Sprintf("table12/%s/min/tet", f), tx[2], tets, false), extremeItem(fmt.Sprintf("table12/%s/max/tet", f), tx[3], tets, true),
			extremeItem(fmt.Sprintf("table12/%s/min/awt", f), tx[4], awts, false), extremeItem(fmt.Sprintf("table12/%s/max/awt", f), tx[5], awts, true))
	}
	// Our own: the offered load of each arrival (work / (200 CPUs x the
	// arrival span)).
	for _, arr := range []synth.Arrival{po, un} {
		xs, err := a.offeredLoad(acfg{rank.FormOriginal, arr, 200, n, false, a.rules})
		if err != nil {
			return nil, err
		}
		r.Items = append(r.Items, withFile(item(fmt.Sprintf("offered_load/%s/cpu200", arr), math.NaN(), xs), "load.csv"))
	}
	if rd.Readings {
		for _, v := range []struct {
			label  string
			po, un synth.Arrival
			kb     bool
		}{{"reading=" + rd.Reading + "/mem=kb", po, un, true}, {"reading=" + otherReading + "/mem=mb", opo, oun, false}, {"reading=" + otherReading + "/mem=kb", opo, oun, true}} {
			for _, arr := range []struct {
				name string
				a    synth.Arrival
			}{{"poisson", v.po}, {"uniform", v.un}} {
				for _, f := range anForms[1:] {
					a.ratioItems(r, fmt.Sprintf("%s/table10/%s/%s", v.label, arr.name, f), table10[arr.name+"/"+f.String()],
						acfg{rank.FormOriginal, arr.a, 200, n, v.kb, a.rules}, acfg{f, arr.a, 200, n, v.kb, a.rules}, "readings.csv")
				}
			}
		}
	}
	if rd.Readings {
		a.readingItems(r, n)
	}
	a.figures(r, n, jobCounts)
	a.checks(r, n, jobCounts)
	if rd.Readings {
		r.DefaultWhy = "select: fit-now (the smallest rank among the jobs that fit now), no CPU-speed requirement (Eq. 1's speed term 0), log10 below 1 counted as 0: our first reading, kept as the default so that its results stay comparable; under it the ratios are about x1.00 because greedy fill-in makes the order hardly matter (docs/papers/alnajjar2019.md, Readings)"
		for i, ar := range anReadings() {
			var tmp Report
			views[i+1].figures(&tmp, n, jobCounts)
			views[i+1].checks(&tmp, n, jobCounts)
			r.Readings = append(r.Readings, Reading{Name: ar.name, Why: ar.why, Checks: tmp.Checks, Figures: tmp.Figures})
		}
	}
	r.Jobs = simulatedJobs(a.runs)
	r.Notes = append(r.Notes,
		"The paper's workload and simulator are unknown; ours is reconstructed from its regression tables (docs/papers/alnajjar2019.md). Under that workload all three ranks order jobs mostly by CPU count (1 CPU weighs as much as 40 MB in JRB and 597 MB in JRB_Linear, and memory per CPU has a geometric mean of 5 MB), so the schedules differ little.",
		"Table 12 is garbled in the paper's text: only the JRB_Linear cells at 1,000 and 2,000 jobs are legible; the text's ranges and averages are compared as published.")
	return r, nil
}

// readingItems adds, for --readings: the speed sweep under strict
// selection (speed_sweep.csv and a figure) and Table 11's average rows as
// the ratio of the metrics averaged over the CPU counts, under the default
// reading and each named one (readings.csv): the printed averages fit that
// (AWT: 3.551 and 2.771 printed; the means of the printed rows are 3.527
// and 2.886).
func (a *alnajjar) readingItems(r *Report, n int) {
	fig := plot.Figure{ID: "speed-sweep", Title: "AWT ratio JRB / variant under strict selection, by the CPU-speed requirement's range (Poisson, 200 CPUs)",
		XLabel: "speed requirement uniform on [0, x]", YLabel: "AWT of JRB / AWT of the variant"}
	for _, f := range anForms[1:] {
		s := plot.Series{Name: anName(f)}
		for _, sp := range anSpeedSweep() {
			rules := anRules{sel: rank.SelectStrict, speed: sp}
			_, w := a.ratioItems(r, fmt.Sprintf("strict/speed%g/table10/poisson/%s", sp, f), table10["poisson/"+f.String()],
				acfg{rank.FormOriginal, a.poisson, 200, n, false, rules}, acfg{f, a.poisson, 200, n, false, rules}, "speed_sweep.csv")
			c := stats.CI95(w)
			s.X, s.Y = append(s.X, sp), append(s.Y, c.Mean)
			s.Low, s.High = append(s.Low, c.Low), append(s.High, c.High)
		}
		fig.Series = append(fig.Series, s)
	}
	r.Figures = append(r.Figures, fig)
	names := []string{"default"}
	rules := []anRules{{}}
	for _, ar := range anReadings() {
		names, rules = append(names, ar.name), append(rules, ar.rules)
	}
	for i, ru := range rules {
		for _, f := range anForms[1:] {
			avg := table11[f.String()][len(anCPUs())]
			for k, m := range []func(metrics.Result) float64{jrbTET, jrbAWT} {
				var xs []float64
				for rep := range a.opt.Reps {
					var b, v float64
					for _, c := range anCPUs() {
						b += a.col(acfg{rank.FormOriginal, a.poisson, c, n, false, ru}, m)[rep]
						v += a.col(acfg{f, a.poisson, c, n, false, ru}, m)[rep]
					}
					xs = append(xs, ratio(b, v))
				}
				name := fmt.Sprintf("reading=%s/table11/%s/average_of_metrics/%s", names[i], f, []string{"tet", "awt"}[k])
				r.Items = append(r.Items, withFile(item(name, avg[k], xs), "readings.csv"))
			}
		}
	}
}

// The paper's numbers: multiples TET, AWT, then percentages TET, AWT.
var table10 = map[string][4]float64{
	"poisson/linear": {1.0543, 3.6649, 5.1489, 72.7143},
	"poisson/log":    {1.0617, 2.5752, 5.8149, 61.1685},
	"uniform/linear": {1.0001, 1.2469, 0.0102, 19.8018},
	"uniform/log":    {1.0003, 1.1308, 0.0268, 11.5653},
}

// table11 rows: 200..1000 CPUs, then the average row.
var table11 = map[string][][4]float64{
	"linear": {
		{1.11014, 3.63028, 9.92108, 72.45388}, {1.03319, 3.43858, 3.21196, 70.91823}, {1.02348, 3.60004, 2.29390, 72.22250},
		{1.00592, 3.54110, 0.58829, 71.76020}, {1.01488, 3.69121, 1.46573, 72.90858}, {1.00599, 3.42530, 0.59573, 70.80551},
		{1.00527, 3.46295, 0.52386, 71.12286}, {1.00403, 3.56525, 0.40157, 71.95150}, {1.00789, 3.38665, 0.78311, 70.47226},
		{1.02585, 3.55077, 2.51968, 71.83710},
	},
	"log": {
		{1.01405, 2.56839, 1.38590, 61.06511}, {1.00529, 2.66008, 0.52609, 62.40719}, {1.00325, 2.85879, 0.32364, 65.02019},
		{0.99281, 3.11895, -0.72469, 67.93790}, {0.99745, 2.98543, -0.25574, 66.50397}, {0.99176, 2.96240, -0.83042, 66.24357},
		{0.99664, 2.95424, -0.33738, 66.15032}, {0.99353, 2.91555, -0.65141, 65.70113}, {1.00039, 2.95018, 0.03883, 66.10375},
		{1.00008, 2.77068, 0.00787, 63.90774},
	},
}

// table12: the legible cells.
var table12 = map[string][4]float64{
	"linear/1000": {1.093504, 4.23884, 8.5509, 76.4086},
	"linear/2000": {1.063074, 3.75015, 5.933185, 73.3344},
}

// table12Text: the text's average TET, average AWT, TET min, max, AWT
// min, max (NaN: not given; "no average TET gain" for the log rank).
var table12Text = map[string][6]float64{
	"linear": {1.047, 3.614, 1.017, 1.148, 3.368, 4.239},
	"log":    {math.NaN(), 2.609, 1.008, 1.062, 2.324, 2.870},
}

// ratioItems adds the four items of one cell (tet, awt, tet_pct,
// awt_pct) and returns the per-replication ratios of TET and AWT.
func (a *alnajjar) ratioItems(r *Report, name string, paper [4]float64, base, variant acfg, file string) (tet, awt []float64) {
	bt, vt := a.col(base, jrbTET), a.col(variant, jrbTET)
	bw, vw := a.col(base, jrbAWT), a.col(variant, jrbAWT)
	var tp, wp []float64
	for i := range bt {
		tet, awt = append(tet, ratio(bt[i], vt[i])), append(awt, ratio(bw[i], vw[i]))
		tp, wp = append(tp, pctOf(tet[i])), append(wp, pctOf(awt[i]))
	}
	r.Items = append(r.Items, withFile(item(name+"/tet", paper[0], tet), file), withFile(item(name+"/awt", paper[1], awt), file),
		withFile(item(name+"/tet_pct", paper[2], tp), file), withFile(item(name+"/awt_pct", paper[3], wp), file))
	return tet, awt
}

// jrbTET is the total execution time, last end - first submit; jrbAWT
// the average waiting time.
func jrbTET(r metrics.Result) float64 { return r.Makespan - r.FirstSubmit }
func jrbAWT(r metrics.Result) float64 { return r.MeanWait }

// ratio is a / b, 1 when both are 0 (no wait at all under either rank).
func ratio(a, b float64) float64 {
	if a == b {
		return 1
	}
	return a / b
}

func pctOf(ratio float64) float64 { return (1 - 1/ratio) * 100 }

// meanRowItem is the mean over a table's rows of the per-replication
// ratios (each replication's average row), with its CI.
func meanRowItem(name string, paper float64, rows [][]float64) Item {
	reps := len(rows[0])
	xs := make([]float64, reps)
	for i := range reps {
		for _, row := range rows {
			xs[i] += row[i] / float64(len(rows))
		}
	}
	return item(name, paper, xs)
}

// extremeItem is the smallest (or largest) over the rows of the mean
// ratio: no CI.
func extremeItem(name string, paper float64, rows [][]float64, largest bool) Item {
	var means []float64
	for _, row := range rows {
		means = append(means, stats.CI95(row).Mean)
	}
	v := slices.Min(means)
	if largest {
		v = slices.Max(means)
	}
	return Item{Name: name, Paper: paper, Ours: v, Low: math.NaN(), High: math.NaN()}
}

func (a *alnajjar) series(f rank.Form, xs []float64, cfg func(x float64) acfg, m func(metrics.Result) float64) plot.Series {
	s := plot.Series{Name: anName(f)}
	for _, x := range xs {
		c := stats.CI95(a.col(cfg(x), m))
		s.X, s.Y = append(s.X, x), append(s.Y, c.Mean)
		s.Low, s.High = append(s.Low, c.Low), append(s.High, c.High)
	}
	return s
}

func (a *alnajjar) figures(r *Report, n int, jobCounts []int) {
	bars := func(id, title, ylabel string, m func(metrics.Result) float64) plot.Figure {
		fig := plot.Figure{ID: id, Title: title, XLabel: "job creation time distribution", YLabel: ylabel, Bars: true,
			XTicks: []string{"Poisson (" + a.poisson.String() + ")", "uniform (" + a.uniform.String() + ")"}}
		for _, f := range anForms {
			fig.Series = append(fig.Series, a.series(f, []float64{0, 1}, func(x float64) acfg {
				return acfg{f, map[float64]synth.Arrival{0: a.poisson, 1: a.uniform}[x], 200, n, false, a.rules}
			}, m))
		}
		return fig
	}
	lines := func(id, title, xlabel, ylabel string, xs []float64, cfg func(f rank.Form, x float64) acfg, m func(metrics.Result) float64) plot.Figure {
		fig := plot.Figure{ID: id, Title: title, XLabel: xlabel, YLabel: ylabel}
		for _, f := range anForms {
			fig.Series = append(fig.Series, a.series(f, xs, func(x float64) acfg { return cfg(f, x) }, m))
		}
		return fig
	}
	var cpus, jobs []float64
	for _, c := range anCPUs() {
		cpus = append(cpus, float64(c))
	}
	for _, j := range jobCounts {
		jobs = append(jobs, float64(j))
	}
	byCPU := func(f rank.Form, x float64) acfg { return acfg{f, a.poisson, int(x), n, false, a.rules} }
	byJobs := func(f rank.Form, x float64) acfg { return acfg{f, a.poisson, 200, int(x), false, a.rules} }
	r.Figures = append(r.Figures,
		bars("fig03a", "Fig. 3: total execution time by creation-time distribution", "TET (s)", jrbTET),
		bars("fig03b", "Fig. 3: average waiting time by creation-time distribution", "AWT (s)", jrbAWT),
		lines("fig04", "Fig. 4: total execution time, number of CPUs test", "CPUs", "TET (s)", cpus, byCPU, jrbTET),
		lines("fig05", "Fig. 5: average waiting time, number of CPUs test", "CPUs", "AWT (s)", cpus, byCPU, jrbAWT),
		lines("fig06", "Fig. 6: total execution time, number of jobs test", "jobs", "TET (s)", jobs, byJobs, jrbTET),
		lines("fig07", "Fig. 7: average waiting time, number of jobs test", "jobs", "AWT (s)", jobs, byJobs, jrbAWT),
	)
}

func (a *alnajjar) meanRatio(base, variant acfg, m func(metrics.Result) float64) stats.MeanCI {
	b, v := a.col(base, m), a.col(variant, m)
	xs := make([]float64, len(b))
	for i := range b {
		xs[i] = ratio(b[i], v[i])
	}
	return stats.CI95(xs)
}

// The paper's sizes are judged as ranges of the gain (ratio - 1) within
// a factor gainBand of the published gain: x3.66 -> x2.77..x4.99.
const gainBand = 1.5

func (a *alnajjar) checks(r *Report, n int, jobCounts []int) {
	add := func(c Check) { r.Checks = append(r.Checks, c) }
	// gain is JRB's metric over the variant's, replication by replication
	// (common random numbers): the claim is that the variant is better
	// (the ratio above 1).
	gain := func(label string, arr synth.Arrival, f rank.Form, cpus, jobs int, m func(metrics.Result) float64) Cmp {
		return RatioCmp(label, a.col(acfg{rank.FormOriginal, arr, cpus, jobs, false, a.rules}, m), a.col(acfg{f, arr, cpus, jobs, false, a.rules}, m), Higher)
	}
	ratios := func(arr synth.Arrival, f rank.Form, cpus, jobs int, m func(metrics.Result) float64) []float64 {
		b, v := a.col(acfg{rank.FormOriginal, arr, cpus, jobs, false, a.rules}, m), a.col(acfg{f, arr, cpus, jobs, false, a.rules}, m)
		xs := make([]float64, len(b))
		for i := range b {
			xs[i] = ratio(b[i], v[i])
		}
		return xs
	}

	// 1. Large AWT gains under Poisson creation times.
	pl := gain("AWT JRB/JRB_Linear", a.poisson, rank.FormLinear, 200, n, jrbAWT).Around(3.66, gainBand)
	pg := gain("AWT JRB/JRB_Log10", a.poisson, rank.FormLog, 200, n, jrbAWT).Around(2.58, gainBand)
	add(judged("poisson_awt_gain_large", "under Poisson creation times JRB_Linear and JRB_Log10 cut the AWT of JRB by large multiples (Table 10: x3.66 and x2.58)", "", pl, pg))
	// 2. Small AWT gains under uniform creation times, smaller than under
	// Poisson.
	ul := gain("AWT JRB/JRB_Linear", a.uniform, rank.FormLinear, 200, n, jrbAWT).Around(1.25, gainBand)
	ug := gain("AWT JRB/JRB_Log10", a.uniform, rank.FormLog, 200, n, jrbAWT).Around(1.13, gainBand)
	sl := Diff("JRB_Linear's AWT ratio, uniform - Poisson", ratios(a.uniform, rank.FormLinear, 200, n, jrbAWT), ratios(a.poisson, rank.FormLinear, 200, n, jrbAWT), Lower)
	sg := Diff("JRB_Log10's AWT ratio, uniform - Poisson", ratios(a.uniform, rank.FormLog, 200, n, jrbAWT), ratios(a.poisson, rank.FormLog, 200, n, jrbAWT), Lower)
	add(judged("uniform_awt_gain_small", "under discrete uniform creation times the AWT gains are small (Table 10: x1.25 and x1.13) and smaller than under Poisson", "", ul, ug, sl, sg))
	// 3. TET gains of a few percent under Poisson, none under uniform.
	add(judged("poisson_tet_gain", "under Poisson creation times both variants shorten the TET by a few percent (Table 10: x1.054 and x1.062)", "",
		gain("TET JRB/JRB_Linear", a.poisson, rank.FormLinear, 200, n, jrbTET).Around(1.054, gainBand),
		gain("TET JRB/JRB_Log10", a.poisson, rank.FormLog, 200, n, jrbTET).Around(1.062, gainBand)))
	flat := func(label string, f rank.Form) Cmp {
		c := gain(label, a.uniform, f, 200, n, jrbTET)
		c.Dir = Near
		return c.Within(0.995, 1.005)
	}
	add(judged("uniform_tet_flat", "under uniform creation times the TET does not change (Table 10: x1.0001 and x1.0003; the ratio's interval within x0.995..x1.005)", "",
		flat("TET JRB/JRB_Linear", rank.FormLinear), flat("TET JRB/JRB_Log10", rank.FormLog)))
	// 4. JRB_Linear improves TET and AWT at every CPU count.
	var cs []Cmp
	for _, c := range anCPUs() {
		cs = append(cs, gain(fmt.Sprintf("%d CPUs TET", c), a.poisson, rank.FormLinear, c, n, jrbTET), gain(fmt.Sprintf("%d CPUs AWT", c), a.poisson, rank.FormLinear, c, n, jrbAWT))
	}
	add(judged("linear_better_every_cpu_count", "JRB_Linear outperforms JRB in TET and AWT at every number of CPUs (Table 11)", "JRB / JRB_Linear", cs...))
	// 5. AWT: JRB_Linear better than JRB_Log10 on average over the CPUs
	// test, each by about Table 11's averages.
	avg := func(f rank.Form) []float64 {
		var out []float64
		for _, c := range anCPUs() {
			xs := ratios(a.poisson, f, c, n, jrbAWT)
			if out == nil {
				out = make([]float64, len(xs))
			}
			for i := range xs {
				out[i] += xs[i] / float64(len(anCPUs()))
			}
		}
		return out
	}
	one := func(xs []float64) []float64 {
		out := make([]float64, len(xs))
		for i := range out {
			out[i] = 1
		}
		return out
	}
	lin, lg := avg(rank.FormLinear), avg(rank.FormLog)
	add(judged("linear_beats_log_awt", "JRB_Linear improves AWT more than JRB_Log10 on average over the CPUs test (Table 11 averages x3.551 and x2.771)", "average over the CPU counts of the AWT ratio",
		Diff("JRB_Linear - JRB_Log10", lin, lg, Higher),
		RatioCmp("JRB_Linear", lin, one(lin), Higher).Around(3.551, gainBand), RatioCmp("JRB_Log10", lg, one(lg), Higher).Around(2.771, gainBand)))
	// 6. Jobs test: JRB_Linear improves AWT at every job count (Table 12:
	// x3.368 to x4.239, read as the range from the first's lower band to
	// the second's upper).
	cs = nil
	for _, j := range jobCounts {
		cs = append(cs, gain(fmt.Sprintf("%d jobs", j), a.poisson, rank.FormLinear, 200, j, jrbAWT).Within(1+2.368/gainBand, 1+3.239*gainBand))
	}
	add(judged("linear_awt_better_every_job_count", "JRB_Linear improves AWT at every number of jobs (Table 12: x3.368 to x4.239)", "AWT JRB / JRB_Linear", cs...))
}
