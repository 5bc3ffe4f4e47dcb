package policyfuzz

import (
	"encoding/csv"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/experiment"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy/option"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/scenario"
	"github.com/schedlab/schedlab/validate"
)

// The environment variables that steer the test (docs/testing.md).
const (
	envSeed = "SCHEDLAB_POLICYFUZZ_SEED" // the master seed (default 1)
	envRuns = "SCHEDLAB_POLICYFUZZ_RUNS" // runs per policy (default 30, 8 with -short)
	envRun  = "SCHEDLAB_POLICYFUZZ_RUN"  // one run's seed: run only that one (from a failure's message)
)

// maxDraws bounds the draws per run that the policy's Check may refuse
// before the run is given up (counted as refused).
const maxDraws = 20

func envUint(t *testing.T, name string, def uint64) uint64 {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	v, err := strconv.ParseUint(s, 0, 64)
	if err != nil {
		t.Fatalf("%s=%q: %v", name, s, err)
	}
	return v
}

// runSeed is run i's seed: it depends on the master seed, the policy and
// i only, so a policy added or a run count changed moves no other run.
func runSeed(master uint64, model, kind, name string, i int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%s/%s/%s/%d", master, model, kind, name, i)
	return h.Sum64()
}

// TestEveryPolicy runs every declared policy of every implemented model
// on random small workloads with random option values and checks every
// schedule (the package documentation says what).
func TestEveryPolicy(t *testing.T) {
	master := envUint(t, envSeed, 1)
	runs := int(envUint(t, envRuns, 30))
	if testing.Short() && os.Getenv(envRuns) == "" {
		runs = 8
	}
	only := envUint(t, envRun, 0)
	models := 0
	for _, m := range registry.Models() {
		if !m.Implemented {
			continue
		}
		models++
		for _, k := range m.Kinds {
			for _, p := range registry.Policies(m.Name, k.Name) {
				t.Run(m.Name+"/"+k.Name+"/"+p.Name, func(t *testing.T) {
					t.Parallel()
					made, refused, kept := 0, 0, 0
					for i := range runs {
						seed := runSeed(master, m.Name, k.Name, p.Name, i)
						if only != 0 && seed != only {
							continue
						}
						ok, resv, err := runOne(t, m, k, p, seed)
						if err != nil {
							t.Fatalf("%s %s %s, run seed %#x: %v\nreproduce: %s=%#x go test -run 'TestEveryPolicy/%s/%s/%s$' ./internal/policyfuzz/",
								m.Name, k.Name, p.Name, seed, err, envRun, seed, m.Name, k.Name, regexpQuote(p.Name))
						}
						if resv {
							kept++
						}
						if ok {
							made++
						} else {
							refused++
						}
					}
					if only != 0 && made+refused == 0 {
						t.Logf("run seed %#x is not one of this policy's %d runs (set %s as it was for the failure)", only, runs, envRuns)
						return
					}
					t.Logf("%s %s %s: %d runs checked (%d of them for reservations kept), %d given up after %d draws refused by the policy's Check",
						m.Name, k.Name, p.Name, made, kept, refused, maxDraws)
				})
			}
		}
	}
	if models < 4 {
		t.Errorf("only %d implemented models in the registry", models)
	}
}

