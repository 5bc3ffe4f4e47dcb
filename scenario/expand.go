package scenario

import (
	"fmt"
	"math/big"
	"strings"
)

// expand lists the points of the sweep: the cross product of the axes,
// the first axis (in file order) varying slowest. Each point is built,
// normalised and checked; problems are recorded in d.
func (d *decoder) expand() []Point {
	n := 1
	for _, a := range d.axes {
		n *= len(a.vals)
		if n > MaxPoints {
			d.tooMany()
			return nil
		}
	}
	if d.maxSites > 0 && n*d.maxSites > maxSiteValues {
		d.add(d.keys["platform.sites"], "platform.sites", "the sweep is too large: %d points of up to %d sites (points x sites at most %d)", n, d.maxSites, maxSiteValues)
		return nil
	}
	var procs, speeds []*setting
	if d.sites == sitesList {
		procs = make([]*setting, d.nsites)
		speeds = make([]*setting, d.nsites)
		for i := range d.nsites {
			procs[i] = d.set[fmt.Sprintf("platform.sites[%d].procs", i)]
			speeds[i] = d.set[fmt.Sprintf("platform.sites[%d].speed", i)]
		}
	}
	points := make([]Point, 0, n)
	choice := make([]int, len(d.axes))
	for idx := range n {
		r := idx
		for k := len(d.axes) - 1; k >= 0; k-- {
			m := len(d.axes[k].vals)
			choice[k] = r % m
			r /= m
		}
		p := pointCtx{d: d, choice: choice, procs: procs, speeds: speeds}
		sc := p.build()
		p.check(&sc)
		var labels []Label
		for k, a := range d.axes {
			labels = append(labels, Label{Key: a.path, Value: a.vals[choice[k]].text})
		}
		points = append(points, Point{Index: idx, Labels: labels, Scenario: sc})
	}
	return points
}

func (d *decoder) tooMany() {
	total := big.NewInt(1)
	var parts []string
	for _, a := range d.axes {
		total.Mul(total, big.NewInt(int64(len(a.vals))))
		parts = append(parts, fmt.Sprintf("%s %d", a.path, len(a.vals)))
	}
	d.add(d.axes[0].key, "", "the sweep has %s points (%s); at most %d", total, strings.Join(parts, " x "), MaxPoints)
}

// pointCtx is one point of the sweep: the value chosen on each axis.
type pointCtx struct {
	d             *decoder
	choice        []int
	procs, speeds []*setting // sitesList: the settings of each site
}

func (p pointCtx) pick(s *setting) *val {
	if s == nil {
		return nil
	}
	if s.axis >= 0 {
		return &s.vals[p.choice[s.axis]]
	}
	return &s.vals[0]
}

func (p pointCtx) get(path string) *val { return p.pick(p.d.set[path]) }

// at is where a problem about path at this point is reported: the chosen
// value, else the closest enclosing key.
func (p pointCtx) at(path string) pos {
	if v := p.get(path); v != nil {
		return v.at
	}
	return p.d.where(path)
}

// text is the canonical text of a setting at this point (its default
// when the file does not give it).
func (p pointCtx) text(path string) string {
	if v := p.get(path); v != nil {
		return v.canon
	}
	return defaultText(path)
}

// used reports whether the point's policy reads the setting (see deps).
func (p pointCtx) used(key string) bool {
	for _, dp := range deps {
		if dp.key == key && !has(dp.when, p.text(dp.on)) {
			return false
		}
	}
	return true
}

func (p pointCtx) str(path, def string) string {
	if v := p.get(path); v != nil {
		return v.s
	}
	return def
}

func (p pointCtx) int(path string, def int64) int64 {
	if v := p.get(path); v != nil {
		return v.i
	}
	return def
}

func (p pointCtx) float(path string, def float64) float64 {
	if v := p.get(path); v != nil {
		return v.f
	}
	return def
}

func (p pointCtx) bool(path string) bool {
	if v := p.get(path); v != nil {
		return v.b
	}
	return false
}

