package external

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
)

// Protocol names this protocol and its version in SIMULATION_BEGINS.
const Protocol = "schedlab-external/1"

// MaxLine bounds one reply line (bytes): a longer one is an error.
const MaxLine = 64 << 20

// Options configure the policy.
type Options struct {
	Name    string        // the policy's name ("" = "external"; the python policy's "python")
	Command string        // run with /bin/sh -c
	Timeout time.Duration // per reply, and for the exit at the end
	Full    bool          // requests carry the queue and running jobs
	// FDs, when set, are inherited file descriptors to use instead of a
	// command: replies are read from FDs[0], requests written to FDs[1].
	FDs [2]int
	// Decider, when set, makes the decisions in this process instead of
	// a decision process (no command, no FDs, no JSON, no timeout): the
	// shared library through which Python drives the engine
	// (cmd/libschedlab). Its decisions are validated by the same code as
	// a reply's.
	Decider Decider
}

// Decider is the in-process form of the decision process: it gets the
// same requests (one per instant at which a job could start, with the
// events since the last one and the view) and returns the same
// decisions as a reply's EXECUTE_JOB and CALL_ME_LATER events.
type Decider interface {
	// Decide answers one request. r and everything it points to belong
	// to the policy and are valid during the call only. The request
	// with r.Ends set comes after the last instant; its decision is
	// ignored. An error stops the run: the policy fails with it.
	Decide(r *Request) (Decision, error)
}

// Request is a request of the protocol as a Go value (docs/protocol.md:
// SIMULATION_BEGINS is Begins, REQUESTED_CALL RequestedCall,
// SIMULATION_ENDS Ends; the view's free CPUs Free).
type Request struct {
	Now           float64
	Begins        bool // the first request; the platform is Platform
	Ends          bool
	RequestedCall bool
	Submitted     []job.Info // JOB_SUBMITTED since the last request, in order
	Completed     []job.ID   // JOB_COMPLETED since the last request, in order
	Free          []int      // idle CPUs per machine
	// Waiting is the queue in queue order (submit time, then id) and
	// Running the number of jobs started and not ended: the view the
	// events build, given for a decider that does not keep its own.
	Waiting  []job.Info
	Running  int
	Platform platform.Platform
	// On a platform of nodes (NodeClient): Nodes is the engine's view of
	// the nodes now (read-only, valid during the call), Changed the ids
	// of the nodes whose free amounts changed since the last request, in
	// id order (the JSON view's "nodes"), and Free one number, the free
	// cores of all nodes; a job's request is its Req (nil: Procs tasks of
	// one CPU). Both nil on a pool of CPUs.
	Nodes   policy.NodeView
	Changed []int
}

// Decision is a reply as a Go value: the jobs to start now, in order
// (EXECUTE_JOB), the waiting jobs to reject (REJECT_JOB: they leave the
// queue and never start) and a wake-up time (CALL_ME_LATER; 0 is none).
type Decision struct {
	Starts  []Exec
	Rejects []job.ID
	Wake    float64
}

// Exec is one start: the job, its machine and optionally its CPUs in
// Batsim's interval syntax ("" is the lowest free ids).
type Exec struct {
	ID      job.ID
	Machine int
	Alloc   string
	// Nodes, on a platform of nodes: the nodes the job takes (nil: the
	// engine's selection rule places it; Machine and Alloc are then
	// unused and must be zero).
	Nodes []NodeUse
	// NodesJSON, on a platform of nodes, is the nodes in the protocol's
	// form instead: the JSON of an EXECUTE_JOB's "nodes" list (names, or
	// objects {"node", "tasks", "cores", "gres"}), read and validated by
	// the code that reads a reply's (Python's in-process engine gives
	// its starts so). Set at most one of Nodes and NodesJSON.
	NodesJSON []byte
}

// Client is the external policy: the side of the protocol that sends
// each request and applies the reply. Build it with New; Close ends the
// decision process.
type Client struct {
	opt  Options
	plat platform.Platform

	cmd    *exec.Cmd
	stdin  *os.File
	stdout *os.File
	rd     *bufio.Reader
	exited chan error // the process's exit, once
	err    error      // the first failure; every later call does nothing
	began  bool       // the process was started
	ended  bool       // Close ran
	now    float64    // the last request's time

	events  []byte                // the events not sent yet, encoded
	waiting []job.Info            // in queue order: (submit, id)
	queued  map[job.ID]int        // waiting: id -> 1 (present)
	running map[job.ID]runningJob // started, not yet ended
	started []int                 // scratch: indices in the plan
	nrej    int                   // jobs rejected by this decision
	out     []byte                // scratch: the request
	reply   reply                 // scratch: the decoded reply
	data    executeData           // scratch
	runs    []runningEntry        // scratch: the running jobs in id order
	skipped int64                 // instants not sent: empty queue or no free CPU
	wake    float64               // the time of the pending CALL_ME_LATER (0: none)
	req     Request               // scratch, with a Decider: the request
	nd      *nodeSide             // on a platform of nodes (NodeClient); nil on the pool
}

