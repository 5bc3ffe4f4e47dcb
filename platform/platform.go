package platform

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// MaxCPUs bounds the total number of CPUs of a platform: 1<<22 (4,194,304),
// far beyond the largest machine in the Parallel Workloads Archive, and
// small enough that per-CPU state of a simulation stays a few tens of MB.
const MaxCPUs = 1 << 22

// MaxMachines bounds the number of machines of a platform.
const MaxMachines = 1 << 16

// Machine is one machine (a cluster, or a site of a grid).
type Machine struct {
	CPUs int // number of CPUs, >= 1
	// Speed is the machine's speed BM (0 means the reference speed 1).
	Speed float64
	// Mem is the memory per CPU in KB (0: memory is not modelled).
	Mem float64
}

// BM is the machine's speed with the default applied (0 means 1).
func (m Machine) BM() float64 {
	if m.Speed == 0 {
		return 1
	}
	return m.Speed
}

// Duration is how long work of length p, measured at speed bmEst (0 means
// the reference speed 1), takes on m: p x bmEst / BM_m. With equal speeds
// it is p exactly.
func (m Machine) Duration(p, bmEst float64) float64 {
	if bmEst == 0 {
		bmEst = 1
	}
	s := m.BM()
	if s == bmEst {
		return p
	}
	return p * bmEst / s
}

// Holds reports whether m can ever run a job of procs CPUs needing mem KB
// of memory per CPU (checked when the machine's memory is modelled) and a
// CPU speed of at least speed (0: any). The one rule the models and the
// policies share.
func (m Machine) Holds(procs int, mem, speed float64) bool {
	return procs <= m.CPUs && (m.Mem == 0 || mem <= m.Mem) && (speed == 0 || speed <= m.BM())
}

// Platform is an immutable list of machines with global CPU ids.
type Platform struct {
	machines []Machine
	first    []int // first CPU id of each machine
	total    int
}

// New checks the machines and returns the platform. Every problem is
// reported, each naming the machine.
func New(ms []Machine) (Platform, error) {
	if len(ms) == 0 {
		return Platform{}, fmt.Errorf("platform: no machines")
	}
	if len(ms) > MaxMachines {
		return Platform{}, fmt.Errorf("platform: %d machines, more than the limit of %d", len(ms), MaxMachines)
	}
	var probs []string
	total := 0
	for i, m := range ms {
		switch {
		case m.CPUs < 1:
			probs = append(probs, fmt.Sprintf("machine %d has %d CPUs (must be >= 1)", i, m.CPUs))
		case m.CPUs > MaxCPUs || total+m.CPUs > MaxCPUs:
			probs = append(probs, fmt.Sprintf("machine %d: %d CPUs takes the platform beyond the limit of %d CPUs", i, m.CPUs, MaxCPUs))
		default:
			total += m.CPUs
		}
		if !(m.Speed >= 0) || math.IsInf(m.Speed, 1) {
			probs = append(probs, fmt.Sprintf("machine %d has speed %g (must be finite and > 0; 0 means 1)", i, m.Speed))
		}
		if !(m.Mem >= 0) || math.IsInf(m.Mem, 1) {
			probs = append(probs, fmt.Sprintf("machine %d has memory %g KB per CPU (must be finite and >= 0)", i, m.Mem))
		}
		if len(probs) > 20 {
			break
		}
	}
	if len(probs) > 0 {
		return Platform{}, fmt.Errorf("platform: %s", strings.Join(probs, "; "))
	}
	p := Platform{machines: append([]Machine(nil), ms...), first: make([]int, len(ms)+1)}
	for i, m := range ms {
		p.first[i+1] = p.first[i] + m.CPUs
	}
	p.total = p.first[len(ms)]
	return p, nil
}

// Cluster is one machine of n identical CPUs at the reference speed.
func Cluster(n int) (Platform, error) { return New([]Machine{{CPUs: n}}) }

// Sites is one machine per site, with the given CPU counts.
func Sites(cpus []int) (Platform, error) {
	if len(cpus) > MaxMachines {
		return Platform{}, fmt.Errorf("platform: %d sites, more than the limit of %d", len(cpus), MaxMachines)
	}
	ms := make([]Machine, len(cpus))
	for i, n := range cpus {
		ms[i].CPUs = n
	}
	return New(ms)
}

// Machines is the number of machines.
func (p Platform) Machines() int { return len(p.machines) }

// Machine returns machine m.
func (p Platform) Machine(m int) Machine { return p.machines[m] }

// CPUs is the total number of CPUs.
func (p Platform) CPUs() int { return p.total }

// First is the global id of machine m's first CPU; machine m owns ids
// First(m) .. First(m)+Machine(m).CPUs-1.
func (p Platform) First(m int) int { return p.first[m] }

// MachineOf returns the machine that owns CPU id c (binary search).
func (p Platform) MachineOf(c int) int {
	lo, hi := 0, len(p.machines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if p.first[mid] <= c {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// String describes the platform compactly, e.g. "4 machines, 32 CPUs".
func (p Platform) String() string {
	if len(p.machines) == 1 {
		return strconv.Itoa(p.total) + " CPUs"
	}
	return fmt.Sprintf("%d machines, %d CPUs", len(p.machines), p.total)
}

// MustCluster is Cluster for sizes known to be valid (tests, examples); it
// panics on an invalid size.
func MustCluster(n int) Platform {
	p, err := Cluster(n)
	if err != nil {
		panic(err)
	}
	return p
}

// MustSites is Sites for sizes known to be valid; it panics otherwise.
func MustSites(cpus []int) Platform {
	p, err := Sites(cpus)
	if err != nil {
		panic(err)
	}
	return p
}
