package repro

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/report/plot"
	"github.com/schedlab/schedlab/scenario"
	"github.com/schedlab/schedlab/stats"
	"github.com/schedlab/schedlab/sweep"
)

// DimitriadouDefaults are the paper's: 10 replications of 120,000 jobs.
func DimitriadouDefaults() Options { return Options{Seed: 2010, Reps: 10, Jobs: 120000} }

// DimitriadouQuick is a smoke-sized run: 3 replications of 30,000 jobs.
func DimitriadouQuick() Options { return Options{Seed: 2010, Reps: 3, Jobs: 30000} }

var (
	dLoads  = []float64{0.12, 0.1, 0.08} // 1/lambda, low to high load
	dErrors = []float64{0, 0.1, 0.3}
	// Table II, E = 0, T = 0, uniform sizes: [approach 1, approach 2].
	dTable2 = map[float64][2]float64{0.08: {0.87999, 0.88034}, 0.1: {0.73785, 0.73791}, 0.12: {0.63484, 0.63490}}
)

// GangReading is one reading of the rules the paper leaves open
// (docs/papers/dimitriadou2010.md); the first of GangReadings is our default.
type GangReading struct {
	Name         string
	EmptyIdle    bool // "empty queue" = idle processor
	StepOneIdle  bool // idle processor in the GS queue's step 1 only
	Why          string
	SharedTimes  bool // one service time for all tasks of a gang
	ExamineEvery bool // examine the GS queue after every departure
}

// GangReadings lists the readings --readings measures, the default first (a
// fresh slice). Each alternative changes one setting from its default:
// the gang policy's empty_queue and examine options (see package
// policy/gang) and the workload's gang_times.
func GangReadings() []GangReading {
	return []GangReading{
		{Name: "design"},
		{Name: "empty-is-idle", EmptyIdle: true,
			Why: "empty_queue: idle: an \"empty queue\" is an idle processor (nothing waiting or running), in arrivals' rule (b) and in the GS queue's step 1"},
		{Name: "shared-task-times", SharedTimes: true,
			Why: "one service time for all the tasks of a gang instead of one per task"},
		{Name: "examine-every-departure", ExamineEvery: true,
			Why: "the grid scheduler examines its queue after every departure, not only after one that left a queue empty"},
		{Name: "idle-in-gs-queue", StepOneIdle: true,
			Why: "empty_queue: idle-in-gs-queue: the GS queue's step 1 counts idle processors while arrivals' rule (b) still counts queues with nothing waiting; the only reading found that gives Fig. 3's shape (approach 2 finishing almost every power-of-2 gang at the two lower loads), offered for Fig. 3 only: it breaks the approach-2 utilization and WRT claims"},
	}
}

type dcfg struct {
	approach int
	ia, e    float64
	pow2     bool
	reading  GangReading
}

type dimitriadou struct {
	opt  Options
	runs *sweep.Memo
}

// scenario is configuration c as a gang scenario: 2 sites of 16
// processors, locals Poisson per site, gangs Poisson at the grid
// scheduler (mean inter-arrival 2) with sizes uniform on 2..13 or powers
// of two, exponential service of mean 1, split overhead 10%, opt.Jobs
// completed jobs, no warm-up; the approach's options are those it
// declares (gangOptions).
func (d *dimitriadou) scenario(c dcfg) scenario.Scenario {
	w := scenario.Workload{MeanInterarrival: c.ia, MeanService: 1, GangMeanInterarrival: 2, GangSizes: "uniform", GangMin: 2, GangMax: 13,
		GangTimes: "independent", EstimateError: c.e, SplitOverhead: 0.1}
	if c.pow2 {
		w.GangSizes, w.GangMin, w.GangMax = "pow2", 0, 0
	}
	if c.reading.SharedTimes {
		w.GangTimes = "shared"
	}
	opts := gangOptions(c.reading)
	if ap, err := registry.Lookup(registry.ModelGang, registry.KindApproach, strconv.Itoa(c.approach)); err == nil {
		opts = ap.Own(opts)
	}
	return scenario.Scenario{Name: "dimitriadou2010", Model: registry.ModelGang, Seed: d.opt.Seed, Replications: d.opt.Reps,
		Stop:     scenario.Stop{Completed: d.opt.Jobs},
		Platform: scenario.Platform{Sites: []scenario.Site{{Procs: 16, Speed: 1}, {Procs: 16, Speed: 1}}},
		Workload: w, Policy: scenario.PolicySpec{Approach: c.approach, Options: opts}}
}

