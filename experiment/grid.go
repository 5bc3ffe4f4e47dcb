package experiment

import (
	"errors"
	"fmt"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/rng"
	"github.com/schedlab/schedlab/workload/synth"
)

// GridRun is one replication of the two-level grid model
// (zikos-karatza-2008). Policies are named as in package registry.
type GridRun struct {
	Platform platform.Platform // one machine per site (platform.Sites)
	Grid     string            // grid scheduler: registry.Names(registry.ModelGrid, registry.KindGrid)
	Local    string            // local scheduler: registry.Names(registry.ModelGrid, registry.KindLocal)
	// Options are the grid scheduler's option texts by name (see
	// 'schedlab policies'); the registry checks them.
	Options          map[string]string
	MeanInterarrival float64
	MeanService      float64
	Stop             int64 // completed jobs
	Warmup           int64 // completed jobs left out of the metrics
	Seed             uint64
	Replication      int
}

// GridResult holds the metrics of one grid replication.
type GridResult struct {
	Jobs        int64     `json:"jobs"`
	RT          float64   `json:"rt"`
	MaxRT       float64   `json:"max_rt"`
	SLD         float64   `json:"sld"`
	Utilization float64   `json:"utilization"`
	SiteUtil    []float64 `json:"site_utilization"`
	SiteLoad    []float64 `json:"site_load"`
}

// RunGrid simulates one replication; extra listeners (e.g. a jobs.csv
// writer) see every job. It is the grid model's assembly (synthModels)
// on r's platform, without a scenario's checks.
func RunGrid(r GridRun, extra ...engine.Listener) (GridResult, error) {
	spec := RunSpec{Model: registry.ModelGrid,
		Workload: WorkloadSpec{Synthetic: &SyntheticSpec{MeanInterarrival: r.MeanInterarrival, MeanService: r.MeanService, Stop: r.Stop, Warmup: r.Warmup},
			Seed: r.Seed, Rep: r.Replication},
		Policy: PolicySpec{Name: r.Grid, Local: r.Local, Options: r.Options}, Outputs: OutputSpec{Listeners: extra}}
	res, err := runAsm(spec, r.Platform, nil)
	if err != nil {
		return GridResult{}, err
	}
	return res.detail.(GridResult), nil
}

// runGridAsm runs one replication of the grid model on a.plat: Poisson
// one-processor jobs, the grid scheduler over the sites' local ones.
func runGridAsm(a *synthAsm) (repValues, error) {
	s, y, plat := a.s, a.syn(), a.plat
	if plat.Machines() == 0 {
		return repValues{}, errors.New("grid run: no sites")
	}
	ms := orOne(y.MeanService)
	src, err := synth.NewPoisson(s.Workload.Seed, s.Workload.Rep, y.MeanInterarrival, ms, 0)
	if err != nil {
		return repValues{}, err
	}
	// The grid scheduler's preference for idle sites comes from the local
	// scheduler's registry trait (PreferIdle), not from its name.
	gs, ls, err := registry.NewGridPair(s.Policy.Name, s.Policy.Local, s.Policy.Options,
		rng.New(s.Workload.Seed, s.Workload.Rep, rng.GridChoice), rng.New(s.Workload.Seed, s.Workload.Rep, rng.LocalChoice))
	if err != nil {
		return repValues{}, err
	}
	if y.Stop <= y.Warmup {
		return repValues{}, fmt.Errorf("grid run: stop (%d jobs) must exceed warm-up (%d)", y.Stop, y.Warmup)
	}
	a.tau = metrics.SyntheticTau
	g, err := engine.NewGrid(engine.GridConfig{Platform: plat, Grid: gs, Local: ls, Source: src, Listener: a.openOutputs(), StopAfter: y.Stop, MaxWaiting: MaxWaiting})
	if err != nil {
		return repValues{}, err
	}
	total := plat.CPUs()
	if err := g.Run(); err != nil {
		// One-processor jobs: the offered load is the service demand
		// per unit of time over the processors.
		err = waitingError(err, "grid", ms/y.MeanInterarrival/float64(total))
		if o, ai, ok := periodOption(s.Policy.Name, s.Policy.Options); ok && errors.Is(err, engine.ErrTooManyWaiting) {
			// A periodic grid scheduler holds every job that arrives
			// within an allocation interval: a long interval fills the
			// queue whatever the load.
			err = fmt.Errorf("%w; %s is %s: jobs wait at the grid scheduler for up to one interval, so an interval much longer than the mean inter-arrival time (%g) fills the queue", err, o.Key, ai, y.MeanInterarrival)
		}
		return repValues{}, err
	}
	m := a.o.sum.Result()
	busy, load := a.o.occ.Machines()
	var util float64
	for i, b := range busy {
		util += b * float64(plat.Machine(i).CPUs)
	}
	r := GridResult{Jobs: m.Jobs, RT: m.MeanResponse, MaxRT: m.MaxResponse, SLD: m.MeanSlowdown,
		Utilization: util / float64(total), SiteUtil: busy, SiteLoad: load}
	v := map[string]float64{"rt": r.RT, "max_rt": r.MaxRT, "sld": r.SLD, "utilization": r.Utilization}
	for i := range r.SiteUtil {
		v[fmt.Sprintf("site%d_utilization", i)], v[fmt.Sprintf("site%d_load", i)] = r.SiteUtil[i], r.SiteLoad[i]
	}
	return repValues{v, r}, nil
}

// periodOption is the option that sets the period of the grid scheduler
// called grid (its PeriodOption trait) and its text in opts; false for a
// scheduler without one, or an option not given.
func periodOption(grid string, opts map[string]string) (registry.Option, string, bool) {
	gp, err := registry.Lookup(registry.ModelGrid, registry.KindGrid, grid)
	if err != nil || gp.Traits.PeriodOption == "" {
		return registry.Option{}, "", false
	}
	o, ok := gp.Option(gp.Traits.PeriodOption)
	text, given := opts[o.Name]
	return o, text, ok && given
}
