package lublin

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/schedlab/schedlab/internal/enum"
)

// Limits of the options, checked by Check before any work.
const (
	// MaxProcs bounds Procs (the size model iterates over the sizes up
	// to Procs once, to compute the offered load).
	MaxProcs = 1 << 20
	// MaxJobs bounds Jobs: about a minute of generation, and jobs are
	// produced one at a time (nothing is held per job).
	MaxJobs = 100_000_000
	// MaxUsers bounds Users: the user draw keeps one float64 per user.
	MaxUsers = 1 << 20
	// MaxScenarioUsers bounds the scenario key workload.users, as
	// docs/scenarios.md has always said (trace synth --users keeps
	// MaxUsers).
	MaxScenarioUsers = 1_000_000
	// MaxFactor bounds ArrivalFactor and RuntimeFactor (and a factor
	// derived from Load).
	MaxFactor = 1e6
	// MaxLoad bounds Load.
	MaxLoad = 100.0
	// MaxShape bounds the Gamma shapes A1, A2, AArr·ARAR and ANum.
	MaxShape = 1e6
)

// The model's truncations, from the authors' program lublin99.c: a
// log-runtime above MaxLogRuntime (e^12 s, about 45 hours) or a log
// inter-arrival time above MaxLogInterarrival (e^13 s, about 5 days) is
// drawn again.
const (
	MaxLogRuntime      = 12.0
	MaxLogInterarrival = 13.0
)

// The daily cycle: a day of 48 half-hour slots.
const (
	slotSeconds = 1800
	slots       = 48
	daySeconds  = slots * slotSeconds
	// cycleStart is the number of the first half-hour slot of the
	// model's day: slots are numbered 1..48 from midnight, and the
	// model's day runs over slots 11..58 (05:00 to 05:00 next day),
	// slot i standing for slot ((i-1) mod 48)+1 of the clock.
	cycleStart = 11
)

// Class names a published parameter set: the paper fits batch and
// interactive jobs separately.
type Class uint8

const (
	// Batch is the batch-job parameter set (the default).
	Batch Class = iota
	// Interactive is the interactive-job parameter set.
	Interactive
)

// Classes lists the parameter sets, in documentation order (a fresh
// slice).
func Classes() []Class { return []Class{Batch, Interactive} }

// String is the set's name, as ParseClass reads it.
func (c Class) String() string {
	switch c {
	case Batch:
		return "batch"
	case Interactive:
		return "interactive"
	}
	return fmt.Sprintf("Class(%d)", uint8(c))
}

// ParseClass parses a parameter-set name (batch, interactive).
func ParseClass(s string) (Class, error) { return enum.ParseNamed("job class", s, Classes()...) }

