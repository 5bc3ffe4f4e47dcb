//go:build cgo

package main

/*
#include <stdint.h>
#include <stdlib.h>
#include <pthread.h>

// The view of one instant, filled by sl_step and sl_fill. The caller
// owns the buffers and gives their capacities (in elements); the counts
// are the full ones, so a count above a capacity means "grow the buffer
// and call sl_fill".
typedef struct {
	double now;
	int64_t flags;       // SL_BEGINS | SL_CALL | SL_ENDS
	int64_t running;     // jobs started and not ended
	int64_t queued;      // waiting jobs
	int64_t submitted;   // JOB_SUBMITTED since the last request
	int64_t completed;   // JOB_COMPLETED since the last request
	int64_t machines;
	int64_t cap_machines;
	int64_t *free;       // idle CPUs per machine
	int64_t cap_queue;   // the queue in order (submit time, then id)
	int64_t *queue_id;
	int64_t *queue_res;
	double *queue_walltime; // the estimate
	double *queue_subtime;
	int64_t cap_submitted;
	double *submitted_jobs; // SL_JOB_FIELDS per job: id, subtime, res, walltime, user, group, mem, speed, bm_est, deadline
	int64_t cap_completed;
	int64_t *completed_id;
} sl_view;

enum { SL_BEGINS = 1, SL_CALL = 2, SL_ENDS = 4, SL_JOB_FIELDS = 10 };

// The Gymnasium environment's side of a run driven by sl_gym_start and
// sl_gym_step (package cmd/libschedlab/gym): its shape and scales and
// the caller's buffers for the observation and the action mask (in,
// given to sl_gym_start; the structure and the buffers are kept by the
// caller until the run ends), the instant's time, whether the action
// was replaced and the failure (out).
typedef struct {
	int64_t window;      // slots, >= 1
	double time_scale;   // seconds that map to 1 (estimate, waited)
	double queue_scale;  // waiting jobs that map to 1
	float *obs;          // window * SL_GYM_FEATURES + SL_GYM_MACHINE_FEATURES
	int8_t *mask;        // window
	double now;          // the instant's time (at the end, the last one's)
	int64_t replaced;    // sl_gym_step: 1 if the action was not legal
	char *err;           // status -1: schedlab's message (free it with sl_free)
	char *features;      // in: the observation's feature names, comma-separated (NULL or "": the default)
} sl_gym;

enum { SL_GYM_FEATURES = 5, SL_GYM_MACHINE_FEATURES = 3 };

static uintptr_t sl_thread(void) { return (uintptr_t)pthread_self(); }
*/
import "C"

import (
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"runtime/cgo"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/schedlab/schedlab/cmd/libschedlab/gym"
	"github.com/schedlab/schedlab/cmd/libschedlab/inproc"
	"github.com/schedlab/schedlab/experiment"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/metrics/energy"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/policy/external"
)

// handle is one simulation behind a cgo.Handle: the C side holds the
// number, never a Go pointer.
type handle struct {
	sim     *inproc.Sim
	thread  C.uintptr_t // the thread that opened it (the coroutine needs it)
	starts  []external.Exec
	rejects []job.ID
	stepped bool     // sl_step was called
	gym     *gym.Env // set by sl_gym_start: the run is driven by sl_gym_step only
	g       *C.sl_gym
	// unbound: the run's coroutine was made on a goroutine not locked
	// to a thread (sl_open's "unbound"), so that sl_gym_vstep can step
	// it on a worker goroutine; it is then only ever resumed from such
	// goroutines (do), never from the caller's (a cgo callback's,
	// locked to its C thread: Go's coroutines refuse the switch).
	unbound bool
	// nodes is the run spec's node groups (nil: a pool of CPUs), and
	// power its power model ("": none), for sl_gym_start's environment
	nodes []string
	power string
}

// do runs f where the run's coroutine may be resumed: here for a run
// made on the caller's thread, else on a new goroutine, waiting for it
// (a panic of f is re-raised here, where caught turns it into status -1).
func (s *handle) do(f func()) {
	if !s.unbound {
		f()
		return
	}
	var p any
	done := make(chan struct{})
	go func() {
		defer func() { p = recover(); close(done) }()
		f()
	}()
	<-done
	if p != nil {
		panic(p)
	}
}

