package experiment

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/internal/atomicfile"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/scenario"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/synth"
)

// SyntheticSpec is the generated jobs of a synthetic model's run
// (RunSpec.Model): the generator's settings, when the run stops and
// what the metrics leave out. The random streams are WorkloadSpec's
// Seed and Rep.
type SyntheticSpec struct {
	// Model is the cluster model's workload model: "" (or
	// scenario.Poisson) for one-processor Poisson jobs, else a declared
	// workload model (registry.WorkloadModels) with its option texts.
	Model   string
	Options map[string]string
	// MeanInterarrival and MeanService are the Poisson jobs' means (the
	// gang model's locals, per site); 0 service = 1 for grid and gang.
	MeanInterarrival, MeanService float64
	// The gang model's gangs: their mean inter-arrival time, sizes
	// ({2,4,8,16} with Pow2, else uniform GangMin..GangMax; 0..0 =
	// 2..13), one service time for all tasks (SharedTimes), the
	// estimates' error E and the overhead of a split gang.
	GangMeanInterarrival float64
	Pow2                 bool
	GangMin, GangMax     int
	SharedTimes          bool
	EstimateError        float64
	SplitOverhead        float64
	// Hetero is the hetero model's job generator (klusacek-2008); its
	// Jobs is Stop.
	Hetero synth.HeteroOptions
	// Stop is the number of completed jobs that ends the run; Warmup
	// the first completed jobs the metrics leave out.
	Stop, Warmup int64
}

// SiteSpec is one site (one machine) of a synthetic model's platform;
// Speed 0 is 1.
type SiteSpec struct {
	Procs int     `json:"procs"`
	Speed float64 `json:"speed,omitempty"`
}

// SynthSpec is the run of replication rep of a scenario s of a
// synthetic workload (no trace): the scenario's settings bound to a
// RunSpec of its model, writing its per-job records to records ("":
// none), keeping per-job results (perJob) and heard by extra.
func SynthSpec(s scenario.Scenario, rep int, records string, perJob bool, extra []engine.Listener) (RunSpec, error) {
	w := s.Workload
	syn := &SyntheticSpec{Model: w.Model, Options: w.Options, MeanInterarrival: w.MeanInterarrival, MeanService: w.MeanService,
		GangMeanInterarrival: w.GangMeanInterarrival, Pow2: w.GangSizes == "pow2", GangMin: w.GangMin, GangMax: w.GangMax,
		SharedTimes: w.GangTimes == "shared", EstimateError: w.EstimateError, SplitOverhead: w.SplitOverhead,
		Stop: s.Stop.Completed, Warmup: s.Warmup.Jobs}
	spec := RunSpec{Model: s.Model,
		Workload: WorkloadSpec{Synthetic: syn, SubmitZero: w.Submit == scenario.SubmitZero, Seed: s.Seed, Rep: rep},
		Platform: PlatformSpec{Procs: s.Platform.Procs, Continue: w.OnOverrun == "continue", Avail: scenarioAvail(s), Power: s.Platform.Power,
			Carbon: s.Platform.Carbon, Price: s.Platform.Price, Nodes: s.Platform.Nodes},
		Policy: PolicySpec{Name: s.Policy.Queue, Options: s.Policy.Options, Predictor: w.Predictor, Correction: w.Correction, NodePlanner: s.Platform.NodePlanner,
			Local: s.Policy.Local},
		Outputs: OutputSpec{Records: records, Responses: perJob, Listeners: extra, Metrics: s.Metrics}}
	if len(s.Platform.Nodes) > 0 {
		// On nodes the machine is the nodes' cores: the workload model
		// and the metrics see that many processors.
		ns, err := ParseNodes(s.Platform.Nodes)
		if err != nil {
			return RunSpec{}, &SettingError{Setting: "platform.nodes", Err: err}
		}
		spec.Platform.Procs = ns.Cores()
	}
	for _, st := range s.Platform.Sites {
		spec.Platform.Sites = append(spec.Platform.Sites, SiteSpec{Procs: st.Procs, Speed: st.Speed})
	}
	switch s.Model {
	case registry.ModelGrid:
		spec.Policy.Name = s.Policy.Grid
	case registry.ModelGang:
		spec.Policy.Name = strconv.Itoa(s.Policy.Approach)
	case registry.ModelHetero:
		p := s.Platform
		spec.Platform.Machines = synth.MachineOptions{N: p.Machines, CPUsMin: p.CPUsMin, CPUsMax: p.CPUsMax, SpeedMin: p.SpeedMin, SpeedMax: p.SpeedMax}
		var err error
		if syn.Hetero, err = heteroJobs(s); err != nil {
			return RunSpec{}, err
		}
	default:
		if syn.declared() {
			// A declared workload model's requests are estimates: exact
			// replaces them by the runtimes; predict adds its layer.
			est, err := workload.ParseEstimate(w.Estimate)
			if err != nil {
				return RunSpec{}, err
			}
			spec.Workload.Estimate = est
		}
	}
	return spec, nil
}

