package synth

import (
	"fmt"
	"io"
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/policy/option"
	"github.com/schedlab/schedlab/rng"
	"github.com/schedlab/schedlab/workload/model"
)

// The synthetic workload of the hafshejani-2012 reproduction
// (docs/papers/hafshejani2012.md): parallel jobs whose sizes are powers
// of two (2^U{log2 min..log2 max}) or uniform on min..max CPUs; runtimes
// exponential of mean HafshejaniRuntime seconds (whole seconds, at least
// 1); requests = runtime x (1 + U[0,2]) rounded up; Poisson arrivals
// (whole seconds) at the offered load asked for. Each quantity is drawn
// from its own stream (Seed, Rep, "hafshejani-arrivals", "-sizes",
// "-runtimes", "-requests"), job by job: the jobs are generated as the
// run asks for them, nothing is held.

// MaxHafshejaniJobs bounds the workload's jobs (stop.completed), as the
// Lublin model's: about a minute of generation.
const MaxHafshejaniJobs = 100_000_000

// HafshejaniRuntime is the mean runtime of the workload's jobs, seconds.
const HafshejaniRuntime = 600.0

// Hafshejani size rules.
const (
	SizesPow2    = "pow2"
	SizesUniform = "uniform"
)

// HafshejaniOptions configure the workload.
type HafshejaniOptions struct {
	Procs            int    // the machine's CPUs
	Sizes            string // SizesPow2 or SizesUniform
	SizeMin, SizeMax int    // CPUs; powers of two for SizesPow2
	Load             float64
	Jobs             int64
}

// Check says what is wrong with o, naming the scenario keys.
func (o HafshejaniOptions) Check() error {
	switch {
	case o.Procs < 1:
		return fmt.Errorf("workload.model hafshejani: %d CPUs (platform.procs), want at least 1", o.Procs)
	case o.Jobs < 1 || o.Jobs > MaxHafshejaniJobs:
		return fmt.Errorf("workload.model hafshejani: stop.completed %d, want 1..%d (synth.MaxHafshejaniJobs)", o.Jobs, MaxHafshejaniJobs)
	case o.SizeMin < 1 || o.SizeMin > o.SizeMax:
		return fmt.Errorf("workload.size_min %d, workload.size_max %d: want 1 <= size_min <= size_max", o.SizeMin, o.SizeMax)
	case o.SizeMax > o.Procs:
		return fmt.Errorf("workload.size_max %d: more than the machine's %d CPUs (platform.procs)", o.SizeMax, o.Procs)
	case !(o.Load > 0):
		return fmt.Errorf("workload.offered_load %g: want above 0", o.Load)
	}
	switch o.Sizes {
	case SizesPow2:
		if bits.OnesCount(uint(o.SizeMin)) != 1 || bits.OnesCount(uint(o.SizeMax)) != 1 {
			return fmt.Errorf("workload.sizes pow2: size_min %d and size_max %d must be powers of two", o.SizeMin, o.SizeMax)
		}
	case SizesUniform:
	default:
		return fmt.Errorf("workload.sizes %q: want %s or %s", o.Sizes, SizesPow2, SizesUniform)
	}
	return nil
}

// HafshejaniSource generates the workload's jobs one at a time.
type HafshejaniSource struct {
	o                   HafshejaniOptions
	arr, size, run, est *rand.Rand
	lo, n               int // pow2: exponents lo..lo+n-1; uniform: sizes lo..lo+n-1
	meanIA              float64
	t                   float64
	i                   int64
}

// NewHafshejani is the workload of o for seed and replication rep.
func NewHafshejani(seed uint64, rep int, o HafshejaniOptions) (*HafshejaniSource, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	s := &HafshejaniSource{o: o,
		arr: rng.New(seed, rep, "hafshejani-arrivals"), size: rng.New(seed, rep, "hafshejani-sizes"),
		run: rng.New(seed, rep, "hafshejani-runtimes"), est: rng.New(seed, rep, "hafshejani-requests")}
	var meanSize float64
	if o.Sizes == SizesPow2 {
		s.lo = bits.TrailingZeros(uint(o.SizeMin))
		s.n = bits.TrailingZeros(uint(o.SizeMax)) - s.lo + 1
		sum := 0.0
		for k := range s.n {
			sum += float64(int(1) << (s.lo + k))
		}
		meanSize = sum / float64(s.n)
	} else {
		s.lo, s.n = o.SizeMin, o.SizeMax-o.SizeMin+1
		meanSize = float64(o.SizeMin+o.SizeMax) / 2
	}
	s.meanIA = meanSize * HafshejaniRuntime / (float64(o.Procs) * o.Load)
	return s, nil
}

// Next returns the next job, io.EOF after the last.
func (s *HafshejaniSource) Next() (actual.Job, error) {
	if s.i == s.o.Jobs {
		return actual.Job{}, io.EOF
	}
	s.i++
	s.t += math.Round(s.arr.ExpFloat64() * s.meanIA)
	var p int
	if s.o.Sizes == SizesPow2 {
		p = 1 << (s.lo + s.size.IntN(s.n))
	} else {
		p = s.lo + s.size.IntN(s.n)
	}
	r := math.Max(1, math.Round(s.run.ExpFloat64()*HafshejaniRuntime))
	q := math.Ceil(r * (1 + 2*s.est.Float64()))
	return actual.Job{ID: job.ID(s.i), Submit: s.t, Procs: p, Runtime: r, Request: q, Estimate: q, User: -1, Group: -1}, nil
}

// DeclareHafshejani is the declaration of the workload for scenario
// files (workload.model: hafshejani): stop.completed jobs on
// platform.procs CPUs, the size rule and the offered load as options.
func DeclareHafshejani() model.Decl {
	return model.Decl{
		Name:    "hafshejani",
		Summary: "hafshejani-2012's synthetic workload: sizes 2^U or uniform, exponential runtimes of mean 600 s, requests up to 3x, Poisson arrivals at an offered load",
		Options: []option.Decl{
			{Name: "sizes", Key: "workload.sizes", Type: option.Enum, Values: []string{SizesPow2, SizesUniform}, Default: SizesPow2, KeyName: "sizes",
				Doc: "job sizes: powers of two 2^U{log2 size_min..log2 size_max} (pow2) or uniform on size_min..size_max CPUs (uniform)"},
			{Name: "size_min", Key: "workload.size_min", Type: option.Int, Range: option.Between(1, 1<<30), Default: "1", KeyName: "smin",
				Doc: "the smallest job, CPUs (a power of two with pow2)"},
			{Name: "size_max", Key: "workload.size_max", Type: option.Int, Range: option.Between(1, 1<<30), Default: "32", KeyName: "smax",
				Doc: "the largest job, CPUs (a power of two with pow2; at most platform.procs)"},
			{Name: "offered_load", Key: "workload.offered_load", Type: option.Float, Range: option.Between(1e-6, 1e6), Default: "0.9", KeyName: "oload",
				Doc: "the offered load: mean size x 600 s over platform.procs x the mean interarrival"},
		},
		New: buildHafshejani,
	}
}

func buildHafshejani(env model.Env, v option.Values) (model.Built, error) {
	o := HafshejaniOptions{Procs: env.Procs, Sizes: v.Text("sizes"), SizeMin: v.Int("size_min"), SizeMax: v.Int("size_max"),
		Load: v.Float("offered_load"), Jobs: env.Jobs}
	s, err := NewHafshejani(env.Seed, env.Rep, o)
	if err != nil {
		return model.Built{}, err
	}
	return model.Built{Source: s, Load: o.Load}, nil
}