// Statuses of the calls that drive a run, besides 1 (an instant) and 0
// (the end): statusFailed, the run failed or h is not an open handle
// (the run is over); statusRefused, the call was refused and did
// nothing (another thread than the one that opened the run, a call of
// the other mode, bad sl_gym buffers): the run is as it was, and its
// thread may go on; statusNoSim, sl_gym_step's h is not an open handle.
const (
	statusFailed  = -1
	statusRefused = -3
	statusNoSim   = -4
)

// noSim is the failure of a call on a handle not open: 0, or one
// already closed (by sl_close, which the Python package calls at the
// end of a run).
const noSim = "schedlab: no such simulation (closed, or never opened)"

// lookup is the simulation of h, nil when h is not an open handle (0, or
// closed by sl_close): cgo.Handle.Value panics on such a number, a panic
// that would abort the caller's process if it crossed the C boundary.
func lookup(h C.uintptr_t) (s *handle) {
	if h == 0 {
		return nil
	}
	defer func() {
		if recover() != nil {
			s = nil
		}
	}()
	s, _ = cgo.Handle(h).Value().(*handle)
	return s
}

// onThread reports whether the calling thread may drive the run; if not,
// *err says why.
func (s *handle) onThread(err **C.char) bool {
	if C.sl_thread() != s.thread {
		*err = C.CString("schedlab: a simulation in process is driven from the thread that opened it (its engine is a coroutine of that thread)")
		return false
	}
	return true
}

// caught turns a panic of the run into status -1 and *err; deferred
// first by the functions that run the simulation, so that everything
// they do, the handle's lookup included, is inside it.
func caught(status *C.int, err **C.char) {
	if p := recover(); p != nil {
		*err = C.CString(fmt.Sprintf("schedlab: internal error (a bug; please report it): %v", p))
		*status = -1
	}
}

// rejectMachine as a decision's machine rejects the job instead of
// starting it (the protocol's REJECT_JOB).
const rejectMachine = -1

// sl_open prepares a run given as JSON: {"spec": an experiment.RunSpec
// in its JSON form (workload, platform, policy with name "external",
// outputs), "json": true to have the run print its summary as JSON (as
// 'schedlab run --json') instead of the table, "unbound": true to make
// the run's coroutine on a goroutine of its own rather than the calling
// thread's, so that sl_gym_vstep may step it on any of its goroutines
// (every call that resumes it then waits for a goroutine it starts)}. It returns the handle,
// or 0 with *err set (free it with sl_free). Nothing runs before the
// first sl_step.
//
//export sl_open
func sl_open(specJSON *C.char, err **C.char) C.uintptr_t {
	var in struct {
		Spec    experiment.RunSpec `json:"spec"`
		JSON    bool               `json:"json"`
		Unbound bool               `json:"unbound"`
	}
	dec := json.NewDecoder(strings.NewReader(C.GoString(specJSON)))
	dec.DisallowUnknownFields()
	if e := dec.Decode(&in); e != nil {
		*err = C.CString(fmt.Sprintf("sl_open: not a run spec (JSON {\"spec\": {...}, \"json\": bool}): %v", e))
		return 0
	}
	s := &handle{thread: C.sl_thread(), unbound: in.Unbound, nodes: in.Spec.Platform.Nodes, power: in.Spec.Platform.Power}
	if in.Unbound {
		done := make(chan struct{})
		go func() { s.sim = inproc.Start(in.Spec, in.JSON); close(done) }()
		<-done
	} else {
		s.sim = inproc.Start(in.Spec, in.JSON)
	}
	return C.uintptr_t(cgo.NewHandle(s))
}

// sl_step gives the run the decision for the current instant (n starts:
// ids[k], on machine machines[k] (machines NULL: all 0; -1 rejects the
// job instead: it leaves the queue and never starts), on the CPUs
// allocs[k] in Batsim's interval syntax (allocs or allocs[k] NULL: the
// lowest free ones); wake > 0 asks for a call at that time) and runs to
// the next instant, whose view it writes to *v. The first call gives no
// decision (n = 0). It returns 1 at an instant, 0 at the end of the run
// (sl_stdout has its output), -1 on a failure or for a handle not open
// (*err: schedlab's message, to free with sl_free; the run is over),
// -3 when the call is refused (*err says why: another thread than the
// one that opened the run, or a run driven by sl_gym_step): nothing
// was done, the run goes on with the next call from its thread.
//
//export sl_step
func sl_step(h C.uintptr_t, n C.int64_t, ids *C.int64_t, machines *C.int64_t, allocs **C.char, wake C.double, v *C.sl_view, err **C.char) (status C.int) {
	defer caught(&status, err)
	return step(h, n, ids, machines, allocs, nil, wake, v, err)
}

