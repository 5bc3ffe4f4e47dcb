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
// writer) see every job.
func RunGrid(r GridRun, extra ...engine.Listener) (GridResult, error) {
	plat := r.Platform
	if plat.Machines() == 0 {
		return GridResult{}, errors.New("grid run: no sites")
	}
	ms := r.MeanService
	if ms == 0 {
		ms = 1
	}
	src, err := synth.NewPoisson(r.Seed, r.Replication, r.MeanInterarrival, ms, 0)
	if err != nil {
		return GridResult{}, err
	}
	// The grid scheduler's preference for idle sites comes from the local
	// scheduler's registry trait (PreferIdle), not from its name.
	gs, ls, err := registry.NewGridPair(r.Grid, r.Local, r.Options,
		rng.New(r.Seed, r.Replication, rng.GridChoice), rng.New(r.Seed, r.Replication, rng.LocalChoice))
	if err != nil {
		return GridResult{}, err
	}
	if r.Stop <= r.Warmup {
		return GridResult{}, fmt.Errorf("grid run: stop (%d jobs) must exceed warm-up (%d)", r.Stop, r.Warmup)
	}
	total := plat.CPUs()
	sum := metrics.NewSummary(total, metrics.SyntheticTau)
	sum.Skip(r.Warmup)
	occ := metrics.NewOccupancy()
	g, err := engine.NewGrid(engine.GridConfig{Platform: plat, Grid: gs, Local: ls, Source: src, Listener: append(engine.Tee{sum, occ}, extra...), StopAfter: r.Stop, MaxWaiting: MaxWaiting})
	if err != nil {
		return GridResult{}, err
	}
	if err := g.Run(); err != nil {
		// One-processor jobs: the offered load is the service demand
		// per unit of time over the processors.
		err = waitingError(err, "grid", ms/r.MeanInterarrival/float64(total))
		if o, ai, ok := periodOption(r.Grid, r.Options); ok && errors.Is(err, engine.ErrTooManyWaiting) {
			// A periodic grid scheduler holds every job that arrives
			// within an allocation interval: a long interval fills the
			// queue whatever the load.
			err = fmt.Errorf("%w; %s is %s: jobs wait at the grid scheduler for up to one interval, so an interval much longer than the mean inter-arrival time (%g) fills the queue", err, o.Key, ai, r.MeanInterarrival)
		}
		return GridResult{}, err
	}
	m := sum.Result()
	busy, load := occ.Machines()
	var util float64
	for i, b := range busy {
		util += b * float64(plat.Machine(i).CPUs)
	}
	return GridResult{Jobs: m.Jobs, RT: m.MeanResponse, MaxRT: m.MaxResponse, SLD: m.MeanSlowdown,
		Utilization: util / float64(total), SiteUtil: busy, SiteLoad: load}, nil
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