// metric is the metric called name of configuration c over its
// replications.
func (d *dimitriadou) metric(c dcfg, name string) []float64 {
	return d.runs.Values(d.scenario(c), name)
}

func lambdaOf(ia float64) float64 { return math.Round(1/ia*100) / 100 }

// Dimitriadou2010 reproduces dimitriadou-karatza-2010: Table II and Figures
// 2-13; with readings set, also Table II and Figures 2-3 under each
// alternative reading of the paper's rules.
func Dimitriadou2010(opt Options, readings bool) (*Report, error) {
	if opt.Reps < 2 || opt.Jobs < 1 {
		return nil, fmt.Errorf("dimitriadou2010: need at least 2 replications (for a CI) and 1 job, got %d and %d", opt.Reps, opt.Jobs)
	}
	if opt.Progress == nil {
		opt.Progress = nopProgress{}
	}
	if err := checkReps(opt); err != nil {
		return nil, err
	}
	d := &dimitriadou{opt: opt, runs: sweep.NewMemo(opt.Workers, opt.Progress)}
	rds := GangReadings()
	def := rds[0]
	var cfgs []dcfg
	for _, a := range []int{1, 2} {
		for _, ia := range dLoads {
			for _, e := range dErrors {
				cfgs = append(cfgs, dcfg{a, ia, e, false, def})
			}
			cfgs = append(cfgs, dcfg{a, ia, 0, true, def})
			if readings {
				for _, rd := range rds[1:] {
					for _, e := range dErrors {
						cfgs = append(cfgs, dcfg{a, ia, e, false, rd})
					}
					cfgs = append(cfgs, dcfg{a, ia, 0, true, rd})
				}
			}
		}
	}
	scens := make([]scenario.Scenario, len(cfgs))
	for i, c := range cfgs {
		scens[i] = d.scenario(c)
	}
	if err := d.runs.Run(scens); err != nil {
		return nil, err
	}
	r := &Report{Paper: "dimitriadou2010", Title: "Job scheduling in a distributed system using backfilling with inaccurate runtime computations (Dimitriadou & Karatza, 2010)"}
	r.Setup = fmt.Sprintf("2 sites x 16 processors, per-processor queues; locals Poisson per site (1/λ = 0.08, 0.1, 0.12), gangs Poisson at the GS (1/λ3 = 2) "+
		"with sizes uniform on 2..13 or {2,4,8,16}; exponential service (mean 1), each task its own; T = 0; split overhead 10%%; "+
		"%d replications of %d completed jobs, seed %d, common random numbers; reading of the open rules: our default (docs/papers/dimitriadou2010.md).",
		opt.Reps, opt.Jobs, opt.Seed)
	util := "utilization"
	for _, a := range []int{1, 2} {
		for _, ia := range []float64{0.08, 0.1, 0.12} {
			r.Items = append(r.Items, item(fmt.Sprintf("table2/approach%d/ia%g/utilization", a, ia), dTable2[ia][a-1], d.metric(dcfg{a, ia, 0, false, def}, util)))
		}
	}
	if readings {
		for _, rd := range rds[1:] {
			for _, a := range []int{1, 2} {
				for _, ia := range []float64{0.08, 0.1, 0.12} {
					it := item(fmt.Sprintf("readings/%s/table2/approach%d/ia%g/utilization", rd.Name, a, ia),
						dTable2[ia][a-1], d.metric(dcfg{a, ia, 0, false, rd}, util))
					it.File = "readings.csv"
					r.Items = append(r.Items, it)
				}
			}
		}
	}
	d.figures(r, readings)
	r.Checks = d.checks(def)
	if readings {
		r.DefaultWhy = "design: an \"empty queue\" has nothing waiting (its processor may be busy), in arrivals' rule (b) and the GS queue's step 1; each task of a gang its own service time; the GS queue examined after a departure that left a queue empty (docs/papers/dimitriadou2010.md)"
		for _, rd := range rds[1:] {
			r.Readings = append(r.Readings, Reading{Name: rd.Name, Why: rd.Why, Checks: d.checks(rd)})
		}
	}
	r.Jobs = simulatedJobs(d.runs)
	r.Notes = append(r.Notes,
		"the paper gives numbers only for Table II; Figures 2-13 are compared by the claims they support, checked above.",
		"Figure 3 (power-of-2 sizes) comes from the authors' earlier study [1], whose rules may differ; under our default reading approach 2 rarely needs to split a gang, so the gap between approaches that Fig. 3 shows does not appear. The alternative readings (--readings) show which rule produces it: see docs/papers/dimitriadou2010.md.")
	return r, nil
}