// sl_step_nodes is sl_step on a platform of nodes: nodes[k] (nodes or
// nodes[k] NULL: none) is the nodes start k takes, the JSON of the
// protocol's EXECUTE_JOB "nodes" list (docs/protocol.md, "On a platform
// of nodes": node names, or objects {"node", "tasks", "cores", "gres"}),
// read and validated by the code that reads a reply's; a start without
// nodes is placed by the engine's selection rule (machines and allocs
// must then be NULL or 0 and NULL for it, as the protocol's). On a pool
// of CPUs a start that names nodes fails the run (-1).
//
//export sl_step_nodes
func sl_step_nodes(h C.uintptr_t, n C.int64_t, ids *C.int64_t, machines *C.int64_t, allocs **C.char, nodes **C.char, wake C.double, v *C.sl_view, err **C.char) (status C.int) {
	defer caught(&status, err)
	return step(h, n, ids, machines, allocs, nodes, wake, v, err)
}

// step is sl_step and sl_step_nodes.
func step(h C.uintptr_t, n C.int64_t, ids *C.int64_t, machines *C.int64_t, allocs, nodesJSON **C.char, wake C.double, v *C.sl_view, err **C.char) C.int {
	s := lookup(h)
	if s == nil {
		*err = C.CString(noSim)
		return statusFailed
	}
	if !s.onThread(err) {
		return statusRefused
	}
	if s.gym != nil {
		*err = C.CString("schedlab: sl_step on a run driven by sl_gym_step")
		return statusRefused
	}
	s.stepped = true
	s.starts, s.rejects = s.starts[:0], s.rejects[:0]
	if n > 0 {
		idv := unsafe.Slice((*int64)(unsafe.Pointer(ids)), int(n))
		var mv []int64
		if machines != nil {
			mv = unsafe.Slice((*int64)(unsafe.Pointer(machines)), int(n))
		}
		var av, nv []*C.char
		if allocs != nil {
			av = unsafe.Slice(allocs, int(n))
		}
		if nodesJSON != nil {
			nv = unsafe.Slice(nodesJSON, int(n))
		}
		for k, id := range idv {
			if mv != nil && mv[k] == rejectMachine {
				s.rejects = append(s.rejects, job.ID(id))
				continue
			}
			e := external.Exec{ID: job.ID(id)}
			if mv != nil {
				e.Machine = int(mv[k])
			}
			if av != nil && av[k] != nil {
				e.Alloc = C.GoString(av[k])
			}
			if nv != nil && nv[k] != nil {
				if r := s.sim.Request(); r != nil && !r.Ends && r.Nodes == nil {
					*err = C.CString(fmt.Sprintf("schedlab: policy external at t=%g: %s: job %d names nodes, but the platform is a pool of CPUs (no --nodes)", r.Now, startWhere(k), id))
					s.do(s.sim.Close)
					return statusFailed
				}
				e.NodesJSON = []byte(C.GoString(nv[k]))
			}
			s.starts = append(s.starts, e)
		}
	}
	var r *external.Request
	var e error
	s.do(func() {
		r, e = s.sim.Next(external.Decision{Starts: s.starts, Rejects: s.rejects, Wake: float64(wake)})
	})
	switch {
	case e != nil:
		*err = C.CString(e.Error())
		return statusFailed
	case r == nil:
		return 0
	}
	fill(r, v)
	return 1
}

// startWhere names start k of a decision, as the engine's messages do.
func startWhere(k int) string { return fmt.Sprintf("start %d of the decision", k+1) }

// sl_nodes_view is what the current instant's request says of the
// nodes, on a platform of nodes, as the protocol's JSON
// (external.NodeViewJSON): {"node_groups": [...] (at the first instant
// only), "nodes": [...] (the nodes whose free amounts changed since the
// last instant), "req": [...] (the request of each job submitted since
// the last instant, in the order of sl_view's submitted_jobs)}; free it
// with sl_free. NULL on a pool of CPUs, when there is no current
// instant, or for a handle not open.
//
//export sl_nodes_view
func sl_nodes_view(h C.uintptr_t) (out *C.char) {
	defer func() {
		if recover() != nil { // (a guard, as recovered)
			out = nil
		}
	}()
	s := lookup(h)
	if s == nil {
		return nil
	}
	r := s.sim.Request()
	if r == nil || r.Nodes == nil {
		return nil
	}
	return C.CString(string(external.NodeViewJSON(r)))
}

