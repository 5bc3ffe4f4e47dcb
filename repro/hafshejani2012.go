package repro

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/experiment"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/report/plot"
	"github.com/schedlab/schedlab/scenario"
	"github.com/schedlab/schedlab/stats"
	"github.com/schedlab/schedlab/sweep"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/synth"
)

// HafshejaniDefaults are the reproduction's options: the paper's three
// experiment sizes (1292, 2018, 3113 jobs) on every workload. Reps and
// Jobs are not used (the runs are deterministic single runs).
func HafshejaniDefaults() Options { return Options{Seed: 2012, Reps: 2, Jobs: 3113} }

// HafshejaniQuick is the same (the whole reproduction takes about a
// second); kept for the command's --quick.
func HafshejaniQuick() Options { return HafshejaniDefaults() }

// HafshejaniSizes are the paper's experiments: numbers of jobs.
func HafshejaniSizes() []int { return []int{1292, 2018, 3113} }

// hPolicies: strict FCFS, the paper's "backfilling" (greedy first-fit),
// EASY, and the paper's method.
func hPolicies() []string { return []string{"fcfs", "firstfit", "easy", "matrix"} }

// hTraces are the real traces whose prefixes are run, when found
// (KTH-SP2 is embedded in the binary; the others are looked up like
// every bare trace name).
func hTraces() []string {
	return []string{"KTH-SP2-1996-2.1-cln.swf.gz", "HPC2N-2002-2.1-cln.swf.gz", "SDSC-BLUE-2000-4.2-cln.swf.gz"}
}

// The paper's only numbers: 3113 jobs, "overall response time".
const (
	hPaperFCFS   = 4313.0
	hPaperBF     = 4197.0
	hPaperMatrix = 3861.0
)

// Synthetic workload: 64 CPUs; sizes 2^U{0..5}; runtimes exponential,
// mean 600 s (whole seconds, at least 1); requests = runtime x (1 + U[0,2])
// rounded up; Poisson arrivals at an offered load of 0.9.
const (
	hSynthCPUs    = 64
	hSynthRuntime = 600.0
	hSynthLoad    = 0.9
)

// hWorkload is one workload of the reproduction: a trace's prefixes or
// a synthetic workload (workload.model hafshejani), as scenarios.
type hWorkload struct {
	name string
	// base is the workload's scenario without its policy and size:
	// a trace (workload.trace) or the synthetic model (its options,
	// platform.procs).
	base scenario.Scenario
	// trace: the size is workload.jobs (the trace's first n jobs, on
	// its own machine); otherwise stop.completed (the model's first n).
	trace bool
}

// scenario is the first n jobs of w under policy p (estimates = the
// requests, jobs killed at their request): one deterministic run.
func (w *hWorkload) scenario(n int, p string) scenario.Scenario {
	s := w.base
	s.Policy = scenario.PolicySpec{Queue: p}
	if w.trace {
		s.Workload.Jobs = int64(n)
	} else {
		s.Stop.Completed = int64(n)
	}
	return s
}

// hWorkloadName is a trace's workload name in the item names: the file
// name up to its first "-" (KTH, HPC2N, SDSC).
func hWorkloadName(trace string) string { return strings.SplitN(trace, "-", 2)[0] }

func hBase(seed uint64) scenario.Scenario {
	return scenario.Scenario{Name: "hafshejani2012", Model: registry.ModelCluster, Seed: seed, Replications: 1,
		Workload: scenario.Workload{Estimate: "request", OnOverrun: "kill", Submit: scenario.SubmitAsIs}}
}

// hTraceWorkload is the prefixes of trace name on the machine of its
// header; an error when the trace is not found.
func hTraceWorkload(seed uint64, name string) (*hWorkload, error) {
	rd, err := workload.OpenTrace(name)
	if err != nil {
		return nil, err
	}
	rd.Close()
	w := &hWorkload{name: hWorkloadName(name), base: hBase(seed), trace: true}
	w.base.Workload.Trace = name
	return w, nil
}