type runningJob struct {
	info    job.Info
	machine int
	start   float64
	estEnd  float64
}

type runningEntry struct {
	id job.ID
	r  runningJob
}

// New returns the policy for plat; nothing is started before the first
// job arrives.
func New(plat platform.Platform, opt Options) *Client {
	if opt.Timeout <= 0 {
		opt.Timeout = 30 * time.Second
	}
	return &Client{opt: opt, plat: plat, queued: map[job.ID]int{}, running: map[job.ID]runningJob{}}
}

// Name is "external", or Options.Name when set.
func (p *Client) Name() string {
	if p.opt.Name != "" {
		return p.opt.Name
	}
	return "external"
}

// Err is the failure that stopped the policy, if any (policy.Failer).
func (p *Client) Err() error { return p.err }

// Submit records the job and its JOB_SUBMITTED event.
func (p *Client) Submit(now float64, j job.Info) {
	if p.err != nil {
		return
	}
	// Queue order is (submit, id); arrivals come in submit order, so the
	// place is found from the end.
	k := len(p.waiting)
	for k > 0 && p.waiting[k-1].Submit == j.Submit && p.waiting[k-1].ID > j.ID {
		k--
	}
	p.waiting = slices.Insert(p.waiting, k, j)
	p.queued[j.ID] = 1
	if p.nd != nil {
		p.nd.reqs[j.ID] = requestOf(&j)
	}
	if p.opt.Decider != nil {
		p.req.Submitted = append(p.req.Submitted, j)
		return
	}
	b := p.eventHead(now, "JOB_SUBMITTED")
	b = append(b, `"data":{"job_id":`...)
	b = strconv.AppendInt(b, int64(j.ID), 10)
	b = append(b, `,"job":`...)
	b = p.appendJob(b, &j)
	p.events = append(b, "}}"...)
}

// Finish records the JOB_COMPLETED event of a job that ended (completed,
// or killed at its requested time: the policy cannot tell them apart,
// like every policy).
func (p *Client) Finish(now float64, id job.ID) {
	if p.err != nil {
		return
	}
	delete(p.running, id)
	if p.nd != nil {
		p.nd.release(id)
	}
	if p.opt.Decider != nil {
		p.req.Completed = append(p.req.Completed, id)
		return
	}
	b := p.eventHead(now, "JOB_COMPLETED")
	b = append(b, `"data":{"job_id":`...)
	b = strconv.AppendInt(b, int64(id), 10)
	p.events = append(b, "}}"...)
}

func (p *Client) eventHead(now float64, typ string) []byte {
	b := p.events
	if len(b) > 0 {
		b = append(b, ',')
	}
	b = append(b, `{"timestamp":`...)
	b = appendFloat(b, now)
	b = append(b, `,"type":"`...)
	b = append(b, typ...)
	return append(b, `",`...)
}

// Schedule sends the request of this instant and applies the reply.
func (p *Client) Schedule(now float64, v policy.Machines, plan *policy.Plan) {
	if p.err != nil {
		return
	}
	p.now = now
	if !p.wakeDue() && (len(p.waiting) == 0 || !anyFree(v, p.plat.Machines())) {
		// Nothing can start: no request. The events wait for the next
		// one (or for SIMULATION_ENDS), with their timestamps.
		p.skipped++
		return
	}
	if p.opt.Decider != nil {
		p.decide(now, v, plan)
		return
	}
	b, ok := p.openRequest(now)
	if !ok {
		return
	}
	for m := range p.plat.Machines() {
		if m > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(v.Free(m)), 10)
	}
	b = append(b, ']')
	p.sendRequest(now, b, plan)
}

// wakeDue reports whether the call the policy asked for (Batsim's
// REQUESTED_CALL; always sent) is due at p.now, and if so records it
// for the request.
func (p *Client) wakeDue() bool {
	if p.wake == 0 || p.wake > p.now {
		return false
	}
	if p.opt.Decider != nil {
		p.req.RequestedCall = true
	} else {
		b := p.eventHead(p.wake, "REQUESTED_CALL")
		p.events = append(b, `"data":{}}`...)
	}
	p.wake = 0
	return true
}

