package testref

import (
	"fmt"
	"math"
	"slices"
)

// MatrixRule is the window rule of Matrix: "lazy", "eager" or fixed
// windows of FixedN jobs.
type MatrixRule struct {
	Eager  bool
	FixedN int // > 0: every window takes FixedN jobs (or what waits)
}

// MatrixResult is one job's outcome under Matrix.
type MatrixResult struct {
	Start, End float64 // first thread's start, last thread's end
	CPUs       []int   // CPU of each thread, in thread order
	Starts     []float64
}

// Matrix simulates hafshejani-2012's thread-level matrix scanning from
// the rule's words, without the engine:
//
//   - "a job of k processors is k threads, each running the job's runtime
//     on one processor; the job ends with its last thread";
//   - "n = the number of threads of the first waiting job; look at the n x n
//     matrix of the first n waiting jobs; if some job in it has more than n
//     threads, n = that job's count, and look again" (this grows n to the
//     first such job met, not to the largest: the fixed point is the same);
//   - "insert the members of the matrix horizontally into the thread
//     queue": row r holds thread r of every job of the window that has one,
//     in job order;
//   - "the queue is observed in FCFS": at each instant (completions, then
//     arrivals, then one pass), while a processor is free and the thread
//     queue is not empty, its head starts on the free processor of lowest
//     id; when the thread queue is empty, a processor is free and jobs
//     wait, the next window is formed (lazy). Eager: every pass first forms
//     windows of all waiting jobs. FixedN: windows of FixedN jobs.
func Matrix(jobs []Job, procs int, rule MatrixRule) []MatrixResult {
	checkInput(jobs, procs)
	res := make([]MatrixResult, len(jobs))
	for i := range res {
		res[i].Start, res[i].End = math.NaN(), math.NaN()
		res[i].CPUs = make([]int, jobs[i].Procs)
		res[i].Starts = make([]float64, jobs[i].Procs)
	}
	order := arrivalOrder(jobs)
	type thr struct{ job, idx int }
	busyUntil := make([]float64, procs) // end of the thread on each CPU
	busy := make([]bool, procs)
	var waiting []int // jobs not yet in a window, in arrival order
	var tq []thr
	next, left := 0, 0
	for i := range jobs {
		left += jobs[i].Procs
	}
	now := math.Inf(-1)
	form := func() {
		// the window
		n := jobs[waiting[0]].Procs
		if rule.FixedN > 0 {
			n = rule.FixedN
		} else {
			for {
				grew := false
				for p := 0; p < n && p < len(waiting); p++ {
					if k := jobs[waiting[p]].Procs; k > n {
						n, grew = k, true
						break
					}
				}
				if !grew {
					break
				}
			}
		}
		w := min(n, len(waiting))
		win := waiting[:w]
		rows := 0
		for _, j := range win {
			rows = max(rows, jobs[j].Procs)
		}
		for r := 0; r < rows; r++ {
			for _, j := range win {
				if jobs[j].Procs > r {
					tq = append(tq, thr{j, r})
				}
			}
		}
		waiting = slices.Clone(waiting[w:])
	}
	for left > 0 {
		// next instant
		t := math.Inf(1)
		if next < len(order) {
			t = jobs[order[next]].Submit
		}
		for c := range busy {
			if busy[c] {
				t = min(t, busyUntil[c])
			}
		}
		if math.IsInf(t, 1) {
			panic(fmt.Sprintf("naive matrix: stalled at %v with %d threads left", now, left))
		}
		now = t
		for c := range busy {
			if busy[c] && busyUntil[c] <= now {
				busy[c] = false
			}
		}
		for next < len(order) && jobs[order[next]].Submit == now {
			waiting = append(waiting, order[next])
			next++
		}
		if rule.Eager {
			for len(waiting) > 0 {
				form()
			}
		}
		for {
			c := slices.Index(busy, false)
			if c < 0 {
				break
			}
			if len(tq) == 0 {
				if len(waiting) == 0 {
					break
				}
				form()
				continue
			}
			h := tq[0]
			tq = tq[1:]
			busy[c], busyUntil[c] = true, now+jobs[h.job].Duration
			r := &res[h.job]
			r.CPUs[h.idx], r.Starts[h.idx] = c, now
			if math.IsNaN(r.Start) {
				r.Start = now
			}
			if e := now + jobs[h.job].Duration; math.IsNaN(r.End) || e > r.End {
				r.End = e
			}
			left--
		}
	}
	return res
}
