package synth

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/schedlab/schedlab/internal/enum"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/rng"
)

// The workload behind al-najjar-2019's Tables 2-9, reconstructed from the
// tables themselves (docs/papers/alnajjar2019.md): the published standard
// errors, estimate correlations and residual mean squares fix n = 10,000,
// the mean runtime 304.6 s (SD about 4,445 s), CPUs with mean 7.26 and SD
// 17.99 (log10: mean 0.4045, SD 0.513) and memory per CPU in MB with
// log10 mean 0.7036 and SD 0.663, correlated -0.842 with log10 CPUs. The
// paper's trace is unknown; this generator matches those moments:
//
//   - CPUs = 2^k, k = 0..7 with probabilities JRBCPUProbs (solved for the
//     four CPU moments above; mean 7.26, SD 17.98, log10 mean 0.4045, SD
//     0.513);
//   - log10 MB = 0.7036 - 1.0886 (log10 CPU - 0.4045) + N(0, 0.358^2)
//     (SD sqrt(1.0886^2 0.513^2 + 0.358^2) = 0.663, correlation
//     -1.0886 x 0.513 / 0.663 = -0.842);
//   - runtime = exp(3.036 + 2.3165 Z) + 6.6 (CPU - 7.26), at least 1 s: a
//     lognormal of mean exp(3.036 + 2.3165^2/2) = 304.6 s and SD 4,447 s,
//     plus the CPU slope of Table 3 (6.565 per CPU).
//
// Estimates are the runtimes (JRB reads none unless head = easy).

// JRBCPUProbs are the probabilities of 1, 2, 4, ..., 128 CPUs.
func JRBCPUProbs() []float64 {
	return []float64{0.4814, 0.1147, 0.2253, 0.0624, 0.0437, 0.0311, 0.0288, 0.0126}
}

// MaxJRBJobs bounds a JRB workload: the generator draws and sorts every
// job up front (about 150 bytes each).
const MaxJRBJobs = 2_000_000

// Arrival is a reading of the paper's arrival model, "jobs use a poisson
// distribution as a job creation time" with a "discrete uniform"
// alternative (Eqs. 7-8).
type Arrival uint8

const (
	// PoissonTime (reading A): each job's creation time is itself a
	// Poisson(Lambda) draw, in seconds: the jobs arrive within a few
	// sqrt(Lambda) of Lambda, a near-batch.
	PoissonTime Arrival = iota
	// UniformTime (reading A's alternative): each creation time is a
	// draw of DiscreteUniform{Lo..Hi}.
	UniformTime
	// PoissonProcess (reading B): a Poisson process, exponential gaps of
	// mean Gap seconds.
	PoissonProcess
	// UniformGaps (reading B's alternative): i.i.d. gaps drawn from
	// DiscreteUniform{Lo..Hi}.
	UniformGaps
)

var arrivalNames = [...]string{"poisson-time", "uniform-time", "poisson-process", "uniform-gaps"}

func (a Arrival) String() string {
	if int(a) < len(arrivalNames) {
		return arrivalNames[a]
	}
	return fmt.Sprintf("Arrival(%d)", a)
}

// Arrivals lists the readings' names in documentation order.
func Arrivals() []string { return append([]string(nil), arrivalNames[:]...) }

// ParseArrival parses a reading's name.
func ParseArrival(s string) (Arrival, error) {
	return enum.Parse("arrival reading", s, arrivalNames[:], indices[Arrival](len(arrivalNames)))
}

// JRBOptions configure the workload.
type JRBOptions struct {
	Jobs    int
	Arrival Arrival
	// Lambda is the mean creation time of PoissonTime (s); Gap the mean
	// gap of PoissonProcess (s); Lo..Hi the range of UniformTime
	// (creation times) or UniformGaps (gaps), integers of seconds.
	Lambda, Gap float64
	Lo, Hi      int
	// SpeedMax, when > 0, gives every job a CPU-speed requirement drawn
	// uniformly on [0, SpeedMax] (the paper: "each job ... contains three
	// variables including number of CPUs, memory size and average CPU
	// speed", the Speed of Eq. 1; it gives no distribution, so the
	// reproduction sweeps SpeedMax). The runtimes then hold at speed
	// SpeedMax (BMEst): run the jobs on machines of that speed
	// (JRBPlatform), where they run exactly their runtimes. 0: no
	// requirement, as before.
	SpeedMax float64
}

// JRBPlatform is one machine of cpus CPUs for a workload drawn with o:
// of speed o.SpeedMax when the jobs have a speed requirement, so that
// every job fits and runs its runtime.
func JRBPlatform(cpus int, o JRBOptions) (platform.Platform, error) {
	if o.SpeedMax > 0 {
		return platform.New([]platform.Machine{{CPUs: cpus, Speed: o.SpeedMax}})
	}
	return platform.Cluster(cpus)
}