// openRequest starts the process at the first request and begins the
// request's line: the instant, the events since the last request (with
// SIMULATION_BEGINS at the first) and the view up to its free list's
// opening bracket. ok is false when the process did not start.
func (p *Client) openRequest(now float64) (b []byte, ok bool) {
	first := !p.began
	if first {
		if err := p.start(); err != nil {
			p.fail("%v", err)
			return nil, false
		}
	}
	b = p.out[:0]
	b = append(b, `{"now":`...)
	b = appendFloat(b, now)
	b = append(b, `,"events":[`...)
	if first {
		b = p.appendBegins(b)
		if len(p.events) > 0 {
			b = append(b, ',')
		}
	}
	b = append(b, p.events...)
	p.events = p.events[:0]
	return append(b, `],"view":{"free":[`...), true
}

// sendRequest ends the request's line b (the full view when asked),
// sends it and applies the reply to plan.
func (p *Client) sendRequest(now float64, b []byte, plan *policy.Plan) {
	if p.opt.Full {
		b = p.appendFull(b)
	}
	b = append(b, "}}\n"...)
	p.out = b
	line, ok := p.exchange(b)
	if !ok {
		return
	}
	p.apply(now, line, plan)
}

func (p *Client) appendBegins(b []byte) []byte {
	b = append(b, `{"timestamp":`...)
	b = appendFloat(b, p.now)
	b = append(b, `,"type":"SIMULATION_BEGINS","data":{`...)
	if p.nd != nil {
		b = p.nd.appendBegins(b, p.opt.Full)
		return append(b, "}}"...)
	}
	b = append(b, `"protocol":"`...)
	b = append(b, Protocol...)
	b = append(b, `","nb_resources":`...)
	b = strconv.AppendInt(b, int64(p.plat.CPUs()), 10)
	b = append(b, `,"view":"`...)
	if p.opt.Full {
		b = append(b, "full"...)
	} else {
		b = append(b, "free"...)
	}
	b = append(b, `","machines":[`...)
	for m := range p.plat.Machines() {
		mach := p.plat.Machine(m)
		if m > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = strconv.AppendInt(b, int64(m), 10)
		b = append(b, `,"cpus":`...)
		b = strconv.AppendInt(b, int64(mach.CPUs), 10)
		b = append(b, `,"first_cpu":`...)
		b = strconv.AppendInt(b, int64(p.plat.First(m)), 10)
		b = append(b, `,"speed":`...)
		b = appendFloat(b, mach.BM())
		if mach.Mem > 0 {
			b = append(b, `,"mem":`...)
			b = appendFloat(b, mach.Mem)
		}
		b = append(b, '}')
	}
	return append(b, "]}}"...)
}

