package testref

import (
	"fmt"
	"math"
	"slices"
	"sort"
)

// Window is an announced period [Start, End) during which the CPUs
// Lo..Hi (ids) are unavailable: a reservation or a maintenance window.
type Window struct {
	Start, End float64
	Lo, Hi     int
}

// FCFSWindows is strict FCFS on one machine of procs CPUs (ids 0..procs-1)
// with announced windows, written from docs/availability.md's rules and
// nothing else:
//
//   - A CPU is available at t unless a window holding it has Start <= t <
//     End. Its next window at t is the least Start >= t of the windows
//     holding it (+Inf: none); a CPU inside a window is not available.
//   - The head job (queue order: submit time, then id) starts at t when at
//     least Procs CPUs are idle, available, and have their next window at
//     or after t + Estimate; it gets, among those, the Procs whose next
//     window begins soonest (ties: lowest id). Otherwise it waits, and so
//     does everyone behind it (strict).
//   - Decisions are taken at every instant something happens (an arrival,
//     an end, a window's start or end), after the instant's ends and
//     arrivals. A job started in a pass holds its CPUs for the rest of
//     the pass even if it lasts zero seconds (its end comes after the
//     pass: another pass follows at the same instant).
//
// Jobs must not run past their Estimate (Duration <= Estimate), so none
// is ever hit by a window. It returns each job's start and CPUs (sorted
// ids), in input order, and panics on a job that can never start.
func FCFSWindows(jobs []Job, procs int, ws []Window) (starts []float64, cpus [][]int) {
	for _, j := range jobs {
		if j.Duration > j.Estimate || j.Procs < 1 || j.Procs > procs {
			panic(fmt.Sprintf("testref: job %d: duration %g, estimate %g, %d CPUs", j.ID, j.Duration, j.Estimate, j.Procs))
		}
	}
	order := make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return arrivalLess(jobs, order[a], order[b]) })
	starts = make([]float64, len(jobs))
	cpus = make([][]int, len(jobs))
	busyUntil := make([]float64, procs) // the end of the job on the CPU (0: idle since then)
	// the instants: arrivals, window edges; ends are added as jobs start
	times := map[float64]bool{}
	for _, j := range jobs {
		times[j.Submit] = true
	}
	for _, w := range ws {
		times[w.Start], times[w.End] = true, true
	}
	inWindow := func(cpu int, t float64) bool {
		for _, w := range ws {
			if w.Lo <= cpu && cpu <= w.Hi && w.Start <= t && t < w.End {
				return true
			}
		}
		return false
	}
	nextWindow := func(cpu int, t float64) float64 {
		next := math.Inf(1)
		for _, w := range ws {
			if w.Lo <= cpu && cpu <= w.Hi && w.Start >= t {
				next = min(next, w.Start)
			}
		}
		return next
	}
	head := 0
	for head < len(order) {
		// the next instant: the least pending time
		t := math.Inf(1)
		for x := range times {
			t = min(t, x)
		}
		if math.IsInf(t, 1) {
			panic(fmt.Sprintf("testref: job %d can never start", jobs[order[head]].ID))
		}
		delete(times, t)
		usedNow := map[int]bool{}
		for head < len(order) {
			i := order[head]
			j := jobs[i]
			if j.Submit > t {
				break
			}
			type cand struct {
				next float64
				cpu  int
			}
			var cs []cand
			for cpu := range procs {
				if busyUntil[cpu] <= t && !usedNow[cpu] && !inWindow(cpu, t) {
					if n := nextWindow(cpu, t); n >= t+j.Estimate {
						cs = append(cs, cand{n, cpu})
					}
				}
			}
			if len(cs) < j.Procs {
				break
			}
			slices.SortFunc(cs, func(a, b cand) int {
				if a.next != b.next {
					if a.next < b.next {
						return -1
					}
					return 1
				}
				return a.cpu - b.cpu
			})
			var got []int
			for _, c := range cs[:j.Procs] {
				got = append(got, c.cpu)
				busyUntil[c.cpu] = t + j.Duration
				usedNow[c.cpu] = true
			}
			slices.Sort(got)
			starts[i], cpus[i] = t, got
			times[t+j.Duration] = true
			head++
		}
	}
	return starts, cpus
}