// sl_gym_start makes the run of h (not stepped yet) a Gymnasium
// episode (package cmd/libschedlab/gym) of the shape and buffers of *g,
// which the caller keeps until the run ends: it runs to the first
// instant at which some job of the window fits, writes its observation
// and mask to g's buffers and its time to g->now, and returns 1; 0 if
// the run ended before (sl_stdout has its output), -1 on a failure or
// for a handle not open (g->err, as sl_step's err), -3 when the call is
// refused (g->err says why: another thread, a run already stepped, a
// window, scale or buffer not valid): nothing was done. From then on
// the run is driven by sl_gym_step alone.
//
//export sl_gym_start
func sl_gym_start(h C.uintptr_t, g *C.sl_gym) (status C.int) {
	if g == nil { // (no g->err to say it in)
		return statusFailed
	}
	g.err = nil
	defer caught(&status, &g.err)
	s, env, st := gymPrepare(h, g)
	if env == nil {
		return st
	}
	var ok bool
	var e error
	s.do(func() { ok, e = env.Start() })
	return gymStatus(env, ok, e, g)
}

// gymPrepare is sl_gym_start's checks and the Env it makes on h's run
// (nil, and the status to return with g->err set, when refused).
func gymPrepare(h C.uintptr_t, g *C.sl_gym) (*handle, *gym.Env, C.int) {
	s := lookup(h)
	if s == nil {
		g.err = C.CString(noSim)
		return nil, nil, statusFailed
	}
	if !s.onThread(&g.err) {
		return nil, nil, statusRefused
	}
	if s.stepped || s.gym != nil {
		g.err = C.CString("schedlab: sl_gym_start on a run already stepped")
		return nil, nil, statusRefused
	}
	w := int(g.window)
	if w < 1 || g.obs == nil || g.mask == nil {
		g.err = C.CString(fmt.Sprintf("schedlab: sl_gym_start: window %d (want >= 1) and both buffers", w))
		return nil, nil, statusRefused
	}
	var names []string
	if g.features != nil {
		if f := C.GoString(g.features); f != "" {
			names = strings.Split(f, ",")
		}
	}
	cfg := gym.Config{Window: w, TimeScale: float64(g.time_scale), QueueScale: float64(g.queue_scale), Features: names}
	shape, e := gymShape(s.nodes, names, w)
	if e != nil {
		g.err = C.CString(e.Error())
		return nil, nil, statusRefused
	}
	cfg.Nodes = shape.ns
	if s.power != "" {
		p, e := energy.ParsePower(s.power)
		if e != nil {
			g.err = C.CString("schedlab: power: " + e.Error())
			return nil, nil, statusRefused
		}
		cfg.Power = &[2]float64{p.IdleW, p.ComputeW}
	}
	obs := unsafe.Slice((*float32)(unsafe.Pointer(g.obs)), shape.Size)
	mask := unsafe.Slice((*int8)(unsafe.Pointer(g.mask)), w)
	env, e := gym.New(s.sim, cfg, obs, mask)
	if e != nil {
		g.err = C.CString(e.Error())
		return nil, nil, statusRefused
	}
	s.gym, s.g = env, g
	return s, env, 0
}