// Params is one Lublin–Feitelson workload: the options (machine size,
// job count, load scaling, daily cycle, users, requested times) and the
// model's parameters, which Default and For fill with the published
// values (see docs/workloads.md for the table and its sources).
//
// Times are seconds. A job's size n is its processor count; "log" is
// the natural logarithm except where log2 is written.
type Params struct {
	// Class is the published set the model parameters below were taken
	// from (For sets it; it is written in headers, it changes nothing
	// else).
	Class Class

	// Procs is the machine size P in processors, 1..MaxProcs. No job is
	// larger.
	Procs int
	// Jobs is the number of jobs to generate, 1..MaxJobs.
	Jobs int
	// ArrivalFactor multiplies every inter-arrival time (in the model's
	// time, before the daily cycle maps it onto the clock): 2 halves
	// the arrival rate and the offered load. In (0, MaxFactor].
	ArrivalFactor float64
	// RuntimeFactor multiplies every runtime (before the rounding to
	// whole seconds). In (0, MaxFactor].
	RuntimeFactor float64
	// Load, when positive, is a target offered load: ArrivalFactor is
	// then derived so that the model's expected offered load
	// (OfferedLoad) equals Load, and must be left at 1. In [0, MaxLoad].
	Load float64
	// DailyCycle turns the model's daily arrival cycle on (true, the
	// model) or off (inter-arrival times as drawn, at every hour alike).
	DailyCycle bool
	// StartHour is the hour of the day (0..23) at which time 0 falls.
	StartHour int
	// Users, when positive, gives every job a user id in 1..Users:
	// user k with probability proportional to 1/k (Zipf's law with
	// exponent 1), drawn from a stream of its own, independent of the
	// job's size and runtime. This is a schedlab simplification, NOT
	// part of the published model, which has no users. 0: user -1
	// (unknown). At most MaxUsers. The group is always -1.
	Users int
	// Request, when set, gives a job's requested time from its runtime,
	// drawing any randomness from r (a stream of its own); it must
	// return a number >= runtime. nil: the request is the runtime
	// ("exact"). A job's Estimate is its Request.
	Request func(runtime float64, r *rand.Rand) float64
	// RequestName names the Request model in the SWF header ("": "a
	// requested-time model").
	RequestName string

	// Job size. A job is serial (n = 1) with probability SerialProb, a
	// parallel job of power-of-two size with probability Pow2Prob, and
	// otherwise a parallel job of any size (one uniform draw decides, as
	// in the authors' program, so Pow2Prob is a share of all jobs). A
	// parallel job draws x = log2 of its size from the two-stage uniform
	// distribution: with probability UProb uniform on [ULow, UMed], else
	// uniform on [UMed, UHi]; a power-of-two job rounds x to an integer;
	// n = round(2^x), at most round(2^UHi) and at most Procs. It needs
	// 0 <= ULow <= UMed <= UHi <= log2(Procs).
	SerialProb float64
	Pow2Prob   float64
	ULow       float64
	UMed       float64
	UHi        float64
	UProb      float64

	// Runtime. The log of the runtime follows the hyper-Gamma
	// distribution: Gamma(A1, B1) with probability p, else Gamma(A2,
	// B2) (shape A, scale B, mean A·B), where p = PA·n + PB, clamped to
	// [0, 1], depends on the job's size n (PA < 0: larger jobs run
	// longer). A log-runtime above MaxLogRuntime is drawn again. The
	// runtime exp(log-runtime) · RuntimeFactor is rounded to whole
	// seconds, at least 1.
	A1, B1 float64
	A2, B2 float64
	PA, PB float64

	// Arrivals. The log of an inter-arrival time follows Gamma(AArr·ARAR,
	// BArr) (drawn again above MaxLogInterarrival): AArr, BArr were fitted
	// to the rush hours and ARAR ("arrive rush to all ratio") widens the
	// shape to all hours. With DailyCycle, the inter-arrival times are in
	// the model's time, which runs faster at busy hours: half-hour slot i
	// of the model's day (slots 11..58 from midnight, i.e. 05:00 to 05:00)
	// gets the weight P(i-0.5 < Y <= i+0.5), Y ~ Gamma(ANum, BNum),
	// normalised to mean 1, and a slot of weight w passes w seconds of
	// model time each second. A day still holds 86,400 s of model time,
	// so the cycle moves arrivals between hours without changing their
	// long-run rate.
	AArr, BArr, ARAR float64
	ANum, BNum       float64
}

// Default is For(Batch, procs): the batch-job parameter set.
func Default(procs int) Params { return For(Batch, procs) }