// declared says whether the cluster model's jobs come from a declared
// workload model rather than the Poisson generator.
func (y *SyntheticSpec) declared() bool { return y.Model != "" && y.Model != scenario.Poisson }

// heteroJobs is the hetero model's job generator of scenario s: BM_est's
// range is the generator's speeds, or the sites' speeds rounded outward
// to integers (at least 1).
func heteroJobs(s scenario.Scenario) (synth.HeteroOptions, error) {
	w := s.Workload
	bm, err := synth.ParseBMEst(w.BMEst)
	if err != nil {
		return synth.HeteroOptions{}, err
	}
	dl, err := synth.ParseDeadline(w.Deadline)
	if err != nil {
		return synth.HeteroOptions{}, err
	}
	bmMin, bmMax := s.Platform.SpeedMin, s.Platform.SpeedMax
	if len(s.Platform.Sites) > 0 {
		lo, hi := math.Inf(1), 0.0
		for _, st := range s.Platform.Sites {
			sp := orOne(st.Speed)
			lo, hi = min(lo, sp), max(hi, sp)
		}
		bmMin = max(1, int(math.Floor(lo)))
		bmMax = max(bmMin, int(math.Ceil(hi)))
	}
	o := synth.HeteroOptions{Jobs: int(s.Stop.Completed), MeanInterarrival: w.MeanInterarrival,
		CPUsMin: w.CPUsMin, CPUsMax: w.CPUsMax, EstMin: w.EstimatedMin, EstMax: w.EstimatedMax,
		DeadlineFraction: w.DeadlineFraction, Deadline: dl, SMin: w.DeadlineFactorMin, SMax: w.DeadlineFactorMax,
		BMEst: bm, BMMin: bmMin, BMMax: bmMax}
	if dl == synth.DeadlineAlea {
		// alea does not read the factor; the generator still checks it
		o.SMin, o.SMax = 2, 2
	}
	return o, nil
}

func orOne(x float64) float64 {
	if x == 0 {
		return 1
	}
	return x
}

// checkSynthetic is Check of a synthetic model's run: its model's
// checks (synthModel.checks, in order), each problem a *SettingError named by the
// scenario setting.
func (s *RunSpec) checkSynthetic() error {
	m, ok := lookupSynthModel(s.Model)
	if !ok {
		return &SettingError{Setting: "model", Err: fmt.Errorf("model %s: no runner in package experiment", s.Model)}
	}
	var errs []error
	for _, c := range m.checks {
		if err := c.check(s); err != nil {
			errs = append(errs, &SettingError{Setting: c.setting, Err: err})
		}
	}
	return errors.Join(errs...)
}

// synthCheck is one check of a synthetic model's spec.
type synthCheck struct {
	setting string
	check   func(s *RunSpec) error
}

// synthModel is how a synthetic model's run is assembled: its checks,
// in order, what comes before the records' file, the records, and its
// run, which makes the jobs (the model's generator stages), opens the
// outputs (synthAsm.openOutputs), builds the policy and the engine,
// runs it and reports the model's metrics.
type synthModel struct {
	name   string
	checks []synthCheck
	// prepare makes what must exist before the records' file is
	// created: the sites' or the hetero model's machines (synthAsm.plat;
	// the cluster model's machine waits for its generator stages, which
	// may set its speed).
	prepare func(a *synthAsm) error
	// records makes the writer of the per-job records (the "records"
	// output).
	records func(a *synthAsm, w io.Writer) *metrics.JobsCSV
	// beside, when set, writes what goes beside the records once they
	// are complete (the hetero model's machines).
	beside func(a *synthAsm) error
	run    func(a *synthAsm) (repValues, error)
}