// appendFull appends the queue and the running jobs (in id order) to the
// view.
func (p *Client) appendFull(b []byte) []byte {
	b = append(b, `,"queue":[`...)
	for k := range p.waiting {
		if k > 0 {
			b = append(b, ',')
		}
		b = p.appendJob(b, &p.waiting[k])
	}
	b = append(b, `],"running":[`...)
	p.runs = p.runs[:0]
	for id, r := range p.running {
		p.runs = append(p.runs, runningEntry{id, r})
	}
	slices.SortFunc(p.runs, func(a, b runningEntry) int { return int(a.id - b.id) })
	for k, e := range p.runs {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = strconv.AppendInt(b, int64(e.id), 10)
		b = append(b, `,"res":`...)
		b = strconv.AppendInt(b, int64(e.r.info.Procs), 10)
		b = append(b, `,"machine":`...)
		b = strconv.AppendInt(b, int64(e.r.machine), 10)
		b = append(b, `,"starting_time":`...)
		b = appendFloat(b, e.r.start)
		b = append(b, `,"estimated_finish_time":`...)
		b = appendFloat(b, e.r.estEnd)
		if p.nd != nil {
			b = append(b, `,"nodes":[`...)
			for k, na := range p.nd.held[e.id].Nodes {
				if k > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendInt(b, int64(na.Node), 10)
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendJob is appendJob, with the job's request on a platform of
// nodes.
func (p *Client) appendJob(b []byte, j *job.Info) []byte {
	b = appendJob(b, j)
	if p.nd == nil {
		return b
	}
	r := requestOf(j)
	return append(appendReq(b[:len(b)-1], &r), '}')
}

// appendJob appends a job as Batsim names its fields (id, subtime, res,
// walltime: here the estimate), with the user and group, and the
// memory per CPU, speed requirement, BM_est and deadline when set.
func appendJob(b []byte, j *job.Info) []byte {
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, int64(j.ID), 10)
	b = append(b, `,"subtime":`...)
	b = appendFloat(b, j.Submit)
	b = append(b, `,"res":`...)
	b = strconv.AppendInt(b, int64(j.Procs), 10)
	b = append(b, `,"walltime":`...)
	b = appendFloat(b, j.Estimate)
	b = append(b, `,"user":`...)
	b = strconv.AppendInt(b, int64(j.User), 10)
	b = append(b, `,"group":`...)
	b = strconv.AppendInt(b, int64(j.Group), 10)
	for _, f := range []struct {
		name string
		v    float64
	}{{"mem", j.Mem}, {"speed", j.Speed}, {"bm_est", j.BMEst}, {"deadline", j.Deadline}} {
		if f.v != 0 {
			b = append(b, `,"`...)
			b = append(b, f.name...)
			b = append(b, `":`...)
			b = appendFloat(b, f.v)
		}
	}
	return append(b, '}')
}

func anyFree(v policy.Machines, machines int) bool {
	for m := range machines {
		if v.Free(m) > 0 {
			return true
		}
	}
	return false
}

// Skipped is the number of scheduling instants not sent because no job
// could start (an empty queue, or no free CPU).
func (p *Client) Skipped() int64 { return p.skipped }

func appendFloat(b []byte, f float64) []byte { return strconv.AppendFloat(b, f, 'g', -1, 64) }

// reply is a decoded reply line.
type reply struct {
	Now    *float64     `json:"now"`
	Events []replyEvent `json:"events"`
}

type replyEvent struct {
	Timestamp *float64        `json:"timestamp"`
	Type      string          `json:"type"`
	Data      json.RawMessage `json:"data"`
}

type executeData struct {
	JobID   *int64          `json:"job_id"`
	Alloc   string          `json:"alloc"`
	Machine int             `json:"machine"`
	Nodes   json.RawMessage `json:"nodes"` // on a platform of nodes
}

// apply decodes the reply and appends its starts to the plan.
func (p *Client) apply(now float64, line []byte, plan *policy.Plan) {
	// encoding/json decodes into the reused elements without zeroing
	// them: a field absent from this reply must not keep an old value.
	ev := p.reply.Events[:cap(p.reply.Events)]
	clear(ev)
	p.reply = reply{Events: ev[:0]}
	if t := trimSpace(line); len(t) > 0 && t[0] != '{' {
		p.fail("the reply is not a protocol message (a JSON object was expected; diagnostics go to standard error, not standard output): %s", quote(line))
		return
	}
	if err := json.Unmarshal(line, &p.reply); err != nil {
		p.fail("the reply is not a protocol message (%s): %s", jsonError(err), quote(line))
		return
	}
	if p.reply.Now != nil && *p.reply.Now != now {
		p.fail(`the reply's "now" is %g, the request's %g (decisions take no simulated time)`, *p.reply.Now, now)
		return
	}
	p.started, p.nrej = p.started[:0], 0
	for k, e := range p.reply.Events {
		where := fmt.Sprintf("reply event %d (%s)", k+1, e.Type)
		if e.Timestamp != nil && *e.Timestamp != now {
			p.fail("%s: timestamp %g, the request's time is %g", where, *e.Timestamp, now)
			return
		}
		switch e.Type {
		case "EXECUTE_JOB":
			p.data = executeData{}
			if err := json.Unmarshal(e.Data, &p.data); err != nil {
				p.fail("%s: data %s: %s", where, quote(e.Data), jsonError(err))
				return
			}
			if p.data.JobID == nil {
				p.fail("%s: data has no job_id: %s", where, quote(e.Data))
				return
			}
			if p.nd != nil {
				if !(&NodeClient{p}).executeNodes(now, where, &p.data, plan) {
					return
				}
			} else if !p.execute(now, where, job.ID(*p.data.JobID), p.data.Machine, p.data.Alloc, plan) {
				return
			}
		case "CALL_ME_LATER":
			var d struct {
				Timestamp *float64 `json:"timestamp"`
			}
			if err := json.Unmarshal(e.Data, &d); err != nil || d.Timestamp == nil {
				p.fail("%s: data must be {\"timestamp\": T}: %s", where, quote(e.Data))
				return
			}
			if !p.callMeLater(now, where, *d.Timestamp) {
				return
			}
		case "REJECT_JOB":
			var d struct {
				JobID *int64 `json:"job_id"`
			}
			if err := json.Unmarshal(e.Data, &d); err != nil || d.JobID == nil {
				p.fail("%s: data must be {\"job_id\": N}: %s", where, quote(e.Data))
				return
			}
			if !p.reject(where, job.ID(*d.JobID), plan) {
				return
			}
		default:
			p.fail("%s: unknown event type %q (want EXECUTE_JOB, REJECT_JOB or CALL_ME_LATER)", where, e.Type)
			return
		}
	}
	p.applied(now, plan)
}

// execute validates one start (EXECUTE_JOB) and appends it to the plan;
// false after a failure (recorded). The model checks the rest: the
// machine, the CPUs, the size.
func (p *Client) execute(now float64, where string, id job.ID, m int, alloc string, plan *policy.Plan) bool {
	if !p.waitingJob(where, id) {
		return false
	}
	var cpus platform.Runs
	if alloc != "" {
		var err error
		if cpus, err = parseAlloc(alloc); err != nil {
			p.fail("%s: job %d: alloc %q: %v", where, id, alloc, err)
			return false
		}
	}
	plan.Starts = append(plan.Starts, policy.Start{ID: id, Machine: m, CPUs: cpus})
	p.started = append(p.started, len(plan.Starts)-1)
	delete(p.queued, id)
	p.running[id] = runningJob{machine: m, start: now}
	return true
}

// waitingJob reports whether job id waits; false after a failure
// (recorded) naming where the start came from.
func (p *Client) waitingJob(where string, id job.ID) bool {
	if _, ok := p.queued[id]; !ok {
		if r, ok := p.running[id]; ok {
			p.fail("%s: job %d is not waiting: it started at t=%g", where, id, r.start)
		} else {
			p.fail("%s: job %d is not waiting: no such job in the queue (unknown, or already ended)", where, id)
		}
		return false
	}
	return true
}

// reject validates a rejection (REJECT_JOB) and appends it to the plan;
// false after a failure (recorded).
func (p *Client) reject(where string, id job.ID, plan *policy.Plan) bool {
	if _, ok := p.queued[id]; !ok {
		if r, ok := p.running[id]; ok {
			p.fail("%s: reject job %d: it is not waiting: it started at t=%g", where, id, r.start)
		} else {
			p.fail("%s: reject job %d: it is not waiting: no such job in the queue (unknown, rejected or already ended)", where, id)
		}
		return false
	}
	plan.Reject(id)
	delete(p.queued, id)
	if p.nd != nil {
		delete(p.nd.reqs, id)
	}
	p.nrej++
	return true
}

// callMeLater validates a wake-up time (CALL_ME_LATER) and keeps the
// earliest; false after a failure (recorded).
func (p *Client) callMeLater(now float64, where string, t float64) bool {
	if !(t > now) || math.IsInf(t, 0) {
		p.fail("%s: timestamp %g is not after now (%g)", where, t, now)
		return false
	}
	if p.wake == 0 || t < p.wake {
		p.wake = t
	}
	return true
}

// applied ends a valid decision: the started jobs leave the queue, each
// with its start reason, and the plan gets the wake-up time.
func (p *Client) applied(now float64, plan *policy.Plan) {
	defer func() {
		// The model honours a wake-up only while jobs wait (policy.Plan).
		if len(p.waiting) == 0 {
			p.wake = 0
		}
		plan.Wake = p.wake
	}()
	if len(p.started) == 0 && p.nrej == 0 {
		return
	}
	// Reasons, and the started jobs out of the queue: a job is Backfilled
	// if a job ahead of it in the queue still waits, else Immediate at its
	// submit time and Reserved later.
	// The scan stops at the last started job: the rest of the queue
	// stays as it is (most policies start jobs near its head).
	var head *job.Info
	kept := p.waiting[:0]
	left, k := len(p.started)+p.nrej, 0
	for ; k < len(p.waiting) && left > 0; k++ {
		j := p.waiting[k]
		if _, ok := p.queued[j.ID]; ok {
			kept = append(kept, j)
			continue
		}
		left--
		r, ok := p.running[j.ID]
		if !ok {
			continue // rejected
		}
		r.info = j
		if m := r.machine; m >= 0 && m < p.plat.Machines() {
			r.estEnd = now + p.plat.Machine(m).Duration(j.Estimate, j.BMEst)
		}
		p.running[j.ID] = r
	}
	kept = append(kept, p.waiting[k:]...) // (overlapping: append moves the tail down)
	p.waiting = kept
	if len(kept) > 0 {
		head = &kept[0]
	}
	for _, k := range p.started {
		s := &plan.Starts[k]
		j := p.running[s.ID].info
		switch {
		case head != nil && (head.Submit < j.Submit || head.Submit == j.Submit && head.ID < j.ID):
			s.Reason = job.Backfilled
		case now == j.Submit:
			s.Reason = job.Immediate
		default:
			s.Reason = job.Reserved
		}
	}
}

// decide asks the in-process Decider (Options.Decider) for this
// instant's decision and validates it as a reply's.
func (p *Client) decide(now float64, v policy.Machines, plan *policy.Plan) {
	r := &p.req
	r.Now, r.Begins, r.Ends = now, !p.began, false
	p.began = true
	r.Free = r.Free[:0]
	for m := range p.plat.Machines() {
		r.Free = append(r.Free, v.Free(m))
	}
	r.Waiting, r.Running, r.Platform = p.waiting, len(p.running), p.plat
	d, err := p.opt.Decider.Decide(r)
	r.Submitted, r.Completed, r.RequestedCall = r.Submitted[:0], r.Completed[:0], false
	if err != nil {
		p.fail("%v", err)
		return
	}
	p.started, p.nrej = p.started[:0], 0
	for k, e := range d.Starts {
		if !p.execute(now, decisionWhere(k), e.ID, e.Machine, e.Alloc, plan) {
			return
		}
	}
	p.decided(now, d, plan)
}

// decided validates a Decider's rejections and wake-up time and ends
// the decision (after its starts).
func (p *Client) decided(now float64, d Decision, plan *policy.Plan) {
	for k, id := range d.Rejects {
		if !p.reject("rejection "+strconv.Itoa(k+1)+" of the decision", id, plan) {
			return
		}
	}
	if d.Wake != 0 && !p.callMeLater(now, "the decision's wake-up time", d.Wake) {
		return
	}
	p.applied(now, plan)
}

func decisionWhere(k int) string { return "start " + strconv.Itoa(k+1) + " of the decision" }

// parseAlloc reads Batsim's interval syntax ("0-3 8"): ascending,
// disjoint runs (the model checks that they are free, on the machine,
// and as many as the job needs).
func parseAlloc(s string) (platform.Runs, error) {
	var r platform.Runs
	for _, f := range strings.Fields(s) {
		lo, hi, isRun := strings.Cut(f, "-")
		a, err := strconv.ParseInt(lo, 10, 32)
		if err != nil || a < 0 {
			return nil, fmt.Errorf("%q is not a CPU id or a run a-b", f)
		}
		b := a
		if isRun {
			if b, err = strconv.ParseInt(hi, 10, 32); err != nil || b < a {
				return nil, fmt.Errorf("%q is not a run a-b with a <= b", f)
			}
		}
		if n := len(r); n > 0 && int32(a) <= r[n-1] {
			return nil, fmt.Errorf("%q: runs must be ascending and disjoint", f)
		}
		r = r.AddRun(int32(a), int32(b))
	}
	if len(r) == 0 {
		return nil, errors.New("no CPU named")
	}
	return r, nil
}

func jsonError(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("invalid JSON at byte %d: %v", se.Offset, err)
	}
	return err.Error()
}

// quote shows a line in a message, cut to 120 bytes.
func quote(b []byte) string {
	b = bytes.TrimRight(b, "\r\n")
	if len(b) > 120 {
		return strconv.Quote(string(b[:120])) + "..."
	}
	return strconv.Quote(string(b))
}

// fail records the first failure, naming the policy and the time, and
// ends the process.
func (p *Client) fail(format string, a ...any) {
	if p.err != nil {
		return
	}
	who := "command: " + p.opt.Command
	switch {
	case p.opt.Decider != nil:
		who = "in-process"
	case p.opt.FDs != [2]int{}:
		who = fmt.Sprintf("fds %d,%d", p.opt.FDs[0], p.opt.FDs[1])
	}
	p.err = fmt.Errorf("policy %s at t=%g: %s [%s]", p.Name(), p.now, fmt.Sprintf(format, a...), who)
	p.kill()
}

var _ io.Closer = (*Client)(nil)
var _ policy.Failer = (*Client)(nil)