// For returns the published parameter set of class c for a machine of
// procs processors, with the options at their defaults: 10,000 jobs,
// factors 1, no target load, the daily cycle on from midnight, no
// users, requests equal to runtimes.
//
// The published values (from the authors' program lublin99.c, which
// codifies the paper's fits) are for a 128-processor machine. On other
// machines UHi is the machine's log2 (batch) or log2 - 1.5 (interactive,
// whose largest jobs are 2^5.5 ≈ 45 at 128 processors), UMed keeps its
// published distance below UHi (2 for batch, 2.5 for interactive; the
// program's notes advise 1.5 to 3.5), and the three are clamped to
// 0 <= ULow <= UMed <= UHi, so that a small machine still gets a valid
// distribution (on 2 processors every parallel job has 2).
func For(c Class, procs int) Params {
	p := Params{Class: c, Procs: procs, Jobs: 10_000, ArrivalFactor: 1, RuntimeFactor: 1, DailyCycle: true}
	logP := 0.0
	if procs > 1 {
		logP = math.Log2(float64(procs))
	}
	switch c {
	case Interactive:
		p.SerialProb, p.Pow2Prob = 0.1541, 0.625
		p.ULow, p.UHi, p.UProb = 1, logP-1.5, 0.705
		p.UMed = p.UHi - 2.5
		p.A1, p.B1, p.A2, p.B2 = 3.8351, 0.6605, 7.073, 0.6856
		p.PA, p.PB = -0.0118, 0.9156
		p.AArr, p.BArr, p.ARAR = 6.5510, 0.6621, 0.9797
		p.ANum, p.BNum = 8.9186, 3.6680
	default:
		p.SerialProb, p.Pow2Prob = 0.2927, 0.6686
		p.ULow, p.UHi, p.UProb = 1.2, logP, 0.875
		p.UMed = p.UHi - 2
		p.A1, p.B1, p.A2, p.B2 = 6.57, 0.823, 639.1, 0.0156
		p.PA, p.PB = -0.003, 0.6986
		p.AArr, p.BArr, p.ARAR = 6.0415, 0.8531, 1.0519
		p.ANum, p.BNum = 6.1271, 5.2740
	}
	p.UHi = max(p.UHi, 0)
	p.ULow = min(p.ULow, p.UHi)
	p.UMed = min(max(p.UMed, p.ULow), p.UHi)
	return p
}

// Problem is one invalid field of Params.
type Problem struct {
	Field string // the Params field, e.g. "Procs"
	Msg   string // what is wrong, with the value and what is wanted
}

// CheckError lists every invalid field of a Params.
type CheckError struct{ Problems []Problem }

func (e *CheckError) Error() string {
	parts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		parts[i] = p.Field + " " + p.Msg
	}
	return "lublin: " + strings.Join(parts, "; ")
}

