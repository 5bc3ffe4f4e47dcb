package synth

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/schedlab/schedlab/internal/enum"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/rng"
)

// Stream purposes of the heterogeneous model (klusacek-2008).
const (
	purposeMachines  = "hetero-machines"
	purposeJobs      = "hetero-jobs"
	purposeBMEst     = "hetero-bm-est"
	purposeDeadlines = "hetero-deadlines"
)

// MaxHeteroJobs bounds the jobs of one heterogeneous workload (the
// generator holds nothing per job, but a run's memory and time grow with
// the queue it builds).
const MaxHeteroJobs = 10_000_000

// MachineOptions describe the machine generator of klusacek-2008: N
// machines with CPUs uniform on CPUsMin..CPUsMax and speed BM uniform on
// SpeedMin..SpeedMax (integers).
type MachineOptions struct {
	N                  int
	CPUsMin, CPUsMax   int
	SpeedMin, SpeedMax int
}

// PaperMachines are the paper's machines: 150, 1..16 CPUs, speeds 200..600.
func PaperMachines() MachineOptions {
	return MachineOptions{N: 150, CPUsMin: 1, CPUsMax: 16, SpeedMin: 200, SpeedMax: 600}
}

func (o MachineOptions) check() error {
	switch {
	case o.N < 1 || o.N > platform.MaxMachines:
		return fmt.Errorf("synth: %d machines (want 1..%d)", o.N, platform.MaxMachines)
	case o.CPUsMin < 1 || o.CPUsMax < o.CPUsMin || o.CPUsMax > platform.MaxCPUs/o.N:
		return fmt.Errorf("synth: machine CPUs %d..%d (want 1 <= min <= max, at most %d CPUs in all)", o.CPUsMin, o.CPUsMax, platform.MaxCPUs)
	case o.SpeedMin < 1 || o.SpeedMax < o.SpeedMin:
		return fmt.Errorf("synth: machine speeds %d..%d (want 1 <= min <= max)", o.SpeedMin, o.SpeedMax)
	}
	return nil
}

// Machines draws the platform of replication rep of seed ("20 repetitions
// with different job attributes values": each replication draws its own
// machines and jobs).
func Machines(seed uint64, rep int, o MachineOptions) (platform.Platform, error) {
	if err := o.check(); err != nil {
		return platform.Platform{}, err
	}
	r := rng.New(seed, rep, purposeMachines)
	ms := make([]platform.Machine, o.N)
	for i := range ms {
		ms[i] = platform.Machine{CPUs: uniformInt(r, o.CPUsMin, o.CPUsMax), Speed: float64(uniformInt(r, o.SpeedMin, o.SpeedMax))}
	}
	return platform.New(ms)
}

func uniformInt(r *rand.Rand, lo, hi int) int { return lo + r.IntN(hi-lo+1) }

// BMEstRule says at which machine speed a job's Estimated holds (the paper
// gives BM_est per job but not its distribution).
type BMEstRule uint8

const (
	// BMEstUniform: an integer uniform on the machine speed range (default).
	BMEstUniform BMEstRule = iota
	// BMEstMin: the slowest speed of the range.
	BMEstMin
	// BMEstMax: the fastest speed of the range.
	BMEstMax
	// BMEstRandomMachine: the speed of a random machine that can hold the job.
	BMEstRandomMachine
)

var bmEstNames = [...]string{"uniform", "min", "max", "random-machine"}

func (b BMEstRule) String() string {
	if int(b) < len(bmEstNames) {
		return bmEstNames[b]
	}
	return fmt.Sprintf("BMEstRule(%d)", b)
}

// BMEstRules lists the rules' names, the default first.
func BMEstRules() []string { return append([]string(nil), bmEstNames[:]...) }

// ParseBMEst reads a rule name.
func ParseBMEst(s string) (BMEstRule, error) {
	return enum.Parse("BM_est rule", s, bmEstNames[:], indices[BMEstRule](len(bmEstNames)))
}

// DeadlineRule says how a job's deadline is drawn (the paper's generator
// is not public).
type DeadlineRule uint8

const (
	// DeadlineFactor: submit + s x Estimated, s uniform on [SMin, SMax]
	// (default, s in [2, 4]).
	DeadlineFactor DeadlineRule = iota
	// DeadlineFastest: submit + s x the job's runtime on the fastest
	// machine that can hold it.
	DeadlineFastest
	// DeadlineAlea: submit + 2 x Estimated (the convention of the
	// authors' later simulator for traces).
	DeadlineAlea
)

var deadlineNames = [...]string{"factor", "fastest", "alea"}

func (d DeadlineRule) String() string {
	if int(d) < len(deadlineNames) {
		return deadlineNames[d]
	}
	return fmt.Sprintf("DeadlineRule(%d)", d)
}