// hModel is the synthetic workload named name (workload.model
// hafshejani) on hSynthCPUs CPUs: sizes by rule sizes on lo..hi, Poisson
// arrivals at offered load load.
func hModel(seed uint64, name, sizes string, lo, hi int, load float64) *hWorkload {
	w := &hWorkload{name: name, base: hBase(seed)}
	w.base.Platform.Procs = hSynthCPUs
	w.base.Workload.Model = "hafshejani"
	w.base.Workload.Options = map[string]string{"sizes": sizes, "size_min": strconv.Itoa(lo), "size_max": strconv.Itoa(hi),
		"offered_load": strconv.FormatFloat(load, 'g', -1, 64)}
	return w
}

// hSynthetic is the default synthetic workload: 64 CPUs; sizes
// 2^U{0..5}; runtimes exponential, mean 600 s (whole seconds, at least
// 1); requests = runtime x (1 + U[0,2]) rounded up; Poisson arrivals at
// an offered load of 0.9 (synth.DeclareHafshejani).
func hSynthetic(seed uint64) *hWorkload {
	return hModel(seed, "synthetic", synth.SizesPow2, 1, hSynthCPUs/2, hSynthLoad)
}

// Wide synthetic workloads (reading wide-jobs): 64 CPUs, sizes uniform
// on lo..hi, exponential runtimes of mean 600 s, requests as hSynthetic's,
// Poisson arrivals at an offered load of 0.7.
const hWideLoad = 0.7

// hWide is the wide workload named name: sizes uniform on lo..hi CPUs
// of 64. The paper: "if there is no job that requires fewer processors
// than free processors, the free processors will remain idle"; jobs wider
// than half the machine are 4.6% of KTH's, 0.5% of HPC2N's, 0.1% of SDSC's
// and none of hSynthetic's.
func hWide(seed uint64, name string, lo, hi int) *hWorkload {
	return hModel(seed, name, synth.SizesUniform, lo, hi, hWideLoad)
}

// hBatch is w with every job submitted at time 0 (workload.submit zero;
// reading batch: the paper's "overall response time" read as a
// batch's), named name.
func hBatch(w *hWorkload, name string) *hWorkload {
	b := *w
	b.name = name
	b.base.Workload.Submit = scenario.SubmitZero
	return &b
}

// hRuns are the runs of a set of workloads, by hKey.
type hRuns map[string]*hRun

// hRun is one run: its summary, per-job responses and matrix's window
// heads (experiment.ClusterResult).
type hRun struct {
	experiment.ClusterResult
	Response map[job.ID]float64
}

func hKey(w string, n int, p string) string { return fmt.Sprintf("%s/%d/%s", w, n, p) }

// hEval runs every policy on the first n jobs of every workload, for
// every size n, as scenarios through the sweep's replication core.
func hEval(opt Options, wls []*hWorkload, sizes []int, runs hRuns) (int64, error) {
	var scens []scenario.Scenario
	for _, w := range wls {
		for _, n := range sizes {
			for _, p := range hPolicies() {
				scens = append(scens, w.scenario(n, p))
			}
		}
	}
	memo := sweep.NewMemo(opt.Workers, opt.Progress)
	memo.PerJob = true // the readings compare jobs one by one
	if err := memo.Run(scens); err != nil {
		return 0, err
	}
	for _, w := range wls {
		for _, n := range sizes {
			for _, p := range hPolicies() {
				d := memo.Reps(w.scenario(n, p))[0].Detail.(experiment.ClusterResult)
				if d.Dropped {
					return 0, fmt.Errorf("%s, %d jobs, %s: more than %d jobs to compare job by job", w.name, n, p, experiment.MaxResponses)
				}
				runs[hKey(w.name, n, p)] = &hRun{ClusterResult: d, Response: d.ResponseMap()}
			}
		}
	}
	return simulatedJobs(memo), nil
}