// Check reports every invalid field at once (a *CheckError), or nil.
// Besides the ranges of the fields' documentation, the truncated
// distributions must keep at least 1e-6 of their mass (else almost every
// draw would be drawn again), and the daily cycle's weights must all be
// positive.
func (p Params) Check() error {
	var ps []Problem
	bad := func(field, format string, args ...any) {
		ps = append(ps, Problem{field, fmt.Sprintf(format, args...)})
	}
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	if p.Procs < 1 || p.Procs > MaxProcs {
		bad("Procs", "%d: want 1..%d", p.Procs, MaxProcs)
	}
	if p.Jobs < 1 || p.Jobs > MaxJobs {
		bad("Jobs", "%d: want 1..%d", p.Jobs, MaxJobs)
	}
	if !(p.ArrivalFactor > 0 && p.ArrivalFactor <= MaxFactor) {
		bad("ArrivalFactor", "%v: want a number in (0, %g]", p.ArrivalFactor, MaxFactor)
	}
	if !(p.RuntimeFactor > 0 && p.RuntimeFactor <= MaxFactor) {
		bad("RuntimeFactor", "%v: want a number in (0, %g]", p.RuntimeFactor, MaxFactor)
	}
	if !(p.Load >= 0 && p.Load <= MaxLoad) {
		bad("Load", "%v: want 0 (none) or a target offered load in (0, %g]", p.Load, MaxLoad)
	} else if p.Load > 0 && p.ArrivalFactor != 1 {
		bad("Load", "%v: a target load sets the arrival factor; leave ArrivalFactor at 1 (it is %v)", p.Load, p.ArrivalFactor)
	}
	if p.StartHour < 0 || p.StartHour > 23 {
		bad("StartHour", "%d: want 0..23", p.StartHour)
	}
	if p.Users < 0 || p.Users > MaxUsers {
		bad("Users", "%d: want 0 (no users) ..%d", p.Users, MaxUsers)
	}
	prob := func(field string, x float64) {
		if !(x >= 0 && x <= 1) {
			bad(field, "%v: want a probability in [0, 1]", x)
		}
	}
	prob("SerialProb", p.SerialProb)
	prob("Pow2Prob", p.Pow2Prob)
	prob("UProb", p.UProb)
	if p.SerialProb+p.Pow2Prob > 1+1e-12 {
		bad("Pow2Prob", "%v: SerialProb + Pow2Prob = %v, more than 1", p.Pow2Prob, p.SerialProb+p.Pow2Prob)
	}
	logP := 0.0
	if p.Procs > 1 {
		logP = math.Log2(float64(p.Procs))
	}
	switch {
	case !finite(p.ULow) || !finite(p.UMed) || !finite(p.UHi):
		bad("ULow", "%v (UMed %v, UHi %v): want finite numbers", p.ULow, p.UMed, p.UHi)
	case !(0 <= p.ULow && p.ULow <= p.UMed && p.UMed <= p.UHi):
		bad("ULow", "%v (UMed %v, UHi %v): want 0 <= ULow <= UMed <= UHi", p.ULow, p.UMed, p.UHi)
	case p.Procs >= 1 && p.Procs <= MaxProcs && p.UHi > logP+1e-9:
		bad("UHi", "%v: more than log2(Procs) = %v", p.UHi, logP)
	}
	gamma := func(fa, fb string, a, b, cut float64) {
		if !(a > 0 && a <= MaxShape) || !(b > 0) || !finite(b) {
			bad(fa, "%v (with %s %v): want a Gamma shape in (0, %g] and a positive finite scale", a, fb, b, MaxShape)
			return
		}
		if cut > 0 {
			if m := gammaCDF(cut, a, b); !(m >= 1e-6) {
				bad(fa, "%v (with %s %v): Gamma(%v, %v) has only %.3g of its mass below %v, where the model keeps its draws", a, fb, b, a, b, m, cut)
			}
		}
	}
	gamma("A1", "B1", p.A1, p.B1, MaxLogRuntime)
	gamma("A2", "B2", p.A2, p.B2, MaxLogRuntime)
	if !finite(p.PA) || !finite(p.PB) {
		bad("PA", "%v (PB %v): want finite numbers", p.PA, p.PB)
	}
	if !(p.ARAR > 0) || !finite(p.ARAR) {
		bad("ARAR", "%v: want a positive number", p.ARAR)
	} else {
		gamma("AArr", "BArr", p.AArr*p.ARAR, p.BArr, MaxLogInterarrival)
	}
	gamma("ANum", "BNum", p.ANum, p.BNum, 0)
	if len(ps) == 0 && p.DailyCycle {
		for k, w := range cycleWeights(p.ANum, p.BNum) {
			if !(w > 0) || !finite(w) {
				bad("ANum", "%v (BNum %v): the daily cycle gives half-hour slot %02d:%02d weight %v; want every slot positive", p.ANum, p.BNum, k/2, 30*(k%2), w)
				break
			}
		}
	}
	if len(ps) == 0 && p.Load > 0 {
		if f := p.loadFactor(); !(f > 0 && f <= MaxFactor) {
			bad("Load", "%v: needs an arrival factor of %v, beyond (0, %g]", p.Load, f, MaxFactor)
		}
	}
	if len(ps) > 0 {
		return &CheckError{ps}
	}
	return nil
}

// cycleWeights are the weights of the 48 half-hour slots of the clock's
// day (index k: from k·30 minutes after midnight), normalised to mean 1.
func cycleWeights(anum, bnum float64) [slots]float64 {
	var w [slots]float64
	sum := 0.0
	for i := cycleStart; i < cycleStart+slots; i++ {
		k := (i - 1) % slots
		w[k] = gammaCDF(float64(i)+0.5, anum, bnum) - gammaCDF(float64(i)-0.5, anum, bnum)
		sum += w[k]
	}
	for k := range w {
		w[k] *= slots / sum
	}
	return w
}