// DeadlineRules lists the rules' names, the default first.
func DeadlineRules() []string { return append([]string(nil), deadlineNames[:]...) }

// ParseDeadline reads a rule name.
func ParseDeadline(s string) (DeadlineRule, error) {
	return enum.Parse("deadline rule", s, deadlineNames[:], indices[DeadlineRule](len(deadlineNames)))
}

// indices are the values 0..n-1 of a rule type named by a list.
func indices[T ~uint8](n int) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = T(i)
	}
	return out
}

// HeteroOptions describe the job generator of klusacek-2008.
type HeteroOptions struct {
	Jobs             int     // number of jobs (3000)
	MeanInterarrival float64 // exponential inter-arrival times
	CPUsMin, CPUsMax int     // Req uniform (1..8)
	EstMin, EstMax   int     // Estimated uniform, integer seconds (500..3000)
	// DeadlineFraction of the jobs have a deadline (0.7).
	DeadlineFraction float64
	Deadline         DeadlineRule
	SMin, SMax       float64 // the deadline factor's range ([2, 4])
	BMEst            BMEstRule
	// BMMin, BMMax: the speed range of BM_est (200..600).
	BMMin, BMMax int
}

// PaperJobs are the paper's jobs at mean inter-arrival ia, with our
// defaults for what it does not say.
func PaperJobs(ia float64) HeteroOptions {
	return HeteroOptions{Jobs: 3000, MeanInterarrival: ia, CPUsMin: 1, CPUsMax: 8, EstMin: 500, EstMax: 3000,
		DeadlineFraction: 0.7, Deadline: DeadlineFactor, SMin: 2, SMax: 4, BMEst: BMEstUniform, BMMin: 200, BMMax: 600}
}

func (o HeteroOptions) check() error {
	var probs []string
	if o.Jobs < 1 || o.Jobs > MaxHeteroJobs {
		probs = append(probs, fmt.Sprintf("%d jobs (want 1..%d)", o.Jobs, MaxHeteroJobs))
	}
	if !(o.MeanInterarrival > 0) || math.IsInf(o.MeanInterarrival, 1) {
		probs = append(probs, fmt.Sprintf("mean inter-arrival %g (want > 0)", o.MeanInterarrival))
	}
	if o.CPUsMin < 1 || o.CPUsMax < o.CPUsMin || o.CPUsMax > platform.MaxCPUs {
		probs = append(probs, fmt.Sprintf("job CPUs %d..%d (want 1 <= min <= max)", o.CPUsMin, o.CPUsMax))
	}
	if o.EstMin < 0 || o.EstMax < o.EstMin {
		probs = append(probs, fmt.Sprintf("Estimated %d..%d (want 0 <= min <= max)", o.EstMin, o.EstMax))
	}
	if !(o.DeadlineFraction >= 0 && o.DeadlineFraction <= 1) {
		probs = append(probs, fmt.Sprintf("deadline fraction %g (want 0..1)", o.DeadlineFraction))
	}
	if !(o.SMin > 0) || !(o.SMax >= o.SMin) || math.IsInf(o.SMax, 1) {
		probs = append(probs, fmt.Sprintf("deadline factor %g..%g (want 0 < min <= max)", o.SMin, o.SMax))
	}
	if o.BMMin < 1 || o.BMMax < o.BMMin {
		probs = append(probs, fmt.Sprintf("BM_est range %d..%d (want 1 <= min <= max)", o.BMMin, o.BMMax))
	}
	if int(o.BMEst) >= len(bmEstNames) || int(o.Deadline) >= len(deadlineNames) {
		probs = append(probs, "unknown BM_est or deadline rule")
	}
	if len(probs) > 0 {
		return fmt.Errorf("synth: hetero workload: %s", strings.Join(probs, "; "))
	}
	return nil
}

// Hetero is the job stream of klusacek-2008 on a platform: Req, Estimated,
// BM_est and deadlines drawn per job, exponential inter-arrival times.
// Runtimes are exact (estimate = actual), as in the paper. Every draw
// purpose has its own stream, so the options that change one attribute
// leave the others as they were (common random numbers).
type Hetero struct {
	o         HeteroOptions
	p         platform.Platform
	jobs, bm  *rand.Rand
	dl        *rand.Rand
	n         int
	t         float64
	suitable  []int // scratch: machines that can hold the job
	maxSpeeds []float64
}