// synthModels are the synthetic models' assemblies.
var synthModels = []synthModel{
	{name: registry.ModelCluster, checks: clusterChecks, prepare: func(*synthAsm) error { return nil },
		records: sitesRecords, run: runClusterSynth},
	{name: registry.ModelGrid, checks: sitesChecks, prepare: prepareSites, records: sitesRecords, run: runGridAsm},
	{name: registry.ModelGang, checks: sitesChecks, prepare: prepareSites, records: sitesRecords, run: runGangAsm},
	{name: registry.ModelHetero, checks: heteroChecks, prepare: prepareHetero,
		records: func(a *synthAsm, w io.Writer) *metrics.JobsCSV { return metrics.NewJobsCSVMachines(w, a.plat) },
		beside: func(a *synthAsm) error {
			return atomicfile.Write(strings.TrimSuffix(a.s.Outputs.Records, ".csv")+".platform.csv", func(w io.Writer) error {
				return metrics.WritePlatformCSV(w, a.plat)
			})
		},
		run: runHeteroAsm},
}

func lookupSynthModel(name string) (synthModel, bool) {
	for _, m := range synthModels {
		if m.name == name {
			return m, true
		}
	}
	return synthModel{}, false
}

func sitesRecords(_ *synthAsm, w io.Writer) *metrics.JobsCSV { return metrics.NewJobsCSVSites(w) }

var clusterChecks = []synthCheck{
	{"stop.completed", func(s *RunSpec) error {
		if s.Workload.Synthetic.Stop <= 0 {
			return errors.New("cluster model with a synthetic workload: give stop.completed")
		}
		return nil
	}},
	{"platform.procs", func(s *RunSpec) error {
		if s.Platform.Procs <= 0 {
			return errors.New("cluster model with a synthetic workload: give platform.procs")
		}
		return nil
	}},
}

// sitesChecks are the grid and gang models': one machine per site, site
// speeds not modelled.
var sitesChecks = []synthCheck{
	{"platform.sites", func(s *RunSpec) error {
		if len(s.Platform.Sites) == 0 {
			return fmt.Errorf("%s model: no sites", s.Model)
		}
		for i, st := range s.Platform.Sites {
			if st.Speed != 0 && st.Speed != 1 {
				return fmt.Errorf("%s model: site speeds other than 1 are not modelled (site %d has %g)", s.Model, i, st.Speed)
			}
		}
		return nil
	}},
}

var heteroChecks = []synthCheck{
	{"stop.completed", func(s *RunSpec) error {
		if n := s.Workload.Synthetic.Stop; n < 1 || n > synth.MaxHeteroJobs {
			return fmt.Errorf("hetero model: stop.completed %d (want 1..%d jobs)", n, synth.MaxHeteroJobs)
		}
		return nil
	}},
	{"warmup.jobs", func(s *RunSpec) error {
		if s.Workload.Synthetic.Warmup != 0 {
			return fmt.Errorf("hetero model: warmup.jobs is not supported (the metrics cover every job)")
		}
		return nil
	}},
}

// synthAsm is one synthetic run being assembled: the spec, its model,
// the machines, and what the stages and outputs made.
type synthAsm struct {
	s    RunSpec
	m    synthModel
	plat platform.Platform
	// tau is the summary's bounded-slowdown threshold, set by the
	// generator stages.
	tau    float64
	hetero HeteroRun // the hetero model's run
	w      io.Writer // the records' file (nil: none)
	o      synthHandles
}

// synthHandles are the handles the outputs of a synthetic run keep.
type synthHandles struct {
	sum    *metrics.Summary
	gang   *metrics.GangMetrics
	reader *jobReader
	occ    *metrics.Occupancy
	dl     *metrics.Deadlines
	qe     *metrics.QueueAtEvents
	jw     *metrics.JobsCSV
	uw     *metrics.UserWaits
	users  []string // the per-user metrics' names, uw's order
}

func (a *synthAsm) syn() *SyntheticSpec { return a.s.Workload.Synthetic }

func (a *synthAsm) model(names ...string) bool { return slices.Contains(names, a.s.Model) }

// synthOutput is one output of a synthetic run: a listener.
type synthOutput struct {
	name    string
	applies func(a *synthAsm) bool
	open    func(a *synthAsm) engine.Listener
}