// sl_gym_vstart is sl_gym_start of n runs in one call: run handles[k]
// with gyms[k], its status in status[k] (as sl_gym_start's; a message
// in gyms[k]->err). The unbound runs (sl_open) are started on up to
// GOMAXPROCS goroutines, the others in turn on the caller's thread, as
// sl_gym_vstep steps them. It returns the
// number of runs whose status is not 1.
//
//export sl_gym_vstart
func sl_gym_vstart(n C.int64_t, handles *C.uintptr_t, gyms **C.sl_gym, status *C.int32_t) (bad C.int64_t) {
	if n <= 0 {
		return 0
	}
	hs, gs := unsafe.Slice(handles, int(n)), unsafe.Slice(gyms, int(n))
	st := unsafe.Slice((*int32)(unsafe.Pointer(status)), int(n))
	envs := make([]*gym.Env, n)
	var par []int
	start := func(k int) {
		g := gs[k]
		var code C.int
		func() {
			defer caught(&code, &g.err)
			ok, e := envs[k].Start()
			code = gymStatus(envs[k], ok, e, g)
		}()
		st[k] = int32(code)
	}
	for k, h := range hs {
		g := gs[k]
		if g == nil {
			st[k] = statusFailed
			continue
		}
		g.err = nil
		var s *handle
		var code C.int
		func() {
			defer caught(&code, &g.err)
			s, envs[k], code = gymPrepare(h, g)
		}()
		switch {
		case envs[k] == nil:
			st[k] = int32(code)
		case s.unbound:
			par = append(par, k)
		default:
			start(k)
		}
	}
	parallel(par, start)
	for k := range st {
		if st[k] != 1 {
			bad++
		}
	}
	return bad
}

// parallel calls f(k) once for each k of ks on up to GOMAXPROCS
// goroutines, and waits for them. Each goroutine takes the next k not
// taken yet (so that one whose thread the system holds back does not
// hold the others' share); f(k) for different k must touch different
// data, which makes the result independent of which goroutine ran it.
func parallel(ks []int, f func(int)) {
	if len(ks) == 0 {
		return
	}
	workers := min(runtime.GOMAXPROCS(0), len(ks))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(ks) {
					return
				}
				f(ks[i])
			}
		}()
	}
	wg.Wait()
}

// sl_gym_step starts the job of slot action of a run started by
// sl_gym_start (an action not legal is replaced by the first legal slot:
// g->replaced 1) and runs to the next decision: it returns 1 with its
// observation, mask and time written to the sl_gym given to
// sl_gym_start, 0 at the end of the run (sl_stdout has its output;
// g->now is the last instant's time), -1 on a failure (g->err, as
// sl_step's err), -2 for a run not started by sl_gym_start, -3 when the
// call is refused (another thread than the one that opened the run:
// g->err; nothing was done), -4 for a handle not open. Two arguments,
// so that a call from Python's ctypes is cheap.
//
//export sl_gym_step
func sl_gym_step(h C.uintptr_t, action C.int) (status C.int) {
	s := lookup(h)
	if s == nil {
		return statusNoSim
	}
	g := s.g
	if g == nil {
		return -2
	}
	g.err = nil
	defer caught(&status, &g.err)
	if !s.onThread(&g.err) {
		return statusRefused
	}
	var ok, replaced bool
	var e error
	s.do(func() { ok, replaced, e = s.gym.Step(int(action)) })
	g.replaced = 0
	if replaced {
		g.replaced = 1
	}
	return gymStatus(s.gym, ok, e, g)
}

// sl_gym_vstep steps n runs started by sl_gym_start in one call: run
// handles[k] starts the job of slot actions[k], as sl_gym_step. Runs
// opened with "unbound" (sl_open) are shared out among up to GOMAXPROCS
// goroutines, each stepping one run at a time, taking the next run not
// taken yet (a run is never stepped by two at once, and no run's
// simulation uses more than one);
// the others are stepped in turn on the caller's thread. The result is
// the same either way: each step touches its own run and buffers only. For each k it writes status[k] (sl_gym_step's status;
// the message of a -1 or -3 is in that run's g->err), replaced[k],
// now[k] (the instant's time, as g->now) and wait[k] (the wait, now -
// submit time, of the job the step started; 0 when status[k] < 0).
// The observations and masks go to each run's own buffers, given to
// its sl_gym_start. It returns the number of runs whose status is not
// 1 (ended, failed or refused).
//
//export sl_gym_vstep
func sl_gym_vstep(n C.int64_t, handles *C.uintptr_t, actions *C.int64_t, status *C.int32_t, replaced *C.int8_t, now, wait *C.double) (bad C.int64_t) {
	if n <= 0 {
		return 0
	}
	hs := unsafe.Slice(handles, int(n))
	as := unsafe.Slice((*int64)(unsafe.Pointer(actions)), int(n))
	st := unsafe.Slice((*int32)(unsafe.Pointer(status)), int(n))
	rp := unsafe.Slice((*int8)(unsafe.Pointer(replaced)), int(n))
	nw := unsafe.Slice((*float64)(unsafe.Pointer(now)), int(n))
	wt := unsafe.Slice((*float64)(unsafe.Pointer(wait)), int(n))
	// each run's step writes only its own row, so the order in which
	// runs are stepped changes nothing: the unbound ones are shared out
	// among up to GOMAXPROCS goroutines (parallel)
	var par []int
	for k, h := range hs {
		rp[k], nw[k], wt[k] = 0, 0, 0
		s := lookup(h)
		switch {
		case s == nil:
			st[k] = statusNoSim
		case s.g == nil:
			st[k] = -2
		case !s.onThread(&s.g.err):
			st[k] = statusRefused
		case s.unbound:
			par = append(par, k)
		default:
			vstepOne(s, as[k], st[k:], rp[k:], nw[k:], wt[k:])
		}
	}
	parallel(par, func(k int) { vstepOne(lookup(hs[k]), as[k], st[k:], rp[k:], nw[k:], wt[k:]) })
	for k := range st {
		if st[k] != 1 {
			bad++
		}
	}
	return bad
}

