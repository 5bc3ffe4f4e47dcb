package matrix

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/policy"
)

// Rule says when and how windows are formed.
type Rule uint8

const (
	// Lazy: the next window (growing n x n rule) is formed when the thread
	// queue is empty and a CPU is free.
	Lazy Rule = iota
	// Eager: at every pass, all waiting jobs are formed into windows
	// (growing rule) at once.
	Eager
	// Fixed: windows of N jobs (or fewer if fewer wait), formed lazily.
	Fixed
)

// MaxFixed bounds N of fixed:N.
const MaxFixed = 1 << 20

// Options configures the policy.
type Options struct {
	Rule Rule
	N    int // window size of Fixed, 1..MaxFixed
	// OnWindow, when set, is told of every window formed (the slice is
	// the policy's: copy what you keep).
	OnWindow func(w Window)
}

// Window is one matrix: the jobs it takes, in order, its n and its number
// of rows (the largest thread count).
type Window struct {
	At   float64
	Jobs []job.ID
	N    int
	Rows int
}

// ParseWindow reads the window option: "lazy", "eager" or "fixed:N".
func ParseWindow(s string) (Options, error) {
	switch s {
	case "", "lazy":
		return Options{Rule: Lazy}, nil
	case "eager":
		return Options{Rule: Eager}, nil
	}
	if rest, ok := strings.CutPrefix(s, "fixed:"); ok {
		n, err := strconv.Atoi(rest)
		if err != nil || n < 1 || n > MaxFixed {
			return Options{}, fmt.Errorf("window %q: N must be an integer in 1..%d", s, MaxFixed)
		}
		return Options{Rule: Fixed, N: n}, nil
	}
	return Options{}, fmt.Errorf("unknown window %q (want lazy, eager or fixed:N)", s)
}

// String is the option's text.
func (o Options) String() string {
	switch o.Rule {
	case Eager:
		return "eager"
	case Fixed:
		return fmt.Sprintf("fixed:%d", o.N)
	}
	return "lazy"
}

// Size is the number of jobs of the window that starts with the first of
// the waiting jobs whose thread counts are threads (in queue order), by
// the paper's growing rule, and its n: n = threads[0]; the window is the
// first min(n, len) jobs; while one of them has more than n threads, n
// becomes the largest such count. Growing to the first violator or to the
// largest reaches the same n: every step sets n to a count inside the
// least fixed point. It returns 0, 0 for no jobs.
func Size(threads []int) (jobs, n int) {
	if len(threads) == 0 {
		return 0, 0
	}
	n = threads[0]
	w, m := 0, 0 // the window threads[:w] has largest count m
	for {
		for ; w < min(n, len(threads)); w++ {
			m = max(m, threads[w])
		}
		if m <= n {
			return w, n
		}
		n = m
	}
}

// Slot is one thread of a window in emission order: Job is the job's
// index in the window, Thread the thread's 0-based index (the row).
type Slot struct{ Job, Thread int }

// RowOrder lists the threads of a window of jobs with the given thread
// counts in the order the paper's horizontal scan emits them: row by row,
// in job order within a row, skipping jobs with fewer threads. It costs
// the number of threads plus the number of jobs.
func RowOrder(threads []int) []Slot {
	var out []Slot
	emitRows(threads, func(p, r int) { out = append(out, Slot{p, r}) })
	return out
}

// emitRows calls emit(p, r) in row order. The jobs still having threads
// in row r are kept in a list that shrinks as rows pass them.
func emitRows(threads []int, emit func(p, r int)) {
	active := make([]int, 0, len(threads))
	for p, k := range threads {
		if k > 0 {
			active = append(active, p)
		}
	}
	for r := 0; len(active) > 0; r++ {
		keep := active[:0]
		for _, p := range active {
			emit(p, r)
			if threads[p] > r+1 {
				keep = append(keep, p)
			}
		}
		active = keep
	}
}

// waiting is a job not yet in a window: its threads first .. first+k-1.
type waiting struct {
	id     job.ID
	submit float64
	first  int
	k      int
}

// thread is an entry of the thread queue.
type thread struct {
	id         job.ID
	submit     float64
	backfilled bool
}

// Matrix is the policy. Build it with New.
type Matrix struct {
	opt Options
	q   []waiting // jobs not yet in a window, in arrival order; q[qh:] live
	qh  int
	t   []thread // the thread queue; t[th:] waiting
	th  int
	// scratch
	ks   []int
	pm   []int
	ids  []job.ID
	name string
}