// Hafshejani2012 runs the reproduction of hafshejani-2012 (thread-level
// matrix scanning): the first 1292, 2018 and 3113 jobs of each real trace
// found, and a synthetic workload, under FCFS, first-fit, EASY and matrix
// scanning (lazy windows). With readings, also the claims on wide
// synthetic workloads (wide-jobs) and with every job submitted at time 0
// (batch).
func Hafshejani2012(opt Options, readings bool) (*Report, error) {
	if opt.Progress == nil {
		opt.Progress = nopProgress{}
	}
	sizes := HafshejaniSizes()
	var wls []*hWorkload
	var notes []string
	var skipped []Skip
	for _, name := range hTraces() {
		w, err := hTraceWorkload(opt.Seed, name)
		if err != nil {
			if strings.Contains(err.Error(), ": not found") { // workload.OpenTrace's lookup failed
				wl := hWorkloadName(name)
				skipped = append(skipped, Skip{Workload: wl, Trace: name})
				notes = append(notes, fmt.Sprintf("trace %s not found: its workload (%s) was skipped; set %s to a folder that holds it (docs/traces.md)", name, wl, workload.TraceDirsEnv))
				continue
			}
			return nil, err
		}
		wls = append(wls, w)
	}
	wls = append(wls, hSynthetic(opt.Seed))
	runs := hRuns{}
	key := hKey
	total, err := hEval(opt, wls, sizes, runs)
	if err != nil {
		return nil, err
	}
	r := &Report{Paper: "hafshejani2012", Title: "Hafshejani et al. 2012: thread-level matrix scanning vs FCFS and backfilling",
		Setup: fmt.Sprintf("The first 1292, 2018 and 3113 jobs of each trace (its own machine size; estimates = requests, jobs killed at their request) "+
			"and a synthetic workload (%d CPUs, sizes 2^U{0..5}, exponential runtimes of mean %g s, requests up to 3x, offered load %g, seed %d). "+
			"Policies: strict FCFS, first-fit without reservation (the paper's \"backfilling\"), EASY, matrix scanning (lazy windows). "+
			"Single deterministic runs: no confidence intervals.", hSynthCPUs, hSynthRuntime, hSynthLoad, opt.Seed)}
	nan := math.NaN()
	one := func(name string, paper, ours float64, file string) Item {
		return Item{Name: name, Paper: paper, Ours: ours, Low: nan, High: nan, File: file}
	}
	heads := map[string]float64{}
	for _, w := range wls {
		for _, n := range sizes {
			get := func(p string) *hRun { return runs[key(w.name, n, p)] }
			paper := func(v float64) float64 {
				if n == 3113 {
					return v
				}
				return nan
			}
			pre := fmt.Sprintf("%s/%d", w.name, n)
			m, f, bf := get("matrix").MeanResponse, get("fcfs").MeanResponse, get("firstfit").MeanResponse
			r.Items = append(r.Items,
				one("ratio_new_fcfs/"+pre, paper(hPaperMatrix/hPaperFCFS), m/f, ""),
				one("ratio_new_backfilling/"+pre, paper(hPaperMatrix/hPaperBF), m/bf, ""),
				one("ratio_backfilling_fcfs/"+pre, paper(hPaperBF/hPaperFCFS), bf/f, ""),
				one("ratio_new_easy/"+pre, nan, m/get("easy").MeanResponse, ""))
			for _, p := range hPolicies() {
				pv := nan
				switch p {
				case "fcfs":
					pv = paper(hPaperFCFS)
				case "firstfit":
					pv = paper(hPaperBF)
				case "matrix":
					pv = paper(hPaperMatrix)
				}
				res := get(p)
				r.Items = append(r.Items,
					one("mean_response/"+pre+"/"+p, pv, res.MeanResponse, ""),
					one("mean_wait/"+pre+"/"+p, nan, res.MeanWait, "metrics.csv"),
					one("utilization/"+pre+"/"+p, nan, res.Utilization, "metrics.csv"))
			}
			// The jobs at the head of matrix's windows, under every policy.
			hd := get("matrix").Heads
			for _, p := range hPolicies() {
				s := 0.0
				for _, id := range hd {
					s += get(p).Response[id]
				}
				heads[pre+"/"+p] = s / float64(len(hd))
				r.Items = append(r.Items, one("head_response/"+pre+"/"+p, nan, heads[pre+"/"+p], "metrics.csv"))
			}
			r.Items = append(r.Items, one("windows/"+pre, nan, float64(len(hd)), "metrics.csv"))
		}
	}
	r.Figures = hFigures(wls, sizes, runs, key)
	r.Checks = hChecks(wls, sizes, runs, heads, false)
	r.Notes = append(r.Notes, notes...)
	r.Skipped = skipped
	r.Notes = append(r.Notes,
		"The paper does not describe its workload, machine or units; its 3113-job numbers (4313, 4197, 3861) stand beside ours for each workload, and the ratios are the comparable figures.",
		"Matrix scanning never reads estimates; first-fit neither; EASY uses the requests.")
	if readings {
		n, err := hReadings(opt, r, wls, sizes)
		if err != nil {
			return nil, err
		}
		total += n
	}
	r.Jobs = total
	return r, nil
}