func (d *dimitriadou) series(name string, cfg func(ia float64) dcfg, f string) plot.Series {
	s := plot.Series{Name: name}
	for _, ia := range dLoads {
		c := stats.CI95(d.metric(cfg(ia), f))
		s.X = append(s.X, lambdaOf(ia))
		s.Y = append(s.Y, c.Mean)
		s.Low = append(s.Low, c.Low)
		s.High = append(s.High, c.High)
	}
	return s
}

func (d *dimitriadou) figures(r *Report, readings bool) {
	const xl = "local arrival rate per site λ"
	note := fmt.Sprintf("ours: %d replications x %d jobs, 95%% CI", d.opt.Reps, d.opt.Jobs)
	rds := GangReadings()
	def := rds[0]
	type metricDef struct {
		name, label string
		f           string
	}
	fin := metricDef{"finished gangs", "gangs finished (% of arrived)", "finished_gangs_pct"}
	wrt := metricDef{"WRT", "weighted mean response time of gangs, WRT", "wrt"}
	wsld := metricDef{"WSLD", "weighted mean slowdown of gangs, WSLD", "wsld"}
	rt := metricDef{"RT", "mean response time of local jobs, RT", "rt"}
	sld := metricDef{"SLD", "mean slowdown of local jobs, SLD", "sld"}
	byApproach := func(id int, m metricDef, pow2 bool, what string) plot.Figure {
		f := plot.Figure{ID: fmt.Sprintf("fig%02d", id), Title: fmt.Sprintf("%s versus λ for %s gang sizes", m.name, what), XLabel: xl, YLabel: m.label, Note: note}
		for _, a := range []int{1, 2} {
			f.Series = append(f.Series, d.series(fmt.Sprintf("approach %d", a), func(ia float64) dcfg { return dcfg{a, ia, 0, pow2, def} }, m.f))
		}
		return f
	}
	byError := func(id int, m metricDef, a int) plot.Figure {
		f := plot.Figure{ID: fmt.Sprintf("fig%02d", id), Title: fmt.Sprintf("%s versus λ for uniform gang sizes using approach %d", m.name, a), XLabel: xl, YLabel: m.label, Note: note}
		for _, e := range dErrors {
			f.Series = append(f.Series, d.series(fmt.Sprintf("E = %g%%", 100*e), func(ia float64) dcfg { return dcfg{a, ia, e, false, def} }, m.f))
		}
		return f
	}
	r.Figures = append(r.Figures,
		byApproach(2, fin, false, "uniform"), byApproach(3, fin, true, "power-of-2"),
		byApproach(4, wrt, false, "uniform"), byApproach(5, wsld, false, "uniform"),
		byApproach(6, rt, false, "uniform"), byApproach(7, sld, false, "uniform"),
		byError(8, wrt, 1), byError(9, wrt, 2), byError(10, wsld, 1), byError(11, wsld, 2), byError(12, rt, 1), byError(13, rt, 2))
	if readings {
		for i, pow2 := range []bool{false, true} {
			what := map[bool]string{false: "uniform", true: "power-of-2"}[pow2]
			f := plot.Figure{ID: fmt.Sprintf("readings-fig%02d", 2+i), Title: fmt.Sprintf("Finished gangs (%s sizes) under each reading", what),
				XLabel: xl, YLabel: fin.label, Note: note}
			for _, rd := range rds {
				for _, a := range []int{1, 2} {
					f.Series = append(f.Series, d.series(fmt.Sprintf("%s, approach %d", rd.Name, a), func(ia float64) dcfg { return dcfg{a, ia, 0, pow2, rd} }, fin.f))
				}
			}
			r.Figures = append(r.Figures, f)
		}
	}
}