// vstepOne is sl_gym_step's step of s for sl_gym_vstep, on the
// goroutine that calls it, writing the results to the first element of
// each slice (a panic is the run's failure: status -1).
func vstepOne(s *handle, a int64, st []int32, rp []int8, nw, wt []float64) {
	g := s.g
	g.err = nil
	var status C.int
	func() {
		defer caught(&status, &g.err)
		if a < -1 || a > math.MaxInt32 {
			a = -1 // (replaced by the first legal slot)
		}
		ok, replaced, e := s.gym.Step(int(a))
		g.replaced = 0
		if replaced {
			g.replaced = 1
		}
		status = gymStatus(s.gym, ok, e, g)
	}()
	st[0], rp[0], nw[0] = int32(status), int8(g.replaced), float64(g.now)
	if status >= 0 {
		wt[0] = s.gym.Wait()
	}
}

// shape is the observation's layout for a window on a platform: the
// features' names in the observation's order (slot, machine, node),
// the numbers per slot and per node, the nodes' names and the GRES
// kinds (per-kind features take one number per kind, in this order).
type shape struct {
	Size      int      `json:"size"`
	Slot      []string `json:"slot"`
	Machine   []string `json:"machine"`
	Node      []string `json:"node"`
	SlotWidth int      `json:"slot_width"`
	NodeWidth int      `json:"node_width"`
	Nodes     []string `json:"nodes"`
	Kinds     []string `json:"kinds"`
	ns        *nodes.Nodes
}

// gymShape is the layout of the features names (empty: the default) for
// a window on the node groups groups (none: a pool of CPUs), parsed as
// the run parses them.
func gymShape(groups, names []string, window int) (shape, error) {
	var sh shape
	if len(groups) > 0 {
		ns, err := experiment.ParseNodes(groups)
		if err != nil {
			return sh, fmt.Errorf("schedlab: nodes: %w", err)
		}
		sh.ns = ns
	}
	lay, err := gym.ParseFeaturesOn(names, sh.ns != nil)
	if err != nil {
		return sh, err
	}
	kinds := 0
	sh.Nodes, sh.Kinds = []string{}, []string{}
	if sh.ns != nil {
		for _, k := range sh.ns.Kinds() {
			sh.Kinds = append(sh.Kinds, k.String())
		}
		for id := range sh.ns.Len() {
			sh.Nodes = append(sh.Nodes, sh.ns.Name(id))
		}
		kinds = len(sh.Kinds)
	}
	for _, l := range []struct {
		ks  []int
		out *[]string
	}{{lay.Slot, &sh.Slot}, {lay.Machine, &sh.Machine}, {lay.Node, &sh.Node}} {
		*l.out = []string{}
		for _, k := range l.ks {
			*l.out = append(*l.out, gym.Declared[k].Name)
		}
	}
	sh.SlotWidth, sh.NodeWidth = lay.SlotWidth(kinds), lay.NodeWidth(kinds)
	sh.Size = lay.SizeOn(window, len(sh.Nodes), kinds)
	return sh, nil
}