// NewHetero returns the stream of replication rep of seed on platform p.
// A job larger than every machine is still generated (the model rejects
// it with a clear error): draw CPUs within the largest machine.
func NewHetero(seed uint64, rep int, o HeteroOptions, p platform.Platform) (*Hetero, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	h := &Hetero{o: o, p: p, jobs: rng.New(seed, rep, purposeJobs), bm: rng.New(seed, rep, purposeBMEst), dl: rng.New(seed, rep, purposeDeadlines)}
	// maxSpeeds[k] = the fastest machine with at least k CPUs (0: none).
	top := 0
	for m := 0; m < p.Machines(); m++ {
		top = max(top, p.Machine(m).CPUs)
	}
	h.maxSpeeds = make([]float64, min(top, o.CPUsMax)+1)
	for m := 0; m < p.Machines(); m++ {
		mc := p.Machine(m)
		for k := 1; k <= min(mc.CPUs, len(h.maxSpeeds)-1); k++ {
			h.maxSpeeds[k] = max(h.maxSpeeds[k], mc.BM())
		}
	}
	return h, nil
}

// Next returns the next job, io.EOF after the last.
func (h *Hetero) Next() (actual.Job, error) {
	o := h.o
	if h.n >= o.Jobs {
		return actual.Job{}, io.EOF
	}
	h.n++
	h.t += float64(h.jobs.ExpFloat64() * o.MeanInterarrival)
	req := uniformInt(h.jobs, o.CPUsMin, o.CPUsMax)
	est := float64(uniformInt(h.jobs, o.EstMin, o.EstMax))
	j := actual.Job{ID: job.ID(h.n), Submit: h.t, Procs: req, Runtime: est, Estimate: est, Request: -1, User: -1, Group: -1, Partition: -1}
	// BM_est: its own stream, one draw per job whatever the rule.
	u := h.bm.Float64()
	switch o.BMEst {
	case BMEstUniform:
		j.BMEst = float64(o.BMMin + int(u*float64(o.BMMax-o.BMMin+1)))
	case BMEstMin:
		j.BMEst = float64(o.BMMin)
	case BMEstMax:
		j.BMEst = float64(o.BMMax)
	case BMEstRandomMachine:
		h.suitable = h.suitable[:0]
		for m := 0; m < h.p.Machines(); m++ {
			if h.p.Machine(m).CPUs >= req {
				h.suitable = append(h.suitable, m)
			}
		}
		if len(h.suitable) == 0 {
			j.BMEst = float64(o.BMMin)
		} else {
			j.BMEst = h.p.Machine(h.suitable[int(u*float64(len(h.suitable)))]).BM()
		}
	}
	// Deadline: its own stream, two draws per job whatever the rule.
	has, s := h.dl.Float64() < o.DeadlineFraction, o.SMin+h.dl.Float64()*(o.SMax-o.SMin)
	if has {
		switch o.Deadline {
		case DeadlineFactor:
			j.Deadline = j.Submit + s*est
		case DeadlineFastest:
			fast := 0.0
			if req < len(h.maxSpeeds) {
				fast = h.maxSpeeds[req]
			}
			if fast == 0 {
				fast = j.BMEst
			}
			j.Deadline = j.Submit + s*est*j.BMEst/fast
		case DeadlineAlea:
			j.Deadline = j.Submit + 2*est
		}
	}
	return j, nil
}

// OfferedLoad is the work the jobs bring per unit of time over the
// platform's capacity: E[Req x Estimated x BM_est] / (mean inter-arrival x
// sum of R_m x BM_m), from the options' distributions (BM_est of the
// random-machine rule estimated by the mean speed of machines that can
// hold a job of each size, weighting sizes uniformly).
func OfferedLoad(o HeteroOptions, p platform.Platform) float64 {
	capacity := 0.0
	for m := 0; m < p.Machines(); m++ {
		capacity += float64(p.Machine(m).CPUs) * p.Machine(m).BM()
	}
	meanEst := float64(o.EstMin+o.EstMax) / 2
	work := 0.0 // E[Req x BM_est], averaged over Req uniform
	for req := o.CPUsMin; req <= o.CPUsMax; req++ {
		var bm float64
		switch o.BMEst {
		case BMEstUniform:
			bm = float64(o.BMMin+o.BMMax) / 2
		case BMEstMin:
			bm = float64(o.BMMin)
		case BMEstMax:
			bm = float64(o.BMMax)
		case BMEstRandomMachine:
			n, sum := 0, 0.0
			for m := 0; m < p.Machines(); m++ {
				if p.Machine(m).CPUs >= req {
					n++
					sum += p.Machine(m).BM()
				}
			}
			bm = float64(o.BMMin)
			if n > 0 {
				bm = sum / float64(n)
			}
		}
		work += float64(req) * bm
	}
	work /= float64(o.CPUsMax - o.CPUsMin + 1)
	return work * meanEst / (o.MeanInterarrival * capacity)
}
