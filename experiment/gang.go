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

// RunGang simulates one replication; extra listeners see every job. It
// is the gang model's assembly (synthModels) on r's platform, without a
// scenario's checks.
func RunGang(r GangRun, extra ...engine.Listener) (GangResult, error) {
	spec := RunSpec{Model: registry.ModelGang,
		Workload: WorkloadSpec{Synthetic: &SyntheticSpec{MeanInterarrival: r.MeanInterarrival, GangMeanInterarrival: r.GangMeanInterarrival,
			MeanService: r.MeanService, Pow2: r.Pow2, GangMin: r.GangMin, GangMax: r.GangMax, SharedTimes: r.SharedTimes,
			EstimateError: r.EstimateError, SplitOverhead: r.SplitOverhead, Stop: r.Stop, Warmup: r.Warmup},
			Seed: r.Seed, Rep: r.Replication},
		Policy: PolicySpec{Name: strconv.Itoa(r.Approach), Options: r.Options}, Outputs: OutputSpec{Listeners: extra}}
	res, err := runAsm(spec, r.Platform, nil)
	if err != nil {
		return GangResult{}, err
	}
	return res.detail.(GangResult), nil
}

// runGangAsm runs one replication of the gang model on a.plat: each
// site's local jobs and the gangs, under the approach.
func runGangAsm(a *synthAsm) (repValues, error) {
	s, y, plat := a.s, a.syn(), a.plat
	if plat.Machines() == 0 {
		return repValues{}, errors.New("gang run: no sites")
	}
	ms := orOne(y.MeanService)
	streams := plat.Machines() + 1
	var locals []engine.Source
	for site := range plat.Machines() {
		l, err := synth.NewLocals(s.Workload.Seed, s.Workload.Rep, site, streams, y.MeanInterarrival, ms, y.EstimateError)
		if err != nil {
			return repValues{}, err
		}
		locals = append(locals, l)
	}
	gmin, gmax := y.GangMin, y.GangMax
	if gmin == 0 && gmax == 0 {
		gmin, gmax = 2, 13
	}
	gangs, err := synth.NewGangs(s.Workload.Seed, s.Workload.Rep, streams, y.GangMeanInterarrival, ms,
		synth.GangSizes{Pow2: y.Pow2, Min: gmin, Max: gmax}, y.SharedTimes, y.EstimateError)
	if err != nil {
		return repValues{}, err
	}
	ap, err := registry.Lookup(registry.ModelGang, registry.KindApproach, s.Policy.Name)
	if err != nil {
		return repValues{}, err
	}
	built, err := ap.Build(policy.Env{Platform: plat, Rand: rng.New(s.Workload.Seed, s.Workload.Rep, rng.GridChoice), Seed: s.Workload.Seed, Rep: s.Workload.Rep}, ap.Own(s.Policy.Options))
	if err != nil {
		return repValues{}, err
	}
	if y.Stop <= y.Warmup {
		return repValues{}, fmt.Errorf("gang run: stop (%d jobs) must exceed warm-up (%d)", y.Stop, y.Warmup)
	}
	g, err := engine.NewGangGrid(engine.GangConfig{Platform: plat, Policy: built.Gang, Locals: locals, Gangs: gangs, Listener: a.openOutputs(),
		SplitOverhead: y.SplitOverhead, StopAfter: y.Stop, MaxWaiting: MaxWaiting})
	if err != nil {
		return repValues{}, err
	}
	if err := g.Run(); err != nil {
		return repValues{}, waitingError(err, "gang", gangLoad(y, plat, ms, gmin, gmax))
	}
	return gangValues(a.o.gang.Result(), a.o.occ.Utilization()), nil
}

// gangValues are the gang model's metrics of a run's gang metrics and
// utilization.
func gangValues(st metrics.GangStats, util float64) repValues {
	r := GangResult{Jobs: st.Locals + st.Gangs, RT: st.RT, SLD: st.SLD, WRT: st.WRT, WSLD: st.WSLD,
		Utilization: util, Backfilled: st.Backfilled}
	if st.GangsArrived > 0 {
		r.FinishedPct = 100 * float64(st.GangsFinished) / float64(st.GangsArrived)
		r.SplitPct = 100 * float64(st.GangsSplit) / float64(st.GangsArrived)
	}
	return repValues{map[string]float64{"rt": r.RT, "sld": r.SLD, "wrt": r.WRT, "wsld": r.WSLD, "utilization": r.Utilization,
		"finished_gangs_pct": r.FinishedPct, "split_gangs_pct": r.SplitPct}, r}
}

// gangLoad is the offered load of a gang run: the locals of every site
// (one processor each) and the gangs (their mean number of tasks, each
// of mean service ms, split overhead left out), over the processors.
func gangLoad(y *SyntheticSpec, plat platform.Platform, ms float64, gmin, gmax int) float64 {
	tasks := float64(gmin+gmax) / 2
	if y.Pow2 {
		tasks = (2 + 4 + 8 + 16) / 4.0
	}
	work := float64(plat.Machines())*ms/y.MeanInterarrival + tasks*ms/y.GangMeanInterarrival
	return work / float64(plat.CPUs())
}