// sl_gym_shape is the observation's layout, as JSON, of the
// environment given as JSON {"nodes": [node groups, as run --nodes] (none
// or empty: a pool of CPUs), "features": [names] (none or empty: the
// default), "window": slots}: {"size": the observation's length, "slot",
// "machine", "node": the features' names in the observation's order,
// "slot_width" and "node_width": the numbers of one slot and of one
// node (a per-kind feature takes one number per GRES kind), "nodes":
// the nodes' names in id order, "kinds": the platform's GRES kinds, in
// the order of the per-kind numbers}, or {"error": why}. Free it with
// sl_free.
//
//export sl_gym_shape
func sl_gym_shape(in *C.char) *C.char {
	var q struct {
		Nodes    []string `json:"nodes"`
		Features []string `json:"features"`
		Window   int      `json:"window"`
	}
	var out any
	dec := json.NewDecoder(strings.NewReader(C.GoString(in)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&q); err != nil {
		out = map[string]string{"error": fmt.Sprintf("sl_gym_shape: not {\"nodes\", \"features\", \"window\"}: %v", err)}
	} else if q.Window < 1 {
		out = map[string]string{"error": fmt.Sprintf("sl_gym_shape: window %d (want >= 1)", q.Window)}
	} else if sh, err := gymShape(q.Nodes, q.Features, q.Window); err != nil {
		out = map[string]string{"error": err.Error()}
	} else {
		out = sh
	}
	b, _ := json.Marshal(out)
	return C.CString(string(b))
}

// sl_gym_features is the declared observation features as JSON
// ({"features": [{"name", "slot", "node", "meaning", "scale",
// "nodes_only", "per_kind"}, ...] (those of any platform: per slot and
// for the machine), "node_features": [the same, those of a platform of
// nodes only: per slot, and per node ("node" true)], "default": [names],
// "default_nodes": [names, on a platform of nodes]}); free it with
// sl_free.
//
//export sl_gym_features
func sl_gym_features() *C.char {
	type feat struct {
		Name      string `json:"name"`
		Slot      bool   `json:"slot"`
		Node      bool   `json:"node"`
		Meaning   string `json:"meaning"`
		Scale     string `json:"scale"`
		NodesOnly bool   `json:"nodes_only"`
		PerKind   bool   `json:"per_kind"`
	}
	var out struct {
		Features     []feat   `json:"features"`
		NodeFeatures []feat   `json:"node_features"`
		Default      []string `json:"default"`
		DefaultNodes []string `json:"default_nodes"`
	}
	for _, f := range gym.Declared {
		x := feat{f.Name, f.Slot, f.Node, f.Meaning, f.Scale, f.NodesOnly, f.PerKind}
		if f.NodesOnly {
			out.NodeFeatures = append(out.NodeFeatures, x)
		} else {
			out.Features = append(out.Features, x)
		}
	}
	out.Default, out.DefaultNodes = gym.DefaultFeatures, gym.DefaultNodeFeatures
	b, _ := json.Marshal(out)
	return C.CString(string(b))
}

func gymStatus(env *gym.Env, ok bool, e error, g *C.sl_gym) C.int {
	g.now = C.double(env.Now())
	switch {
	case e != nil:
		g.err = C.CString(e.Error())
		return statusFailed
	case !ok:
		return 0
	}
	return 1
}

// sl_fill writes the current instant's view to *v again (after the
// caller grew its buffers). It returns 1, 0 when there is no current
// instant, -1 for a handle not open.
//
//export sl_fill
func sl_fill(h C.uintptr_t, v *C.sl_view) (status C.int) {
	defer recovered(&status)
	s := lookup(h)
	if s == nil {
		return -1
	}
	r := s.sim.Request()
	if r == nil {
		return 0
	}
	fill(r, v)
	return 1
}

// recovered turns a panic into status -1, for the calls with no message
// to give (a guard: lookup recovers from a handle not open, and these
// calls do not run the simulation).
func recovered[T C.int | C.int64_t](status *T) {
	if recover() != nil {
		*status = -1
	}
}

func fill(r *external.Request, v *C.sl_view) {
	v.now = C.double(r.Now)
	var flags C.int64_t
	if r.Begins {
		flags |= C.SL_BEGINS
	}
	if r.RequestedCall {
		flags |= C.SL_CALL
	}
	if r.Ends {
		flags |= C.SL_ENDS
	}
	v.flags = flags
	v.running = C.int64_t(r.Running)
	v.queued = C.int64_t(len(r.Waiting))
	v.submitted = C.int64_t(len(r.Submitted))
	v.completed = C.int64_t(len(r.Completed))
	v.machines = C.int64_t(len(r.Free))
	if m := min(len(r.Free), int(v.cap_machines)); m > 0 {
		free := unsafe.Slice((*int64)(unsafe.Pointer(v.free)), m)
		for k := range free {
			free[k] = int64(r.Free[k])
		}
	}
	if q := min(len(r.Waiting), int(v.cap_queue)); q > 0 {
		id := unsafe.Slice((*int64)(unsafe.Pointer(v.queue_id)), q)
		res := unsafe.Slice((*int64)(unsafe.Pointer(v.queue_res)), q)
		wt := unsafe.Slice((*float64)(unsafe.Pointer(v.queue_walltime)), q)
		sub := unsafe.Slice((*float64)(unsafe.Pointer(v.queue_subtime)), q)
		for k := range id {
			j := &r.Waiting[k]
			id[k], res[k], wt[k], sub[k] = int64(j.ID), int64(j.Procs), j.Estimate, j.Submit
		}
	}
	if n := min(len(r.Submitted), int(v.cap_submitted)); n > 0 && v.submitted_jobs != nil {
		f := unsafe.Slice((*float64)(unsafe.Pointer(v.submitted_jobs)), n*C.SL_JOB_FIELDS)
		for k := range n {
			j := &r.Submitted[k]
			copy(f[k*C.SL_JOB_FIELDS:], []float64{float64(j.ID), j.Submit, float64(j.Procs), j.Estimate,
				float64(j.User), float64(j.Group), j.Mem, j.Speed, j.BMEst, j.Deadline})
		}
	}
	if n := min(len(r.Completed), int(v.cap_completed)); n > 0 && v.completed_id != nil {
		c := unsafe.Slice((*int64)(unsafe.Pointer(v.completed_id)), n)
		for k := range c {
			c[k] = int64(r.Completed[k])
		}
	}
}

// sl_machines writes the platform's machines (at most capacity) of the
// current instant's run: CPUs, first CPU id, speed, memory per CPU. It
// returns their number, 0 when there is no current instant, -1 for a
// handle not open.
//
//export sl_machines
func sl_machines(h C.uintptr_t, capacity C.int64_t, cpus, first *C.int64_t, speed, mem *C.double) (count C.int64_t) {
	defer recovered(&count)
	s := lookup(h)
	if s == nil {
		return -1
	}
	r := s.sim.Request()
	if r == nil {
		return 0
	}
	p := r.Platform
	n := min(p.Machines(), int(capacity))
	if n > 0 {
		c := unsafe.Slice((*int64)(unsafe.Pointer(cpus)), n)
		f := unsafe.Slice((*int64)(unsafe.Pointer(first)), n)
		s := unsafe.Slice((*float64)(unsafe.Pointer(speed)), n)
		m := unsafe.Slice((*float64)(unsafe.Pointer(mem)), n)
		for k := range n {
			mach := p.Machine(k)
			c[k], f[k], s[k], m[k] = int64(mach.CPUs), int64(p.First(k)), mach.BM(), mach.Mem
		}
	}
	return C.int64_t(p.Machines())
}

// sl_stdout is what the run printed (with --json, its result as JSON);
// free it with sl_free. NULL for a handle not open.
//
//export sl_stdout
func sl_stdout(h C.uintptr_t) (out *C.char) {
	defer func() {
		if recover() != nil { // (a guard, as recovered)
			out = nil
		}
	}()
	s := lookup(h)
	if s == nil {
		return nil
	}
	return C.CString(s.sim.Stdout())
}

// sl_close ends the run (a run not at its end fails, removing the output
// it was writing) and frees the handle. From another thread than the
// one that opened it, the run cannot be resumed to end it: it is left
// suspended (its memory is not freed). On a handle not open (0, or
// closed already) it does nothing.
//
//export sl_close
func sl_close(h C.uintptr_t) {
	defer func() { recover() }() // (a guard, as recovered: Close recovers the run's panics)
	s := lookup(h)
	if s == nil {
		return
	}
	if C.sl_thread() == s.thread {
		s.do(s.sim.Close)
	}
	cgo.Handle(h).Delete()
}

// sl_free frees a string this library returned.
//
//export sl_free
func sl_free(p *C.char) { C.free(unsafe.Pointer(p)) }