// JRBDefaults returns the workload of n jobs under arrival reading a,
// with the default parameters (docs/papers/alnajjar2019.md): PoissonTime
// lambda = 10,000 s; UniformTime {0..400,000} s; PoissonProcess gaps of
// mean 10 s; UniformGaps {0..80} s. The expected work of a job is about
// 4,350 CPU-seconds, so on 200 CPUs the Poisson readings offer far more
// work than the machine can do while it arrives (load ~2.2 for B, a
// batch for A) and the uniform readings about 0.54 of it.
func JRBDefaults(n int, a Arrival) JRBOptions {
	return JRBOptions{Jobs: n, Arrival: a, Lambda: 10_000, Gap: 10, Lo: 0, Hi: map[Arrival]int{UniformTime: 400_000, UniformGaps: 80}[a]}
}

func (o JRBOptions) check() error {
	switch {
	case o.Jobs < 1 || o.Jobs > MaxJRBJobs:
		return fmt.Errorf("synth: %d jobs (want 1..%d)", o.Jobs, MaxJRBJobs)
	case o.Arrival > UniformGaps:
		return fmt.Errorf("synth: unknown arrival reading %d", o.Arrival)
	case o.Arrival == PoissonTime && !(o.Lambda > 0 && o.Lambda <= 1e12):
		return fmt.Errorf("synth: poisson-time lambda %g (want 0 < lambda <= 1e12)", o.Lambda)
	case o.Arrival == PoissonProcess && !(o.Gap > 0 && o.Gap <= 1e9):
		return fmt.Errorf("synth: poisson-process mean gap %g (want 0 < gap <= 1e9)", o.Gap)
	case (o.Arrival == UniformTime || o.Arrival == UniformGaps) && (o.Lo < 0 || o.Hi < o.Lo || o.Hi > 1e12):
		return fmt.Errorf("synth: discrete uniform {%d..%d} (want 0 <= lo <= hi <= 1e12)", o.Lo, o.Hi)
	case !(o.SpeedMax >= 0 && o.SpeedMax <= 1e12):
		return fmt.Errorf("synth: CPU-speed requirement up to %g (want 0 <= max <= 1e12; 0: none)", o.SpeedMax)
	}
	return nil
}

// JRBJobs draws the workload of replication rep of seed, sorted by submit
// time (ties: draw order); ids 1..n in that order. Every quantity has
// its own stream, so the readings share the jobs' sizes and runtimes
// (common random numbers): only the arrival times differ.
func JRBJobs(seed uint64, rep int, o JRBOptions) ([]actual.Job, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	cpuR, memR, rtR, arrR := rng.New(seed, rep, "jrb-cpus"), rng.New(seed, rep, "jrb-memory"),
		rng.New(seed, rep, "jrb-runtimes"), rng.New(seed, rep, "jrb-arrivals")
	spR := rng.New(seed, rep, "jrb-speeds") // drawn only with SpeedMax > 0
	probs := JRBCPUProbs()
	pois := distuv.Poisson{Lambda: o.Lambda, Src: arrR}
	jobs := make([]actual.Job, o.Jobs)
	t := 0.0
	for i := range jobs {
		u, k := cpuR.Float64(), 0
		for acc := probs[0]; u >= acc && k < len(probs)-1; acc += probs[k] {
			k++
		}
		cpus := 1 << k
		lc := math.Log10(float64(cpus))
		mb := math.Pow(10, 0.7036-1.0886*(lc-0.4045)+0.358*memR.NormFloat64())
		rt := max(1, math.Exp(3.036+2.3165*rtR.NormFloat64())+6.6*(float64(cpus)-7.26))
		var sub float64
		switch o.Arrival {
		case PoissonTime:
			sub = pois.Rand()
		case UniformTime:
			sub = float64(o.Lo + arrR.IntN(o.Hi-o.Lo+1))
		case PoissonProcess:
			if i > 0 {
				t += arrR.ExpFloat64() * o.Gap
			}
			sub = t
		case UniformGaps:
			if i > 0 {
				t += float64(o.Lo + arrR.IntN(o.Hi-o.Lo+1))
			}
			sub = t
		}
		jobs[i] = actual.Job{ID: job.ID(i), Submit: sub, Procs: cpus, Runtime: rt, Estimate: rt, Request: -1,
			User: -1, Group: -1, Partition: -1, Mem: mb * 1024}
		if o.SpeedMax > 0 {
			jobs[i].Speed, jobs[i].BMEst = spR.Float64()*o.SpeedMax, o.SpeedMax
		}
	}
	slices.SortStableFunc(jobs, func(a, b actual.Job) int { return cmp.Compare(a.Submit, b.Submit) })
	for i := range jobs {
		jobs[i].ID = job.ID(i + 1)
	}
	return jobs, nil
}
