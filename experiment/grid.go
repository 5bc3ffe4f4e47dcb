package experiment

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy/grid"
	"github.com/schedlab/schedlab/rng"
	"github.com/schedlab/schedlab/workload/synth"
)

// GridRun is one replication of the two-level grid model
// (zikos-karatza-2008). It is a comparable value: equal runs give equal
// results, which reproductions use to share work.
type GridRun struct {
	Sites              string // processors per site, e.g. "8,8,8,8"
	Grid               string // random | realtime | deferred | hybrid
	AllocationInterval float64
	RandomFraction     float64
	Local              string // random | sq | 2rsq
	NormalizeLoad      bool
	MeanInterarrival   float64
	MeanService        float64
	Stop               int64 // completed jobs
	Warmup             int64 // completed jobs left out of the metrics
	Seed               uint64
	Replication        int
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

// ParseSites reads "8,8,8,8" (or "4x8") into processor counts.
func ParseSites(s string) ([]int, error) {
	if n, p, ok := strings.Cut(s, "x"); ok {
		ni, err1 := strconv.Atoi(n)
		pi, err2 := strconv.Atoi(p)
		if err1 != nil || err2 != nil || ni < 1 || pi < 1 {
			return nil, fmt.Errorf("sites %q: want NxP with N, P >= 1", s)
		}
		out := make([]int, ni)
		for i := range out {
			out[i] = pi
		}
		return out, nil
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < 1 {
			return nil, fmt.Errorf("sites %q: %q is not a processor count >= 1", s, f)
		}
		out = append(out, v)
	}
	return out, nil
}

// RunGrid simulates one replication; extra listeners (e.g. a jobs.csv
// writer) see every job.
func RunGrid(r GridRun, extra ...engine.Listener) (GridResult, error) {
	sites, err := ParseSites(r.Sites)
	if err != nil {
		return GridResult{}, err
	}
	ms := r.MeanService
	if ms == 0 {
		ms = 1
	}
	src, err := synth.NewPoisson(r.Seed, r.Replication, r.MeanInterarrival, ms, 0)
	if err != nil {
		return GridResult{}, err
	}
	gs, err := grid.NewScheduler(r.Grid, grid.Options{AllocationInterval: r.AllocationInterval, RandomFraction: r.RandomFraction,
		PreferIdle: r.Local == "sq", NormalizeLoad: r.NormalizeLoad}, rng.New(r.Seed, r.Replication, rng.GridChoice))
	if err != nil {
		return GridResult{}, err
	}
	ls, err := grid.NewLocal(r.Local, rng.New(r.Seed, r.Replication, rng.LocalChoice))
	if err != nil {
		return GridResult{}, err
	}
	if r.Stop <= r.Warmup {
		return GridResult{}, fmt.Errorf("grid run: stop (%d jobs) must exceed warm-up (%d)", r.Stop, r.Warmup)
	}
	total := 0
	for _, n := range sites {
		total += n
	}
	plat, err := platform.Sites(sites)
	if err != nil {
		return GridResult{}, err
	}
	sum := metrics.NewSummary(total, 0)
	sum.Skip(r.Warmup)
	occ := metrics.NewOccupancy()
	g, err := engine.NewGrid(engine.GridConfig{Platform: plat, Grid: gs, Local: ls, Source: src, Listener: append(engine.Tee{sum, occ}, extra...), StopAfter: r.Stop})
	if err != nil {
		return GridResult{}, err
	}
	if err := g.Run(); err != nil {
		return GridResult{}, err
	}
	m := sum.Result()
	busy, load := occ.Machines()
	var util float64
	for i, b := range busy {
		util += float64(b * float64(sites[i]))
	}
	return GridResult{Jobs: m.Jobs, RT: m.MeanResponse, MaxRT: m.MaxResponse, SLD: m.MeanSlowdown,
		Utilization: util / float64(total), SiteUtil: busy, SiteLoad: load}, nil
}