func regexpQuote(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\.+*?()|[]{}^$`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// runOne makes one run of policy p (of kind k of model m) from seed:
// ran is false when every draw of options was refused by the policy's
// Check; resv says whether the run's reservations were checked.
func runOne(t *testing.T, m registry.Model, k registry.Kind, p registry.Entry, seed uint64) (ran, resv bool, err error) {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	var given map[string]string
	drew := false
	for range maxDraws {
		given = drawOptions(r, p.Options())
		if _, err := p.Check(given); err == nil {
			drew = true
			break
		}
	}
	if !drew {
		return false, false, nil
	}
	switch m.Name {
	case registry.ModelCluster:
		resv, err := runCluster(t, r, p, given)
		return true, resv, err
	case registry.ModelGrid, registry.ModelGang, registry.ModelHetero:
		return true, false, runScenario(r, m, k, p, given)
	}
	return false, false, fmt.Errorf("model %s: the test has no workload for it", m.Name)
}

// drawOptions draws option texts for decls: each option one time in four
// left at its default (absent), else a value in its range or one of its
// values; text options always their default; an option read only when
// another has some values (On, When) only then.
func drawOptions(r *rand.Rand, decls []option.Decl) map[string]string {
	out := map[string]string{}
	value := func(name string) string {
		if v, ok := out[name]; ok {
			return v
		}
		for _, d := range decls {
			if d.Name == name {
				return d.Default
			}
		}
		return ""
	}
	// options read under another's value come after those they read
	sorted := slices.Clone(decls)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].On == "" && sorted[j].On != "" })
	for _, d := range sorted {
		if d.On != "" && !slices.Contains(d.When, value(d.On)) {
			continue
		}
		if d.Type == option.Text || !d.Required() && r.IntN(4) == 0 {
			continue
		}
		out[d.Name] = drawValue(r, d)
	}
	return out
}

// drawValue draws one value of d. Numbers are drawn uniformly in the
// range, cut to a span of max(10, 2 x |default|) above the lower bound
// (an unbounded or huge range: iteration budgets, windows), so that
// every run stays small.
func drawValue(r *rand.Rand, d option.Decl) string {
	switch d.Type {
	case option.Bool:
		return strconv.FormatBool(r.IntN(2) == 0)
	case option.Enum:
		return d.Values[r.IntN(len(d.Values))]
	}
	def, err := strconv.ParseFloat(strings.TrimSuffix(d.Default, "%"), 64)
	if err != nil {
		def = 0
	}
	span := max(10, 2*math.Abs(def))
	lo, hi := d.Range.Min, d.Range.Max
	if math.IsInf(lo, -1) {
		lo = def - span
	}
	hi = min(hi, lo+span)
	if d.Type == option.Int {
		ilo, ihi := int64(math.Ceil(lo)), int64(math.Floor(hi))
		if d.Range.MinOpen && float64(ilo) == d.Range.Min {
			ilo++
		}
		ihi = max(ihi, ilo)
		return strconv.FormatInt(ilo+r.Int64N(ihi-ilo+1), 10)
	}
	for range 100 {
		x := lo + r.Float64()*(hi-lo)
		if r.IntN(8) == 0 { // the bounds themselves, now and then
			x = []float64{lo, hi}[r.IntN(2)]
		}
		if d.Range.Contains(x) {
			return strconv.FormatFloat(x, 'g', -1, 64)
		}
	}
	return d.Default // a range this test cannot draw from: the policy's Check says
}

// ----- the cluster model: a generated SWF trace through RunTrace -----

type swfJob struct {
	submit, runtime, request float64
	procs, user, group       int
	memKB                    int
}

// clusterTrace draws a machine size and a trace of 30 to 300 jobs: sizes
// from 1 to the machine (small ones more often, powers of two often),
// runtimes from 1 s to about 1.4 h (now and then 0), requests mostly
// above the runtime and one time in seven below it (the job is killed
// at it), submissions spread so that the offered load is 0.6 to 1.5.
func clusterTrace(r *rand.Rand) (procs int, jobs []swfJob) {
	procs = []int{8, 16, 32, 64}[r.IntN(4)]
	n := 30 + r.IntN(271)
	work := 0.0
	for range n {
		var c int
		if r.IntN(2) == 0 {
			c = 1 << r.IntN(bitsLen(procs)+1)
		} else {
			u := r.Float64()
			c = 1 + int(u*u*float64(procs))
		}
		c = min(max(c, 1), procs)
		rt := math.Round(math.Exp(r.Float64() * math.Log(5000)))
		if r.IntN(50) == 0 {
			rt = 0
		}
		req := math.Ceil(rt * (1 + 3*r.Float64()))
		if r.IntN(7) == 0 {
			req = math.Max(1, math.Floor(rt*r.Float64()))
		}
		mem := 100 + r.IntN(4_000_000)
		if r.IntN(10) == 0 {
			mem = -1
		}
		jobs = append(jobs, swfJob{runtime: rt, request: req, procs: c, user: 1 + r.IntN(8), group: 1 + r.IntN(3), memKB: mem})
		work += rt * float64(c)
	}
	span := work / (float64(procs) * (0.6 + 0.9*r.Float64()))
	for i := range jobs {
		jobs[i].submit = math.Floor(r.Float64() * span)
	}
	sort.SliceStable(jobs, func(i, j int) bool { return jobs[i].submit < jobs[j].submit })
	return procs, jobs
}

func bitsLen(n int) int {
	b := 0
	for n > 1 {
		n >>= 1
		b++
	}
	return b
}

func writeSWF(path string, procs int, jobs []swfJob) error {
	var b strings.Builder
	fmt.Fprintf(&b, "; MaxProcs: %d\n; MaxNodes: %d\n", procs, procs)
	for i, j := range jobs {
		// id submit wait run alloc cpu mem req-procs req-time req-mem
		// status user group app queue partition preceding think
		// A recorded wait (field 3) for the recorded policy; no other
		// policy reads it.
		fmt.Fprintf(&b, "%d %g %d %g %d -1 %d %d %g %d 1 %d %d -1 %d %d -1 -1\n",
			i+1, j.submit, i*37%200, j.runtime, j.procs, j.memKB, j.procs, j.request, j.memKB, j.user, j.group, 1+i%2, 1+i%3)
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// runCluster runs p on a generated trace as 'schedlab run --check
// --planned' does, then checks the reservations kept.
func runCluster(t *testing.T, r *rand.Rand, p registry.Entry, given map[string]string) (resv bool, err error) {
	procs, jobs := clusterTrace(r)
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.swf")
	if err := writeSWF(trace, procs, jobs); err != nil {
		return false, err
	}
	cont := r.IntN(5) == 0
	cfg := experiment.RunSpec{Workload: experiment.WorkloadSpec{Trace: trace}, Platform: experiment.PlatformSpec{Procs: procs, Continue: cont}, Policy: experiment.PolicySpec{Name: p.Name, Options: given}, Outputs: experiment.OutputSpec{Check: true, Dir: filepath.Join(dir, "out"), Planned: true}}
	if p.Traits.NodesOnly {
		// slurm: on nodes of 4 cores; its reservations are remade at
		// passes bf_interval apart, beyond bf_window not made: no promise
		// of a start to check
		cfg.Platform.Procs, cfg.Platform.Nodes = 0, []string{fmt.Sprintf("n[1-%d]:cores=4", procs/4)}
		cfg.Outputs.Planned = false
	}
	describe := func() string {
		return fmt.Sprintf("options %v, %d jobs on %d CPUs, on_overrun continue %v", given, len(jobs), procs, cont)
	}
	_, err = cfg.Run()
	if err != nil && strings.Contains(err.Error(), "--planned records backfilling reservations") {
		// the policy holds no reservations: the run without planned.csv
		cfg.Outputs.Planned = false
		cfg.Outputs.Dir = filepath.Join(dir, "out2")
		_, err = cfg.Run()
	}
	if err != nil {
		return false, fmt.Errorf("%s: %w", describe(), err)
	}
	if !cfg.Outputs.Planned || cont {
		return false, nil
	}
	if o, ok := given["order"]; ok && o != "fcfs" {
		return false, nil // another order may put a newcomer first: reservations may move later
	}
	if err := reservationsKept(cfg.Outputs.Dir); err != nil {
		return true, fmt.Errorf("%s: %w", describe(), err)
	}
	return true, nil
}

// reservationsKept checks that no job of the run in dir started after
// the first start it was planned for (planned.csv): the promise of
// backfilling with reservations when estimates bound the runtimes (jobs
// are killed at their request) and the queue is in submit order.
func reservationsKept(dir string) error {
	first := map[int64]float64{}
	f, err := os.Open(filepath.Join(dir, "planned.csv"))
	if err != nil {
		return err
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		return err
	}
	for _, row := range rows[1:] {
		id, err1 := strconv.ParseInt(row[0], 10, 64)
		at, err2 := strconv.ParseFloat(row[2], 64)
		if err := errors.Join(err1, err2); err != nil {
			return fmt.Errorf("planned.csv: %w", err)
		}
		if _, ok := first[id]; !ok {
			first[id] = at
		}
	}
	jf, err := os.Open(filepath.Join(dir, "jobs.csv"))
	if err != nil {
		return err
	}
	recs, err := validate.ReadJobsCSV(jf, "jobs.csv")
	jf.Close()
	if err != nil {
		return err
	}
	var late []string
	for _, rec := range recs {
		if at, ok := first[rec.ID]; ok && rec.Start > at+validate.Tolerance*math.Max(1, math.Abs(at)) {
			late = append(late, fmt.Sprintf("job %d started at %g, after its first planned start %g", rec.ID, rec.Start, at))
		}
	}
	if len(late) > 0 {
		if len(late) > 5 {
			late = append(late[:5], fmt.Sprintf("and %d more", len(late)-5))
		}
		return fmt.Errorf("reservations delayed: %s", strings.Join(late, "; "))
	}
	return nil
}

// ----- grid, gang, hetero: a scenario file through RunReplication -----

// recorder keeps every job submitted and every job ended.
type recorder struct {
	engine.NopListener
	submitted map[job.ID]actual.Job
	ends      []engine.Record // with Job pointing at a copy
	problems  []string
}

func (l *recorder) JobSubmitted(now float64, j *actual.Job) {
	if _, ok := l.submitted[j.ID]; ok {
		l.problems = append(l.problems, fmt.Sprintf("job %d submitted twice", j.ID))
	}
	l.submitted[j.ID] = *j
}

func (l *recorder) end(now float64, x *engine.Record) {
	c := *x
	j := *x.Job
	c.Job = &j
	c.CPUs = slices.Clone(x.CPUs)
	c.Sites = slices.Clone(x.Sites)
	l.ends = append(l.ends, c)
}

func (l *recorder) JobFinished(now float64, x *engine.Record) { l.end(now, x) }
func (l *recorder) JobKilled(now float64, x *engine.Record)   { l.end(now, x) }

// scenarioText writes a scenario of model m for policy p (kind k) with
// option texts given, on a random small platform and workload; sites
// are the platform's machines.
func scenarioText(r *rand.Rand, m registry.Model, k registry.Kind, p registry.Entry, given map[string]string) (text string, sites []platform.Machine, completed int, err error) {
	sections := map[string][]string{}
	put := func(sec, kv string) { sections[sec] = append(sections[sec], kv) }
	var top []string
	switch m.Name {
	case registry.ModelGrid:
		n := 2 + r.IntN(3)
		var ps []string
		total := 0
		for range n {
			c := 2 + r.IntN(7)
			total += c
			sites = append(sites, platform.Machine{CPUs: c})
			ps = append(ps, fmt.Sprintf("{procs: %d}", c))
		}
		put("platform", "sites: ["+strings.Join(ps, ", ")+"]")
		put("workload", fmt.Sprintf("mean_interarrival: %g", 1/(float64(total)*(0.4+0.6*r.Float64()))))
		put("workload", "mean_service: 1")
		completed = 50 + r.IntN(351)
		// the other kind's policy, at random
		other := registry.KindLocal
		if k.Name == registry.KindLocal {
			other = registry.KindGrid
		}
		op := registry.Policies(m.Name, other)
		o := op[r.IntN(len(op))]
		var og map[string]string
		for range maxDraws {
			og = drawOptions(r, o.Options())
			if _, err := o.Check(og); err == nil {
				break
			}
			og = nil
		}
		if og == nil {
			return "", nil, 0, fmt.Errorf("%s %s: every draw of its options refused", other, o.Name)
		}
		for name, v := range og {
			given[name] = v
		}
		put("policy", "grid: "+map[bool]string{true: p.Name, false: o.Name}[k.Name == registry.KindGrid])
		put("policy", "local: "+map[bool]string{true: p.Name, false: o.Name}[k.Name == registry.KindLocal])
	case registry.ModelGang:
		c := 8 + r.IntN(9)
		sites = []platform.Machine{{CPUs: c}, {CPUs: c}}
		put("platform", "sites: 2")
		put("platform", fmt.Sprintf("procs_per_site: %d", c))
		gmin := 2 + r.IntN(3)
		gmax := gmin + r.IntN(c-gmin+1)
		meanSize := float64(gmin+gmax) / 2
		put("workload", fmt.Sprintf("mean_interarrival: %g", 1/(float64(c)*(0.3+0.4*r.Float64()))))
		put("workload", "mean_service: 1")
		put("workload", fmt.Sprintf("gang_mean_interarrival: %g", meanSize/(float64(2*c)*(0.1+0.2*r.Float64()))))
		if r.IntN(3) == 0 && (c >= 16 || p.Traits.SplitsGangs) { // gangs of 16 must fit
			put("workload", "gang_sizes: pow2")
		} else {
			put("workload", fmt.Sprintf("gang_min: %d", gmin))
			put("workload", fmt.Sprintf("gang_max: %d", gmax))
		}
		put("workload", "gang_times: "+[]string{"independent", "shared"}[r.IntN(2)])
		put("workload", fmt.Sprintf("estimate_error: %g", []float64{0, 0.1, 0.3, r.Float64()}[r.IntN(4)]))
		completed = 100 + r.IntN(301)
		put("policy", "approach: "+p.Name)
	case registry.ModelHetero:
		n := 2 + r.IntN(5)
		var ps []string
		most, cpus := 0, 0
		speed := 0.0
		for range n {
			c := 1 + r.IntN(16)
			s := 200 + r.IntN(401)
			sites = append(sites, platform.Machine{CPUs: c, Speed: float64(s)})
			ps = append(ps, fmt.Sprintf("{procs: %d, speed: %d}", c, s))
			most, cpus, speed = max(most, c), cpus+c, speed+float64(s*c)
		}
		put("platform", "sites: ["+strings.Join(ps, ", ")+"]")
		jmax := 1 + r.IntN(min(8, most))
		emin := 100 + r.IntN(1000)
		emax := emin + r.IntN(3000)
		// offered load 0.5 to 1.3 of the CPUs at their mean speed (BM_est
		// 400 on average)
		work := float64(1+jmax) / 2 * float64(emin+emax) / 2 * 400 / (speed / float64(cpus))
		put("workload", fmt.Sprintf("mean_interarrival: %g", work/(float64(cpus)*(0.5+0.8*r.Float64()))))
		put("workload", fmt.Sprintf("cpus_max: %d", jmax))
		put("workload", fmt.Sprintf("estimated_min: %d", emin))
		put("workload", fmt.Sprintf("estimated_max: %d", emax))
		put("workload", fmt.Sprintf("deadline_fraction: %g", r.Float64()))
		put("workload", "deadline: "+[]string{"factor", "fastest", "alea"}[r.IntN(3)])
		put("workload", "bm_est: "+[]string{"min", "uniform", "max", "random-machine"}[r.IntN(4)])
		completed = 30 + r.IntN(171)
		put("policy", "queue: "+p.Name)
	default:
		return "", nil, 0, fmt.Errorf("model %s: the test has no workload for it", m.Name)
	}
	top = append(top, "name: policyfuzz", "model: "+m.Name, fmt.Sprintf("seed: %d", 1+r.IntN(1<<30)),
		fmt.Sprintf("stop: {completed: %d}", completed))
	// the options at their keys (policy.NAME, or workload.NAME for a
	// model setting a policy declares)
	keys := map[string]string{}
	for _, e := range registry.Policies(m.Name, k.Name) {
		for _, d := range e.Options() {
			keys[d.Name] = d.Key
		}
	}
	for _, kk := range m.Kinds {
		for _, e := range registry.Policies(m.Name, kk.Name) {
			for _, d := range e.Options() {
				keys[d.Name] = d.Key
			}
		}
	}
	names := make([]string, 0, len(given))
	for name := range given {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		key := keys[name]
		sec, field, ok := strings.Cut(key, ".")
		if !ok {
			return "", nil, 0, fmt.Errorf("option %s: key %q", name, key)
		}
		put(sec, field+": "+given[name]) // option texts are YAML scalars as written
	}
	var b strings.Builder
	for _, l := range top {
		b.WriteString(l + "\n")
	}
	for _, sec := range []string{"platform", "workload", "policy"} {
		b.WriteString(sec + ":\n")
		for _, kv := range sections[sec] {
			b.WriteString("  " + kv + "\n")
		}
	}
	return b.String(), sites, completed, nil
}

// runScenario runs one replication of a random scenario of p through
// the sweep's replication core and checks its schedule.
func runScenario(r *rand.Rand, m registry.Model, k registry.Kind, p registry.Entry, given map[string]string) error {
	text, sites, completed, err := scenarioText(r, m, k, p, given)
	if err != nil {
		return err
	}
	pts, err := scenario.Parse("policyfuzz.yaml", []byte(text))
	if err != nil {
		return fmt.Errorf("scenario refused: %w\n%s", err, text)
	}
	if len(pts) != 1 {
		return fmt.Errorf("scenario has %d points, want 1\n%s", len(pts), text)
	}
	rec := &recorder{submitted: map[job.ID]actual.Job{}}
	if _, err := experiment.RunReplication(pts[0].Scenario, 0, "", rec); err != nil {
		return fmt.Errorf("run: %w\n%s", err, text)
	}
	if err := checkRecords(m, pts[0].Scenario, sites, completed, rec); err != nil {
		return fmt.Errorf("%w\n%s", err, text)
	}
	return nil
}

// checkRecords checks a multi-site run's records: every job ended once
// after it was submitted and started no earlier than its submission,
// enough jobs ended, and the schedule passes validate.Check (capacity,
// CPU ids, none held twice) where job-level records describe it: every
// grid and hetero run (one machine per job, and on the hetero model the
// duration its machine's speed gives), gang runs whose tasks share one
// service time (with independent task times a task's CPU is freed
// before its gang ends, which a job-level record cannot say).
func checkRecords(m registry.Model, s scenario.Scenario, sites []platform.Machine, completed int, rec *recorder) error {
	probs := slices.Clone(rec.problems)
	seen := map[job.ID]bool{}
	total := 0
	sizes := make([]int, len(sites))
	for i, st := range sites {
		sizes[i] = st.CPUs
		total += st.CPUs
	}
	var in []validate.Input
	var out []validate.Rec
	for _, x := range rec.ends {
		j := x.Job
		sub, ok := rec.submitted[j.ID]
		switch {
		case !ok:
			probs = append(probs, fmt.Sprintf("job %d ended, never submitted", j.ID))
		case seen[j.ID]:
			probs = append(probs, fmt.Sprintf("job %d ended twice", j.ID))
		case x.Start < sub.Submit-validate.Tolerance*math.Max(1, sub.Submit):
			probs = append(probs, fmt.Sprintf("job %d started at %g before its submission at %g", j.ID, x.Start, sub.Submit))
		case x.End < x.Start:
			probs = append(probs, fmt.Sprintf("job %d ended at %g before its start at %g", j.ID, x.End, x.Start))
		case x.State != job.Completed:
			probs = append(probs, fmt.Sprintf("job %d ended %v", j.ID, x.State))
		}
		seen[j.ID] = true
		dur := x.End - x.Start
		switch m.Name {
		case registry.ModelGrid:
			dur = j.Runtime
		case registry.ModelHetero:
			if x.Machine < 0 || x.Machine >= len(sites) {
				probs = append(probs, fmt.Sprintf("job %d ran on machine %d of %d", j.ID, x.Machine, len(sites)))
			} else {
				if sites[x.Machine].CPUs < j.Procs {
					probs = append(probs, fmt.Sprintf("job %d of %d CPUs ran on machine %d of %d", j.ID, j.Procs, x.Machine, sites[x.Machine].CPUs))
				}
				dur = sites[x.Machine].Duration(j.Runtime, j.BMEst)
			}
		}
		in = append(in, validate.Input{ID: int64(j.ID), Submit: sub.Submit, Runtime: dur, Request: -1, Procs: j.Procs})
		out = append(out, validate.Rec{ID: int64(j.ID), Submit: sub.Submit, Start: x.Start, Finish: x.End, Procs: j.Procs,
			State: validate.StateCompleted, CPUs: cpuIntervals(x.CPUs)})
	}
	if len(rec.ends) < completed {
		probs = append(probs, fmt.Sprintf("%d jobs ended, the run stops at %d completed", len(rec.ends), completed))
	}
	if m.Name == registry.ModelHetero && len(seen) != len(rec.submitted) {
		probs = append(probs, fmt.Sprintf("%d jobs submitted, %d ended (the hetero model runs every job to its end)", len(rec.submitted), len(seen)))
	}
	if len(probs) > 0 {
		if len(probs) > 10 {
			probs = append(probs[:10], fmt.Sprintf("and %d more", len(probs)-10))
		}
		return errors.New(strings.Join(probs, "\n"))
	}
	if m.Name == registry.ModelGang && s.Workload.GangTimes != "shared" {
		return nil
	}
	return validate.Check(in, out, validate.Options{Procs: total, Machines: sizes, OneMachine: m.Name != registry.ModelGang})
}

// cpuIntervals turns the engine's CPU runs (lo, hi pairs) into the
// checker's intervals.
func cpuIntervals(r platform.Runs) []validate.Interval {
	out := make([]validate.Interval, 0, len(r)/2)
	for i := 0; i+1 < len(r); i += 2 {
		out = append(out, validate.Interval{Lo: int(r[i]), Hi: int(r[i+1])})
	}
	return out
}