// hHeads is the mean response, under every policy, of the jobs at the
// head of matrix's windows, by "workload/size/policy".
func hHeads(wls []*hWorkload, sizes []int, runs hRuns) map[string]float64 {
	heads := map[string]float64{}
	for _, w := range wls {
		for _, n := range sizes {
			pre := fmt.Sprintf("%s/%d", w.name, n)
			hd := runs[hKey(w.name, n, "matrix")].Heads
			for _, p := range hPolicies() {
				s := 0.0
				for _, id := range hd {
					s += runs[hKey(w.name, n, p)].Response[id]
				}
				heads[pre+"/"+p] = s / float64(len(hd))
			}
		}
	}
	return heads
}

// hBatches is the number of batches of consecutive jobs (in job order)
// whose mean responses give a single run's interval (batch means): a
// trace prefix is one deterministic run, with no replications to pair.
const hBatches = 20

// hBatchMeans is the mean response of each of hBatches batches of the
// jobs of run r, the jobs in id order (submit order in the traces and the
// synthetic workloads): the first len%hBatches batches one job longer.
func hBatchMeans(r *hRun) []float64 {
	ids := make([]job.ID, 0, len(r.Response))
	for id := range r.Response {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	k := min(hBatches, len(ids))
	out := make([]float64, k)
	at := 0
	for b := range k {
		n := len(ids) / k
		if b < len(ids)%k {
			n++
		}
		for _, id := range ids[at : at+n] {
			out[b] += r.Response[id] / float64(n)
		}
		at += n
	}
	return out
}

// hExactTol is the tolerance of a whole-run comparison, relative to the
// baseline: one deterministic run has no sampling interval, and a
// difference of a thousandth of a utilization point is a tie, not a
// result; the tolerance stands in for the interval.
const hExactTol = 0.01

// exact compares two numbers of one deterministic run (utilization): the
// difference a - b with the band +-hExactTol x |b| as its interval.
func exact(label string, a, b float64, dir Dir) Cmp {
	d, tol := a-b, hExactTol*math.Abs(b)
	return Cmp{Label: label + " (one run: exact, +-1% of the baseline as the interval)", CI: stats.MeanCI{N: 1, Mean: d, StdDev: 0, HalfWidth: tol, Low: d - tol, High: d + tol}, Dir: dir}
}

// hChecks are the paper's claims at every size of every workload; with
// makespans the ordering's evidence also gives the makespans (readings).
// Mean responses are compared by batch means (hBatches batches of
// consecutive jobs, the same batches under both policies: paired),
// the head jobs job by job, utilization exactly.
func hChecks(wls []*hWorkload, sizes []int, runs hRuns, heads map[string]float64, makespans bool) []Check {
	var out []Check
	key := hKey
	var orderYes, orderAll []string
	for _, w := range wls {
		for _, n := range sizes {
			pre := fmt.Sprintf("%s/%d", w.name, n)
			scope := fmt.Sprintf("%s, first %d jobs", w.name, n)
			g := func(p string) *hRun { return runs[key(w.name, n, p)] }
			m, bf, f := g("matrix").MeanResponse, g("firstfit").MeanResponse, g("fcfs").MeanResponse
			bm, bb, bfc := hBatchMeans(g("matrix")), hBatchMeans(g("firstfit")), hBatchMeans(g("fcfs"))
			detail := fmt.Sprintf("mean response matrix %.0f s, first-fit %.0f s, FCFS %.0f s (EASY %.0f s)", m, bf, f, g("easy").MeanResponse)
			if makespans {
				detail += fmt.Sprintf("; makespan matrix %.0f s, first-fit %.0f s, FCFS %.0f s", hMakespan(g("matrix")), hMakespan(g("firstfit")), hMakespan(g("fcfs")))
			}
			detail += fmt.Sprintf("; batch means of %d batches", len(bm))
			c := judged("order_new_bf_fcfs/"+pre, "mean response: new method < backfilling < FCFS", detail,
				Diff("matrix - first-fit", bm, bb, Lower), Diff("first-fit - FCFS", bb, bfc, Lower))
			c.Scope = scope
			out = append(out, c)
			orderAll = append(orderAll, pre)
			if c.Holds() {
				orderYes = append(orderYes, pre)
			}
			var hm, hb []float64
			for _, id := range g("matrix").Heads {
				hm, hb = append(hm, g("matrix").Response[id]), append(hb, g("firstfit").Response[id])
			}
			c = judged("head_jobs_worse/"+pre, "the jobs at the head of the queue (of each window) may respond later under the new method than under backfilling",
				fmt.Sprintf("head jobs (%d windows): matrix %.0f s, first-fit %.0f s, FCFS %.0f s; paired job by job", len(g("matrix").Heads), heads[pre+"/matrix"], heads[pre+"/firstfit"], heads[pre+"/fcfs"]),
				Diff("matrix - first-fit", hm, hb, Higher))
			c.Scope = scope
			out = append(out, c)
			um, ub, uf := g("matrix").Utilization, g("firstfit").Utilization, g("fcfs").Utilization
			c = judged("utilization_higher/"+pre, "the new method's utilization is higher than FCFS's and backfilling's",
				fmt.Sprintf("utilization matrix %.3f, first-fit %.3f, FCFS %.3f", um, ub, uf),
				exact("matrix - first-fit", um, ub, Higher), exact("matrix - FCFS", um, uf, Higher))
			c.Scope = scope
			out = append(out, c)
		}
	}
	out = append(out, threshold("order_new_bf_fcfs/summary", "the paper's ordering new < backfilling < FCFS appears on every workload",
		len(orderYes) == len(orderAll), fmt.Sprintf("holds on %d of %d: %s", len(orderYes), len(orderAll), strings.Join(orderYes, ", "))))
	return out
}

// hMakespan is the last end minus the first submission.
func hMakespan(r *hRun) float64 { return r.Makespan - r.FirstSubmit }

// hReadings runs the named readings (wide-jobs, batch) and adds their
// claims, figures and numbers (readings.csv) to r.
func hReadings(opt Options, r *Report, wls []*hWorkload, sizes []int) (int64, error) {
	wide := []*hWorkload{hWide(opt.Seed, "wide", 1, hSynthCPUs), hWide(opt.Seed, "wide-half", hSynthCPUs/2+1, hSynthCPUs)}
	var batch []*hWorkload
	for _, w := range wls {
		batch = append(batch, hBatch(w, "batch-"+w.name))
	}
	runs := hRuns{}
	total, err := hEval(opt, append(append([]*hWorkload{}, wide...), batch...), sizes, runs)
	if err != nil {
		return 0, err
	}
	nan := math.NaN()
	for _, w := range append(append([]*hWorkload{}, wide...), batch...) {
		for _, n := range sizes {
			for _, p := range hPolicies() {
				res := runs[hKey(w.name, n, p)]
				pre := fmt.Sprintf("%s/%d/%s", w.name, n, p)
				r.Items = append(r.Items, Item{Name: "mean_response/" + pre, Paper: nan, Ours: res.MeanResponse, Low: nan, High: nan, File: "readings.csv"},
					Item{Name: "makespan/" + pre, Paper: nan, Ours: hMakespan(res), Low: nan, High: nan, File: "readings.csv"})
			}
		}
	}
	r.DefaultWhy = "the traces found (KTH, HPC2N, SDSC prefixes) and a narrow synthetic workload (sizes 2^U{0..5} of 64 CPUs), jobs arriving at their submit times: the workloads the first reproduction chose; they hold few wide jobs, so first-fit rarely leaves processors idle for lack of a small job"
	r.Readings = append(r.Readings,
		Reading{Name: "wide-jobs", Why: fmt.Sprintf("wide synthetic workloads (64 CPUs, sizes uniform on 1..64 (wide) or 33..64 (wide-half), exponential runtimes of mean 600 s, Poisson arrivals at offered load %g): the paper names its mechanism, \"if there is no job that requires fewer processors than free processors, the free processors will remain idle\", which needs wide jobs", hWideLoad),
			Checks: hChecks(wide, sizes, runs, hHeads(wide, sizes, runs), true), Figures: hFigures(wide, sizes, runs, hKey)},
		Reading{Name: "batch", Why: "every job submitted at time 0 (submit: batch) on the default workloads, the paper's \"overall response time\" read as a batch's; makespans in readings.csv and in the claims' evidence",
			Checks: hChecks(batch, sizes, runs, hHeads(batch, sizes, runs), true), Figures: hFigures(batch, sizes, runs, hKey)})
	return total, nil
}

func hFigures(wls []*hWorkload, sizes []int, runs hRuns, key func(string, int, string) string) []plot.Figure {
	var figs []plot.Figure
	ticks := []string{"FCFS", "first-fit\n(paper's BF)", "EASY", "matrix"}
	for i, n := range sizes {
		f := plot.Figure{ID: fmt.Sprintf("fig%02d", 5+i), Title: fmt.Sprintf("Mean response, %d jobs, relative to FCFS", n), XLabel: "policy",
			YLabel: "mean response / FCFS's", Bars: true, XTicks: ticks,
			Note: "paper (3113 jobs): first-fit 0.973, matrix 0.895 of FCFS"}
		for _, w := range wls {
			s := plot.Series{Name: w.name}
			base := runs[key(w.name, n, "fcfs")].MeanResponse
			for k, p := range hPolicies() {
				s.X = append(s.X, float64(k))
				s.Y = append(s.Y, runs[key(w.name, n, p)].MeanResponse/base)
			}
			f.Series = append(f.Series, s)
		}
		figs = append(figs, f)
	}
	n := sizes[len(sizes)-1]
	f := plot.Figure{ID: "fig08", Title: fmt.Sprintf("Mean response, %d jobs", n), XLabel: "workload", YLabel: "mean response (s)", Bars: true, LogY: true,
		Note: "paper: FCFS 4313, backfilling 4197, new method 3861 (units unstated)"}
	for _, w := range wls {
		f.XTicks = append(f.XTicks, w.name)
	}
	for _, p := range hPolicies() {
		s := plot.Series{Name: p}
		for k, w := range wls {
			s.X = append(s.X, float64(k))
			s.Y = append(s.Y, math.Max(1e-9, runs[key(w.name, n, p)].MeanResponse))
		}
		f.Series = append(f.Series, s)
	}
	return append(figs, f)
}
