package experiment

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/internal/atomicfile"
	"github.com/schedlab/schedlab/metrics"
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
		Platform: PlatformSpec{Procs: s.Platform.Procs, Continue: w.OnOverrun == "continue", Avail: scenarioAvail(s)},
		Policy: PolicySpec{Name: s.Policy.Queue, Options: s.Policy.Options, Predictor: w.Predictor, Correction: w.Correction,
			Local: s.Policy.Local},
		Outputs: OutputSpec{Records: records, Responses: perJob, Listeners: extra, Metrics: s.Metrics}}
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
// checks (synthModel.check), each problem a *SettingError named by the
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
// in order, and its run, which builds the model's generator stages and
// metric listeners (its own, before extra: the declared outputs,
// synthOutputs) and runs the engine.
type synthModel struct {
	name   string
	checks []synthCheck
	// records makes the writer of the per-job records (the "records"
	// output), given what prepare made.
	records func(a *synthAsm, w io.Writer) *metrics.JobsCSV
	// prepare, when set, makes what the records need before their file
	// is created (the hetero model's machines).
	prepare func(a *synthAsm) error
	// beside, when set, writes what goes beside the records once they
	// are complete (the hetero model's machines).
	beside func(a *synthAsm) error
	run    func(a *synthAsm, extra engine.Tee) (repValues, error)
}

// synthModels are the synthetic models' assemblies.
var synthModels = []synthModel{
	{name: registry.ModelCluster, checks: clusterChecks, records: sitesRecords, run: runClusterSynth},
	{name: registry.ModelGrid, checks: sitesChecks, records: sitesRecords, run: runGridSpec},
	{name: registry.ModelGang, checks: sitesChecks, records: sitesRecords, run: runGangSpec},
	{name: registry.ModelHetero, checks: heteroChecks, prepare: prepareHetero,
		records: func(a *synthAsm, w io.Writer) *metrics.JobsCSV {
			return metrics.NewJobsCSVMachines(w, a.hetero.Platform)
		},
		beside: func(a *synthAsm) error {
			return atomicfile.Write(strings.TrimSuffix(a.s.Outputs.Records, ".csv")+".platform.csv", func(w io.Writer) error {
				return metrics.WritePlatformCSV(w, a.hetero.Platform)
			})
		},
		run: runHeteroSpec},
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

// synthAsm is one synthetic run being assembled.
type synthAsm struct {
	s      RunSpec
	m      synthModel
	hetero HeteroRun // the hetero model's run, once prepared
}

// synthOutput is one output of a synthetic run: a listener heard after
// the model's own.
type synthOutput struct {
	name    string
	applies func(a *synthAsm) bool
	// open makes the listener; w is the records' file (nil without).
	open func(a *synthAsm, w io.Writer) (engine.Listener, error)
}

// synthOutputs are the outputs of a synthetic run, in the order of their
// listeners after the model's own metrics (and, for the cluster model,
// before its per-user waits).
var synthOutputs = []synthOutput{
	{name: "listeners", // OutputSpec.Listeners: the caller's and the declared metrics'
		applies: func(a *synthAsm) bool { return len(a.s.Outputs.Listeners) > 0 },
		open: func(a *synthAsm, _ io.Writer) (engine.Listener, error) {
			return engine.Tee(a.s.Outputs.Listeners), nil
		}},
	{name: "records", // OutputSpec.Records: the per-job records
		applies: func(a *synthAsm) bool { return a.s.Outputs.Records != "" },
		open: func(a *synthAsm, w io.Writer) (engine.Listener, error) {
			return a.m.records(a, w), nil
		}},
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
	if m.prepare != nil {
		if err := m.prepare(a); err != nil {
			return repValues{}, err
		}
	}
	if s.Outputs.Records == "" {
		extra, _, err := a.openOutputs(nil)
		if err != nil {
			return repValues{}, err
		}
		return m.run(a, extra)
	}
	var res repValues
	err := atomicfile.Write(s.Outputs.Records, func(w io.Writer) error {
		extra, jw, err := a.openOutputs(w)
		if err != nil {
			return err
		}
		if res, err = m.run(a, extra); err != nil {
			jw.Stop() // before atomicfile removes the file
			return err
		}
		if err := jw.Flush(); err != nil {
			return err
		}
		if m.beside != nil {
			return m.beside(a)
		}
		return nil
	})
	return res, err
}

// openOutputs opens the outputs that apply, in order: their listeners
// and the records' writer (nil without records).
func (a *synthAsm) openOutputs(w io.Writer) (engine.Tee, *metrics.JobsCSV, error) {
	var t engine.Tee
	var jw *metrics.JobsCSV
	for _, o := range synthOutputs {
		if !o.applies(a) {
			continue
		}
		l, err := o.open(a, w)
		if err != nil {
			return nil, nil, err
		}
		if x, ok := l.(*metrics.JobsCSV); ok {
			jw = x
		}
		t = append(t, flatten(l)...)
	}
	return t, jw, nil
}