// New returns the policy with options o.
func New(o Options) (*Matrix, error) {
	if o.Rule > Fixed {
		return nil, fmt.Errorf("matrix: unknown window rule %d", o.Rule)
	}
	if o.Rule == Fixed && (o.N < 1 || o.N > MaxFixed) {
		return nil, fmt.Errorf("matrix: window fixed:%d: N must be in 1..%d", o.N, MaxFixed)
	}
	return &Matrix{opt: o, name: "matrix"}, nil
}

func (m *Matrix) Name() string { return m.name }

// Submit queues a thread. Consecutive threads of one parent (job.ThreadID)
// form one job; a one-processor job that is not a thread of a split job
// is its own thread 0.
func (m *Matrix) Submit(now float64, j job.Info) {
	parent, r := j.ID.Thread()
	if n := len(m.q); n > m.qh {
		if w := &m.q[n-1]; w.id == parent && w.first+w.k == r && w.submit == j.Submit {
			w.k++
			return
		}
	}
	if m.qh > 0 && m.qh == len(m.q) {
		m.q, m.qh = m.q[:0], 0
	}
	m.q = append(m.q, waiting{id: parent, submit: j.Submit, first: r, k: 1})
}

func (m *Matrix) Finish(now float64, id job.ID) {}

// Schedule starts threads in queue order while CPUs are free, forming
// windows as the rule says.
func (m *Matrix) Schedule(now float64, v policy.Machines, plan *policy.Plan) {
	free := v.Free(0)
	if m.opt.Rule == Eager {
		for m.qh < len(m.q) {
			m.form(now)
		}
	}
	for free > 0 {
		if m.th == len(m.t) {
			if m.qh == len(m.q) {
				break
			}
			m.form(now)
			continue
		}
		e := &m.t[m.th]
		m.th++
		reason := job.Reserved
		switch {
		case e.backfilled:
			reason = job.Backfilled
		case now == e.submit:
			reason = job.Immediate
		}
		plan.Start(e.id, reason)
		free--
	}
	switch {
	case m.th == len(m.t):
		m.t, m.th = m.t[:0], 0
	case m.th >= 4096 && m.th*2 >= len(m.t):
		n := copy(m.t, m.t[m.th:])
		m.t, m.th = m.t[:n], 0
	}
	if m.qh == len(m.q) {
		m.q, m.qh = m.q[:0], 0
	}
}

// form takes the next window off the job queue and appends its threads
// to the thread queue in row order.
func (m *Matrix) form(now float64) {
	live := m.q[m.qh:]
	var w, n int
	if m.opt.Rule == Fixed {
		w, n = min(m.opt.N, len(live)), m.opt.N
	} else {
		// Size on the live jobs, without copying more than the window:
		// the growing rule only ever looks at a prefix.
		n = live[0].k
		mx := 0
		for {
			for ; w < min(n, len(live)); w++ {
				mx = max(mx, live[w].k)
			}
			if mx <= n {
				break
			}
			n = mx
		}
	}
	win := live[:w]
	m.ks, m.pm = m.ks[:0], m.pm[:0]
	rows, before := 0, 0
	for _, j := range win {
		m.ks = append(m.ks, j.k)
		m.pm = append(m.pm, before) // the largest count of the jobs before it
		before = max(before, j.k)
		rows = max(rows, j.k)
	}
	emitRows(m.ks, func(p, r int) {
		j := &win[p]
		// Earlier jobs of the window with more than r+1 threads still have
		// threads behind this one in the queue.
		m.t = append(m.t, thread{id: job.ThreadID(j.id, j.first+r), submit: j.submit, backfilled: m.pm[p] > r+1})
	})
	if m.opt.OnWindow != nil {
		m.ids = m.ids[:0]
		for _, j := range win {
			m.ids = append(m.ids, j.id)
		}
		m.opt.OnWindow(Window{At: now, Jobs: m.ids, N: n, Rows: rows})
	}
	m.qh += w
}

// SetOnWindow sets the function told of every window formed, by its
// time and head job (nil: none): policy.WindowReporter, which a runner
// that built the policy by name uses to find the windows' head jobs. It
// replaces Options.OnWindow.
func (m *Matrix) SetOnWindow(f func(now float64, head job.ID)) {
	if f == nil {
		m.opt.OnWindow = nil
		return
	}
	m.opt.OnWindow = func(w Window) { f(w.At, w.Jobs[0]) }
}

var _ policy.WindowReporter = (*Matrix)(nil)