// synthOutputs are the outputs of a synthetic run, in the order of their
// listeners: the model's metrics, the caller's listeners, the records,
// then the cluster model's per-user waits.
var synthOutputs = []synthOutput{
	{name: "summary", // responses, waits, slowdowns; the warm-up left out
		applies: func(a *synthAsm) bool { return !a.model(registry.ModelGang) },
		open: func(a *synthAsm) engine.Listener {
			a.o.sum = metrics.NewSummary(a.plat.CPUs(), a.tau)
			a.o.sum.Skip(a.syn().Warmup)
			return a.o.sum
		}},
	{name: "gang metrics", // locals' and gangs' responses, the warm-up left out
		applies: func(a *synthAsm) bool { return a.model(registry.ModelGang) },
		open: func(a *synthAsm) engine.Listener {
			a.o.gang = metrics.NewGangMetrics(a.syn().Warmup)
			return a.o.gang
		}},
	{name: "responses", // OutputSpec.Responses: per job, in memory
		applies: func(a *synthAsm) bool { return a.model(registry.ModelCluster) && a.s.Outputs.Responses },
		open: func(a *synthAsm) engine.Listener {
			a.o.reader = &jobReader{res: &ClusterResult{}}
			return a.o.reader
		}},
	{name: "occupancy", // each site's busy CPUs and load
		applies: func(a *synthAsm) bool { return a.model(registry.ModelGrid, registry.ModelGang) },
		open: func(a *synthAsm) engine.Listener {
			a.o.occ = metrics.NewOccupancy()
			return a.o.occ
		}},
	{name: "deadlines", // missed deadlines, the system usage
		applies: func(a *synthAsm) bool { return a.model(registry.ModelHetero) },
		open: func(a *synthAsm) engine.Listener {
			a.o.dl = metrics.NewDeadlines()
			return a.o.dl
		}},
	{name: "queue at events",
		applies: func(a *synthAsm) bool { return a.model(registry.ModelHetero) },
		open: func(a *synthAsm) engine.Listener {
			a.o.qe = metrics.NewQueueAtEvents()
			return a.o.qe
		}},
	{name: "listeners", // OutputSpec.Listeners: the caller's and the declared metrics'
		applies: func(a *synthAsm) bool { return len(a.s.Outputs.Listeners) > 0 },
		open:    func(a *synthAsm) engine.Listener { return engine.Tee(a.s.Outputs.Listeners) }},
	{name: "records", // OutputSpec.Records: the per-job records
		applies: func(a *synthAsm) bool { return a.w != nil },
		open: func(a *synthAsm) engine.Listener {
			a.o.jw = a.m.records(a, a.w)
			return a.o.jw
		}},
	{name: "user waits", // the per-user metrics the metrics list names
		applies: func(a *synthAsm) bool {
			if !a.model(registry.ModelCluster) {
				return false
			}
			_, names := userMetrics(a.s.Outputs.Metrics)
			return len(names) > 0
		},
		open: func(a *synthAsm) engine.Listener {
			var users []int32
			users, a.o.users = userMetrics(a.s.Outputs.Metrics)
			a.o.uw = metrics.NewUserWaits(users, a.syn().Warmup)
			return a.o.uw
		}},
}

// openOutputs opens the outputs that apply, in order: the run's
// listeners.
func (a *synthAsm) openOutputs() engine.Tee {
	var t engine.Tee
	for _, o := range synthOutputs {
		if o.applies(a) {
			t = append(t, flatten(o.open(a))...)
		}
	}
	return t
}

// runSynthetic checks a synthetic model's run and runs it; with records,
// inside atomicfile.Write, so that they appear only when the run
// succeeded.
func (s RunSpec) runSynthetic() (repValues, error) {
	if err := s.Check(); err != nil {
		return repValues{}, err
	}
	m, _ := lookupSynthModel(s.Model)
	a := &synthAsm{s: s, m: m}
	if err := m.prepare(a); err != nil {
		return repValues{}, err
	}
	if s.Outputs.Records == "" {
		return m.run(a)
	}
	var res repValues
	err := atomicfile.Write(s.Outputs.Records, func(w io.Writer) (err error) {
		a.w = w
		if res, err = m.run(a); err != nil {
			if a.o.jw != nil {
				a.o.jw.Stop() // before atomicfile removes the file
			}
			return err
		}
		if err := a.o.jw.Flush(); err != nil {
			return err
		}
		if m.beside != nil {
			return m.beside(a)
		}
		return nil
	})
	return res, err
}

// runAsm runs spec's model's assembly on plat, without the spec's
// checks and preparation (RunGrid, RunGang, RunHetero: a caller of the
// model's own run type); init, when set, completes the assembly.
func runAsm(spec RunSpec, plat platform.Platform, init func(a *synthAsm)) (repValues, error) {
	m, _ := lookupSynthModel(spec.Model)
	a := &synthAsm{s: spec, m: m, plat: plat}
	if init != nil {
		init(a)
	}
	return m.run(a)
}
