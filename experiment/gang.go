package experiment

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/rng"
	"github.com/schedlab/schedlab/workload/synth"
)

// GangRun is one replication of the two-site gang model
// (dimitriadou-karatza-2010).
type GangRun struct {
	Platform platform.Platform // one machine per site (platform.Sites)
	Approach int               // 1 | 2: registry.Names(registry.ModelGang, registry.KindApproach)
	// Options are the approach's option texts by name (see 'schedlab
	// policies'); the registry checks them.
	Options              map[string]string
	MeanInterarrival     float64 // locals, per site
	GangMeanInterarrival float64
	MeanService          float64
	Pow2                 bool // gang sizes {2,4,8,16}; else uniform GangMin..GangMax
	GangMin, GangMax     int
	SharedTimes          bool    // one service time for all tasks of a gang
	EstimateError        float64 // E as a fraction
	SplitOverhead        float64
	Stop, Warmup         int64
	Seed                 uint64
	Replication          int
}

// GangResult holds one replication's metrics.
type GangResult struct {
	Jobs        int64   `json:"jobs"`
	RT          float64 `json:"rt"`
	SLD         float64 `json:"sld"`
	WRT         float64 `json:"wrt"`
	WSLD        float64 `json:"wsld"`
	Utilization float64 `json:"utilization"`
	// FinishedPct, SplitPct and Utilization cover the whole run (warm-up
	// included); the response-time metrics skip the warm-up.
	FinishedPct float64 `json:"finished_gangs_pct"` // of gangs that arrived
	SplitPct    float64 `json:"split_gangs_pct"`    // of gangs that arrived
	Backfilled  int64   `json:"backfilled"`
}

// RunGang simulates one replication; extra listeners see every job.
func RunGang(r GangRun, extra ...engine.Listener) (GangResult, error) {
	plat := r.Platform
	if plat.Machines() == 0 {
		return GangResult{}, errors.New("gang run: no sites")
	}
	ms := r.MeanService
	if ms == 0 {
		ms = 1
	}
	streams := plat.Machines() + 1
	var locals []engine.Source
	for s := range plat.Machines() {
		l, err := synth.NewLocals(r.Seed, r.Replication, s, streams, r.MeanInterarrival, ms, r.EstimateError)
		if err != nil {
			return GangResult{}, err
		}
		locals = append(locals, l)
	}
	gmin, gmax := r.GangMin, r.GangMax
	if gmin == 0 && gmax == 0 {
		gmin, gmax = 2, 13
	}
	gangs, err := synth.NewGangs(r.Seed, r.Replication, streams, r.GangMeanInterarrival, ms,
		synth.GangSizes{Pow2: r.Pow2, Min: gmin, Max: gmax}, r.SharedTimes, r.EstimateError)
	if err != nil {
		return GangResult{}, err
	}
	ap, err := registry.Lookup(registry.ModelGang, registry.KindApproach, strconv.Itoa(r.Approach))
	if err != nil {
		return GangResult{}, err
	}
	built, err := ap.Build(policy.Env{Platform: plat, Rand: rng.New(r.Seed, r.Replication, rng.GridChoice), Seed: r.Seed, Rep: r.Replication}, ap.Own(r.Options))
	if err != nil {
		return GangResult{}, err
	}
	pol := built.Gang
	if r.Stop <= r.Warmup {
		return GangResult{}, fmt.Errorf("gang run: stop (%d jobs) must exceed warm-up (%d)", r.Stop, r.Warmup)
	}
	m := metrics.NewGangMetrics(r.Warmup)
	occ := metrics.NewOccupancy()
	g, err := engine.NewGangGrid(engine.GangConfig{Platform: plat, Policy: pol, Locals: locals, Gangs: gangs, Listener: append(engine.Tee{m, occ}, extra...),
		SplitOverhead: r.SplitOverhead, StopAfter: r.Stop, MaxWaiting: MaxWaiting})
	if err != nil {
		return GangResult{}, err
	}
	if err := g.Run(); err != nil {
		return GangResult{}, waitingError(err, "gang", gangLoad(r, plat, ms, gmin, gmax))
	}
	st := m.Result()
	out := GangResult{Jobs: st.Locals + st.Gangs, RT: st.RT, SLD: st.SLD, WRT: st.WRT, WSLD: st.WSLD,
		Utilization: occ.Utilization(), Backfilled: st.Backfilled}
	if st.GangsArrived > 0 {
		out.FinishedPct = 100 * float64(st.GangsFinished) / float64(st.GangsArrived)
	}
	if st.GangsArrived > 0 {
		out.SplitPct = 100 * float64(st.GangsSplit) / float64(st.GangsArrived)
	}
	return out, nil
}

// gangLoad is the offered load of a gang run: the locals of every site
// (one processor each) and the gangs (their mean number of tasks, each
// of mean service ms, split overhead left out), over the processors.
func gangLoad(r GangRun, plat platform.Platform, ms float64, gmin, gmax int) float64 {
	tasks := float64(gmin+gmax) / 2
	if r.Pow2 {
		tasks = (2 + 4 + 8 + 16) / 4.0
	}
	work := float64(plat.Machines())*ms/r.MeanInterarrival + tasks*ms/r.GangMeanInterarrival
	return work / float64(plat.CPUs())
}
