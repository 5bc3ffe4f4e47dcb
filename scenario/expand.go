package scenario

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/registry"
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
	runs, tooManyRuns := 0, false
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
		pt := Point{Index: idx, Labels: labels, Scenario: sc}
		if v := p.get("workload.trace"); v != nil {
			pt.TraceLine, pt.TraceColumn = v.at.line, v.at.col
		}
		points = append(points, pt)
		runs += sc.Replications
		if runs > MaxRuns && !tooManyRuns {
			tooManyRuns = true
			d.add(d.where("replications"), "replications", "the sweep has more than %d runs (points x replications); at most %d", MaxRuns, MaxRuns)
		}
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

// build makes the point's Scenario: chosen values, defaults for what the
// model reads, zero for what it does not (fill, driven by the schema).
func (p pointCtx) build() Scenario {
	d := p.d
	sc := Scenario{Name: d.name, Model: d.model}
	if len(d.metrics) > 0 {
		sc.Metrics = append([]string(nil), d.metrics...)
	}
	if has(siteModels, d.model) {
		sc.Platform.Sites = p.sites()
	}
	fill(&sc, p.get)
	for _, r := range d.resv {
		sc.Platform.Reservations = append(sc.Platform.Reservations, r.text)
	}
	for _, t := range d.parts {
		sc.Platform.Partitions = append(sc.Platform.Partitions, t.text)
	}
	for _, t := range d.nodes {
		sc.Platform.Nodes = append(sc.Platform.Nodes, t.text)
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
		procs := 0
		if v := p.get("platform.procs_per_site"); v != nil {
			procs = int(v.i)
		}
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
	p.checkPolicyValues(sc)
	if sc.Stop.Completed > 0 && sc.Warmup.Jobs >= sc.Stop.Completed {
		d.add(p.at("warmup.jobs"), "warmup.jobs", "%d must be less than stop.completed (%d)", sc.Warmup.Jobs, sc.Stop.Completed)
	}
	if total := totalProcs(sc); total > platform.MaxCPUs {
		key := "platform.sites"
		if p.get("platform.procs_per_site") != nil {
			key = "platform.procs_per_site"
		}
		d.add(p.at(key), key, "the sites have %d processors in all; at most %d (platform.MaxCPUs)", total, platform.MaxCPUs)
		return
	}
	if sc.Model == registry.ModelCluster {
		p.checkAvailPoint(sc)
		p.checkPartitionsPoint(sc)
	}
	if sc.Model == registry.ModelHetero {
		p.checkHetero(sc)
		return
	}
	if sc.Model == registry.ModelGrid {
		p.checkGridPasses(sc)
	}
	if sc.Model != registry.ModelGang || len(sc.Platform.Sites) == 0 {
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
	ap, err := registry.Lookup(registry.ModelGang, registry.KindApproach, strconv.Itoa(sc.Policy.Approach))
	if err != nil {
		return // reported by the value check
	}
	switch {
	case !ap.Traits.SplitsGangs && largest > maxSite:
		d.add(p.at(key), key, "%s could never start: the largest site has %d processors (policy.approach %s keeps a gang on one site)", what, maxSite, ap.Name)
	case ap.Traits.SplitsGangs && largest > total:
		d.add(p.at(key), key, "%s could never start: the sites have %d processors in all", what, total)
	}
}

// checkGridPasses reports a periodic grid scheduler whose run would take
// more than MaxGridPasses passes (or whose clock could not advance by
// one interval at the end of the run).
//
// The period is the option its grid scheduler's declaration names
// (policy.Traits.PeriodOption), absent from the point's options when the
// scheduler has none.
func (p pointCtx) checkGridPasses(sc *Scenario) {
	gp, err := registry.Lookup(sc.Model, registry.KindGrid, sc.Policy.Grid)
	if err != nil || gp.Traits.PeriodOption == "" {
		return // reported by the value check, or no period
	}
	o, ok := gp.Option(gp.Traits.PeriodOption)
	if !ok {
		return
	}
	ai, _ := strconv.ParseFloat(sc.Policy.Options[o.Name], 64)
	if !(ai > 0) || sc.Stop.Completed <= 0 {
		return // not read (fill leaves it zero), or reported
	}
	end := float64(sc.Stop.Completed) * sc.Workload.MeanInterarrival
	passes := end / ai
	if passes > MaxGridPasses || end+ai == end {
		p.d.add(p.at(o.Key), o.Key,
			"%g: a run of stop.completed %d jobs at workload.mean_interarrival %g lasts about %.4g time units, %.4g passes of the grid scheduler (one per interval); at most %d (scenario.MaxGridPasses): raise %s or lower mean_interarrival",
			ai, sc.Stop.Completed, sc.Workload.MeanInterarrival, end, passes, MaxGridPasses, o.Name)
	}
}

// totalProcs sums the processors of the sites (in int64: each site may
// be at the per-site limit).
func totalProcs(sc *Scenario) int64 {
	var t int64
	for _, s := range sc.Platform.Sites {
		t += int64(s.Procs)
	}
	return t
}

// checkPolicyValues reports an option value the point's policy does not
// allow although others of its kind do (the registry's narrower Values,
// such as order sjf with strict FCFS).
func (p pointCtx) checkPolicyValues(sc *Scenario) {
	m, err := registry.LookupModel(sc.Model)
	if err != nil {
		return
	}
	for _, k := range m.Kinds {
		name := valueText(sc, k.Key)
		pol, err := registry.Lookup(m.Name, k.Name, name)
		if err != nil {
			continue // reported by the value check
		}
		for _, o := range pol.Options() {
			if o.Type != registry.TypeEnum || !usedIn(sc, o.Key) {
				continue
			}
			if v := valueText(sc, o.Key); !has(o.Values, v) {
				p.d.add(p.at(o.Key), o.Key, "%s is not allowed with %s %s (%s)", v, k.Key, name, o.Note)
			}
		}
	}
}

// checkHetero reports the hetero generator's ranges whose minimum is above
// their maximum, and jobs that no machine could hold.
func (p pointCtx) checkHetero(sc *Scenario) {
	d := p.d
	pl, w := sc.Platform, sc.Workload
	ranges := []struct {
		key      string
		min, max float64
	}{
		{"platform.cpus_min", float64(pl.CPUsMin), float64(pl.CPUsMax)},
		{"platform.speed_min", float64(pl.SpeedMin), float64(pl.SpeedMax)},
		{"workload.cpus_min", float64(w.CPUsMin), float64(w.CPUsMax)},
		{"workload.estimated_min", float64(w.EstimatedMin), float64(w.EstimatedMax)},
		{"workload.deadline_factor_min", w.DeadlineFactorMin, w.DeadlineFactorMax},
	}
	bad := false
	for _, r := range ranges {
		if r.min > r.max {
			maxKey := strings.TrimSuffix(r.key, "_min") + "_max"
			d.add(p.at(r.key), r.key, "%g is larger than %s (%g)", r.min, maxKey, r.max)
			bad = true
		}
	}
	if bad {
		return
	}
	if len(pl.Sites) == 0 && int64(pl.Machines)*int64(pl.CPUsMax) > platform.MaxCPUs {
		d.add(p.at("platform.cpus_max"), "platform.cpus_max", "%d machines of up to %d CPUs may exceed %d CPUs in all (platform.MaxCPUs)", pl.Machines, pl.CPUsMax, platform.MaxCPUs)
		return
	}
	largest := pl.CPUsMax
	for _, s := range pl.Sites {
		largest = max(largest, s.Procs)
	}
	if largest > 0 && w.CPUsMax > largest {
		d.add(p.at("workload.cpus_max"), "workload.cpus_max", "jobs of %d CPUs could never start: the largest machine has %d", w.CPUsMax, largest)
	}
}