// checks are the paper's claims under reading def.
func (d *dimitriadou) checks(def GangReading) []Check {
	r := &Report{}
	util0 := "utilization"
	for _, a := range []int{1, 2} {
		for _, ia := range []float64{0.08, 0.1, 0.12} {
			r.Items = append(r.Items, item(fmt.Sprintf("table2/approach%d/ia%g/utilization", a, ia), dTable2[ia][a-1], d.metric(dcfg{a, ia, 0, false, def}, util0)))
		}
	}
	m := func(a int, ia, e float64, pow2 bool, f string) float64 {
		return stats.Mean(d.metric(dcfg{a, ia, e, pow2, def}, f))
	}
	util := "utilization"
	fin := "finished_gangs_pct"
	wrt := "wrt"
	wsld := "wsld"
	rt := "rt"
	sld := "sld"

	worst, n, within := 0.0, 0, 0
	for _, it := range r.Items {
		if !strings.HasPrefix(it.Name, "table2/") {
			continue
		}
		n++
		if math.Abs(it.RelErr()) <= 0.03 {
			within++
		}
		worst = math.Max(worst, math.Abs(it.RelErr()))
	}
	r.Checks = append(r.Checks, Check{ID: "table2_within_3pct", Claim: "Table II utilizations within 3% of the paper", Holds: within == n, Detail: fmt.Sprintf("%d of %d; largest deviation %s", within, n, pct(worst))})

	var det []string
	ok := true
	for _, ia := range []float64{0.08, 0.1, 0.12} {
		a2, a1 := d.metric(dcfg{2, ia, 0, false, def}, util), d.metric(dcfg{1, ia, 0, false, def}, util)
		diff, _ := stats.Paired(a2, a1)
		same := 0
		for i := range a1 {
			if a1[i] == a2[i] {
				same++
			}
		}
		// Identical runs (no gang split) do not show the claim.
		ok = ok && diff.Mean > 0
		det = append(det, fmt.Sprintf("λ=%g: %+.5f [%+.5f, %+.5f], identical in %d of %d replications", lambdaOf(ia), diff.Mean, diff.Low, diff.High, same, len(a1)))
	}
	r.Checks = append(r.Checks, Check{ID: "utilization_approach2_higher", Claim: "approach 2 gives slightly higher utilization than approach 1 (Table II: +0.00035, +0.00006, +0.00006)", Holds: ok, Detail: "approach 2 - approach 1, paired 95% CI: " + strings.Join(det, ", ")})

	ok, det = true, nil
	for _, a := range []int{1, 2} {
		for _, ia := range dLoads {
			u, p := m(a, ia, 0, false, fin), m(a, ia, 0, true, fin)
			ok = ok && u >= p
			det = append(det, fmt.Sprintf("a%d λ=%g: %.1f vs %.1f", a, lambdaOf(ia), u, p))
		}
	}
	r.Checks = append(r.Checks, Check{ID: "finished_uniform_above_pow2", Claim: "more gangs finish with uniform sizes than with powers of two (Figs 2-3)", Holds: ok, Detail: strings.Join(det, "; ")})

	// "Approach 2 results in the completion of almost 10% more gangs than
	// approach 1" (one figure for the whole of Fig. 3) and "completes a
	// higher percentage of gangs in all workloads": approach 2 ahead at
	// every load, by at least 5 points on average over the loads.
	det = nil
	lowest, mean := math.Inf(1), 0.0
	for _, ia := range dLoads {
		g := m(2, ia, 0, true, fin) - m(1, ia, 0, true, fin)
		lowest = math.Min(lowest, g)
		mean += g / float64(len(dLoads))
		det = append(det, fmt.Sprintf("λ=%g: %+.1f points", lambdaOf(ia), g))
	}
	r.Checks = append(r.Checks, Check{ID: "finished_pow2_approach2_more", Claim: "approach 2 finishes about 10% more power-of-2 gangs than approach 1 (Fig 3)", Holds: lowest > 0 && mean >= 5, Detail: strings.Join(det, ", ")})
	lowFin := m(1, 0.12, 0, true, fin)
	r.Checks = append(r.Checks, Check{ID: "finished_pow2_approach1_below_100", Claim: "approach 1 never finishes 100% of power-of-2 gangs, even at low load (Fig 3)", Holds: lowFin < 99.5, Detail: fmt.Sprintf("%.2f%% at λ=8.33", lowFin)})

	hi := 0.08
	dW, _ := stats.Paired(d.metric(dcfg{2, hi, 0, false, def}, wrt), d.metric(dcfg{1, hi, 0, false, def}, wrt))
	dS, _ := stats.Paired(d.metric(dcfg{2, hi, 0, false, def}, wsld), d.metric(dcfg{1, hi, 0, false, def}, wsld))
	r.Checks = append(r.Checks, Check{ID: "wrt_wsld_approach2_lower_high_load", Claim: "approach 2 lowers WRT and WSLD at high load (Figs 4-5, λ = 12.5; significant paired difference)", Holds: dW.High < 0 && dS.High < 0, Detail: fmt.Sprintf("approach 2 - approach 1: WRT %+.3f [%+.3f, %+.3f], WSLD %+.3f [%+.3f, %+.3f]", dW.Mean, dW.Low, dW.High, dS.Mean, dS.Low, dS.High)})
	lowSame := true
	det = nil
	for _, ia := range []float64{0.12, 0.1} {
		a1, a2 := m(1, ia, 0, false, wrt), m(2, ia, 0, false, wrt)
		rel := math.Abs(a2-a1) / a1
		lowSame = lowSame && rel < 0.05
		if rel == 0 {
			det = append(det, fmt.Sprintf("λ=%g: identical (approach 2 split no gang)", lambdaOf(ia)))
		} else {
			det = append(det, fmt.Sprintf("λ=%g: %s apart", lambdaOf(ia), pct(rel)))
		}
	}
	r.Checks = append(r.Checks, Check{ID: "wrt_same_low_medium_load", Claim: "at low and medium load the approaches give almost the same WRT (Fig 4)", Holds: lowSame, Detail: strings.Join(det, ", ")})

	incr := true
	for _, f := range []string{wrt, wsld, rt, sld} {
		for _, a := range []int{1, 2} {
			if !(m(a, 0.12, 0, false, f) < m(a, 0.1, 0, false, f) && m(a, 0.1, 0, false, f) < m(a, 0.08, 0, false, f)) {
				incr = false
			}
		}
	}
	r.Checks = append(r.Checks, Check{ID: "load_raises_all", Claim: "higher load gives higher WRT, WSLD, RT and SLD (Figs 4-7)", Holds: incr, Detail: "both approaches"})
	r.Checks = append(r.Checks, Check{ID: "local_rt_sld_approach2_higher", Claim: "local RT and SLD are a bit higher with approach 2 at λ = 12.5 (Figs 6-7)", Holds: m(2, hi, 0, false, rt) > m(1, hi, 0, false, rt) && m(2, hi, 0, false, sld) > m(1, hi, 0, false, sld), Detail: fmt.Sprintf("RT %.4f vs %.4f, SLD %.4f vs %.4f (approach 2 vs 1)", m(2, hi, 0, false, rt), m(1, hi, 0, false, rt), m(2, hi, 0, false, sld), m(1, hi, 0, false, sld))})

	ok, det = true, nil
	for _, a := range []int{1, 2} {
		w0, w30 := m(a, hi, 0, false, wrt), m(a, hi, 0.3, false, wrt)
		ok = ok && w30 > w0
		det = append(det, fmt.Sprintf("approach %d: %.3f -> %.3f (%+.1f%%)", a, w0, w30, 100*(w30-w0)/w0))
	}
	r.Checks = append(r.Checks, Check{ID: "estimate_errors_raise_wrt", Claim: "runtime-estimate errors raise WRT at high load (Figs 8-9, E = 0 -> 30%)", Holds: ok, Detail: strings.Join(det, "; ")})
	maxRel := 0.0
	for _, a := range []int{1, 2} {
		for _, ia := range dLoads {
			r0 := m(a, ia, 0, false, rt)
			for _, e := range dErrors[1:] {
				maxRel = math.Max(maxRel, math.Abs(m(a, ia, e, false, rt)-r0)/r0)
			}
		}
	}
	r.Checks = append(r.Checks, Check{ID: "estimate_errors_local_rt_unchanged", Claim: "estimate errors leave local RT almost unchanged (Figs 12-13; we call a change under 5% \"almost unchanged\")", Holds: maxRel < 0.05, Detail: fmt.Sprintf("largest change %s", pct(maxRel))})
	return r.Checks
}

// gangOptions are the approaches' options of a run: threshold 0 (the
// paper's experiments) and the reading of "empty queue".
func gangOptions(rd GangReading) map[string]string {
	empty := "waiting"
	switch {
	case rd.StepOneIdle:
		empty = "idle-in-gs-queue"
	case rd.EmptyIdle:
		empty = "idle"
	}
	examine := "emptied"
	if rd.ExamineEvery {
		examine = "every"
	}
	return map[string]string{"threshold": "0", "empty_queue": empty, "examine": examine}
}
