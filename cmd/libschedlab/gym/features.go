package gym

import (
	"fmt"
	"slices"
	"strings"
)

// Feature is one number of the observation, chosen by name
// (Config.Features; SchedulingEnv's features=).
type Feature struct {
	Name    string
	Slot    bool   // one per slot of the window (else one for the machine)
	Meaning string // what it is
	Scale   string // what maps to 1 (a value above is clipped to 1)
}

// The declared features' indices in Declared.
const (
	fPresent = iota
	fCPUs
	fEstimate
	fWait
	fFits
	fUserWaiting
	fUserUsage
	mFree
	mRunning
	mWaiting
	mRemainingMean
	mRemainingMin
	mQueueWork
)

// Declared lists every feature, per slot first, then the machine's. An
// empty slot (fewer waiting jobs than slots) is all zeros. The Python
// package documents this table (python/README.md, "Observation
// features"); a test checks the two agree.
var Declared = []Feature{
	fPresent:     {"present", true, "1 for a slot that holds a job", "1"},
	fCPUs:        {"cpus", true, "CPUs the job requests", "the platform's CPUs"},
	fEstimate:    {"estimate", true, "the job's runtime estimate (walltime)", "time_scale"},
	fWait:        {"wait", true, "now - the job's submit time", "time_scale"},
	fFits:        {"fits", true, "1 if the job fits the CPUs still free at this instant", "1"},
	fUserWaiting: {"user_waiting", true, "waiting jobs of the job's user (itself included) at this instant", "queue_scale"},
	fUserUsage: {"user_usage", true,
		"CPU-seconds the job's user has used in the episode so far: jobs ended (CPUs x (end - start)) and running (CPUs x (now - start))",
		"the platform's CPUs x time_scale"},
	mFree:    {"free_cpus", false, "CPUs still free at this instant", "the platform's CPUs"},
	mRunning: {"running_jobs", false, "jobs running", "the platform's CPUs"},
	mWaiting: {"waiting_jobs", false, "jobs waiting at this instant (picked ones included)", "queue_scale"},
	mRemainingMean: {"running_remaining_mean", false,
		"mean over the running jobs of their estimated remaining time, max(0, start + estimate - now); 0 when none runs", "time_scale"},
	mRemainingMin: {"running_remaining_min", false,
		"the least estimated remaining time of a running job (the soonest estimated end); 0 when none runs", "time_scale"},
	mQueueWork: {"queue_work", false, "estimated work waiting: sum of CPUs x estimate over the waiting jobs", "the platform's CPUs x time_scale"},
}

// DefaultFeatures is the observation when Config.Features is empty: the
// environment's original five numbers per slot and three for the
// machine.
var DefaultFeatures = []string{"present", "cpus", "estimate", "wait", "fits", "free_cpus", "running_jobs", "waiting_jobs"}

// Names is the declared features' names, in Declared's order.
func Names() []string {
	out := make([]string, len(Declared))
	for k, f := range Declared {
		out[k] = f.Name
	}
	return out
}

// Layout is the observation's layout for a list of names: the slot
// features in the order given, then the machine's in the order given;
// an unknown or repeated name is an error that lists the known ones.
type Layout struct {
	Slot, Machine []int // indices into Declared
}

// ParseFeatures is the layout of names (empty: DefaultFeatures).
func ParseFeatures(names []string) (Layout, error) {
	if len(names) == 0 {
		names = DefaultFeatures
	}
	var l Layout
	seen := map[string]bool{}
	for _, n := range names {
		k := slices.IndexFunc(Declared, func(f Feature) bool { return f.Name == n })
		if k < 0 {
			return Layout{}, fmt.Errorf("gym: unknown observation feature %q (known: %s)", n, strings.Join(Names(), ", "))
		}
		if seen[n] {
			return Layout{}, fmt.Errorf("gym: observation feature %q given twice", n)
		}
		seen[n] = true
		if Declared[k].Slot {
			l.Slot = append(l.Slot, k)
		} else {
			l.Machine = append(l.Machine, k)
		}
	}
	return l, nil
}

// Size is the observation's length for a window.
func (l Layout) Size(window int) int { return window*len(l.Slot) + len(l.Machine) }