// build makes the point's Scenario: chosen values, defaults for what the
// model reads, zero for what it does not.
func (p pointCtx) build() Scenario {
	d := p.d
	sc := Scenario{Name: d.name, Model: d.model, Seed: 1}
	if v := p.get("seed"); v != nil {
		sc.Seed = v.u
	}
	sc.Replications = int(p.int("replications", 1))
	sc.Workers = int(p.int("workers", 0))
	sc.Stop.Completed = p.int("stop.completed", 0)
	sc.Warmup.Jobs = p.int("warmup.jobs", 0)
	if len(d.metrics) > 0 {
		sc.Metrics = append([]string(nil), d.metrics...)
	}
	w, pol := &sc.Workload, &sc.Policy
	switch d.model {
	case "cluster":
		sc.Platform.Procs = int(p.int("platform.procs", 0))
		if d.present("workload.trace") {
			w.Trace = p.str("workload.trace", "")
			w.Estimate = p.str("workload.estimate", "request")
			w.OnOverrun = p.str("workload.on_overrun", "kill")
			w.Clamp = p.bool("workload.clamp")
		} else {
			w.MeanInterarrival = p.float("workload.mean_interarrival", 0)
			w.MeanService = p.float("workload.mean_service", 1)
			w.Estimate, w.OnOverrun = "exact", "kill"
		}
		pol.Queue = p.str("policy.queue", "")
		if p.used("policy.depth") {
			pol.Depth = int(p.int("policy.depth", 0))
		}
		pol.Order = p.str("policy.order", "fcfs")
	case "grid":
		sc.Platform.Sites = p.sites()
		w.MeanInterarrival = p.float("workload.mean_interarrival", 0)
		w.MeanService = p.float("workload.mean_service", 1)
		pol.Grid = p.str("policy.grid", "")
		pol.Local = p.str("policy.local", "")
		if p.used("policy.allocation_interval") {
			pol.AllocationInterval = p.float("policy.allocation_interval", 0)
		}
		if p.used("policy.random_fraction") {
			pol.RandomFraction = p.float("policy.random_fraction", 0)
		}
		if p.used("policy.normalize_load") {
			pol.NormalizeLoad = p.bool("policy.normalize_load")
		}
	case "gang":
		sc.Platform.Sites = p.sites()
		w.MeanInterarrival = p.float("workload.mean_interarrival", 0)
		w.MeanService = p.float("workload.mean_service", 1)
		w.GangMeanInterarrival = p.float("workload.gang_mean_interarrival", 0)
		w.GangSizes = p.str("workload.gang_sizes", "uniform")
		if p.used("workload.gang_min") {
			w.GangMin = int(p.int("workload.gang_min", 2))
			w.GangMax = int(p.int("workload.gang_max", 13))
		}
		w.GangTimes = p.str("workload.gang_times", "independent")
		w.EstimateError = p.float("workload.estimate_error", 0)
		pol.Approach = int(p.int("policy.approach", 1))
		if p.used("workload.split_overhead") {
			w.SplitOverhead = p.float("workload.split_overhead", 0.1)
		}
		pol.Threshold = p.float("policy.threshold", 0)
		pol.EmptyQueue = p.str("policy.empty_queue", "waiting")
		pol.Examine = p.str("policy.examine", "emptied")
	case "hetero":
		sc.Platform.Sites = p.sites()
		w.MeanInterarrival = p.float("workload.mean_interarrival", 0)
		pol.Queue = p.str("policy.queue", "")
	}
	return sc
}

// sites builds the point's site list (a fresh slice).
func (p pointCtx) sites() []Site {
	d := p.d
	switch d.sites {
	case sitesCount:
		v := p.get("platform.sites")
		if v == nil {
			return nil
		}
		procs := int(p.int("platform.procs_per_site", 0))
		out := make([]Site, v.i)
		for i := range out {
			out[i] = Site{Procs: procs, Speed: 1}
		}
		return out
	case sitesList:
		out := make([]Site, d.nsites)
		for i := range out {
			out[i].Speed = 1
			if v := p.pick(p.procs[i]); v != nil {
				out[i].Procs = int(v.i)
			}
			if v := p.pick(p.speeds[i]); v != nil {
				out[i].Speed = v.f
			}
		}
		return out
	case sitesLists:
		if v := p.get("platform.sites"); v != nil {
			return append([]Site(nil), v.sites...)
		}
	}
	return nil
}

// check reports what depends on the combination of values at this point.
func (p pointCtx) check(sc *Scenario) {
	d := p.d
	if sc.Model == "cluster" && sc.Policy.Queue == "fcfs" && sc.Policy.Order == "sjf" {
		d.add(p.at("policy.order"), "policy.order", "sjf is not allowed with policy.queue fcfs (strict FCFS serves jobs in submit order; use a backfilling queue)")
	}
	if sc.Stop.Completed > 0 && sc.Warmup.Jobs >= sc.Stop.Completed {
		d.add(p.at("warmup.jobs"), "warmup.jobs", "%d must be less than stop.completed (%d)", sc.Warmup.Jobs, sc.Stop.Completed)
	}
	if sc.Model != "gang" || len(sc.Platform.Sites) == 0 {
		return
	}
	w := sc.Workload
	largest, key, what := 16, "workload.gang_sizes", "pow2 gangs of 16 tasks"
	if w.GangSizes == "uniform" {
		largest, key, what = w.GangMax, "workload.gang_max", fmt.Sprintf("gangs of %d tasks", w.GangMax)
		if w.GangMin > w.GangMax {
			d.add(p.at("workload.gang_min"), "workload.gang_min", "%d is larger than workload.gang_max (%d)", w.GangMin, w.GangMax)
			return
		}
	}
	maxSite, total := 0, 0
	for _, s := range sc.Platform.Sites {
		maxSite = max(maxSite, s.Procs)
		total += s.Procs
	}
	switch {
	case sc.Policy.Approach == 1 && largest > maxSite:
		d.add(p.at(key), key, "%s could never start: the largest site has %d processors (policy.approach 1 keeps a gang on one site)", what, maxSite)
	case sc.Policy.Approach == 2 && largest > total:
		d.add(p.at(key), key, "%s could never start: the sites have %d processors in all", what, total)
	}
}
