package metrics

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/internal/digits"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
)

// JobsHeader is the header row of jobs.csv: the columns of every
// jobs.csv, in this order; the multi-site and machine columns follow
// them.
const JobsHeader = "job_id,submission_time,requested_number_of_resources,requested_time," +
	"starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch," +
	"allocated_resources,final_state,start_reason," + BatsimColumns + "," + TraceColumns + "\n"

// BatsimColumns are the columns of Batsim's jobs.csv that schedlab's
// first columns lack, with Batsim's meanings, so that Batsim's tools
// (evalys, batsim_output_csv_to_swf.py) read the file: workload_name is
// "w0" (Batsim's name for the first workload of a simulation: a run has
// one); profile is "delay" (every job is simulated as a delay, its run
// time); success is 1 for a job that completed before its requested time
// (final_state COMPLETED_SUCCESSFULLY), 0 otherwise; consumed_energy is
// the job's joules above idle under a power model (SetEnergyRate), else
// -1 (not computed, as Batsim writes it without an energy model);
// metadata is empty (Batsim's default).
const BatsimColumns = "workload_name,profile,success,consumed_energy,metadata"

// TraceColumns are the job's user, group and partition numbers from the
// trace (SWF fields 12, 13 and 16); empty when unknown (synthetic jobs,
// -1 in the trace).
const TraceColumns = "user,group,partition"

// NameColumns are the columns SetNames adds last: the names of the
// job's user and group (empty when the trace names no such id).
const NameColumns = "user_name,group_name"

// JobsCSV writes one jobs.csv row per finished job. Unknown values
// (requested_time when the request is unknown, stretch of a zero-length
// job, a user not in the trace) are empty cells. Check Err after the
// run, then call Flush.
//
// The listener only copies what a row needs into a batch; rows are
// formatted and written by goroutines of their own, a batch of
// csvBatchRows at a time, while the simulation goes on. Up to
// csvInFlight batches are in flight, each on its own goroutine, which
// formats and writes only once the batch before it is written: the
// writes are done in order, so the bytes are those of a writer that
// formats each row as it comes. The listener waits only when
// csvInFlight batches are in flight (so a formatter that is not
// scheduled for a while does not stop the simulation). Err and Flush
// wait for every batch in flight. A JobsCSV dropped without Flush leaves
// nothing running: each goroutine ends when its batch is written.
type JobsCSV struct {
	engine.NopListener
	sites bool
	plat  *platform.Platform // machine columns (NewJobsCSVMachines)
	tries bool               // the attempts column (NewJobsCSVAttempts)
	// energy: consumed_energy is energyRate x CPUs x execution time
	// (SetEnergyRate); otherwise -1.
	energy     bool
	energyRate float64
	// ns: the node columns after allocated_resources (NewJobsCSVNodes);
	// kindIdx numbers ns's GRES kinds in ns.Kinds() order.
	ns      *nodes.Nodes
	kindIdx map[nodes.Kind]int32
	kinds   []nodes.Kind
	// userNames, groupNames: NameColumns's names by id (SetNames; nil
	// maps and withNames false: no such columns).
	userNames, groupNames map[int32]string
	withNames             bool
	// names, units, runs: scratch of whoever formats (as buf).
	names []string
	units []gresRef
	runs  platform.Runs

	cur      *csvBatch   // being filled by the listener
	inflight []*csvBatch // handed to formatters, oldest first
	free     []*csvBatch // written batches, for reuse

	// Owned by whoever formats: the goroutine of the oldest batch not yet
	// written while any is in flight, else the caller. Rows are formatted
	// straight into buf, which goes to w once it holds csvWriteSize bytes
	// (no copy into a writer's buffer).
	w   io.Writer
	buf []byte
	err error
}

// csvWriteSize is the size of jobs.csv's writes.
const csvWriteSize = 256 << 10

// csvBatchRows is the number of rows handed to the formatter at once;
// csvInFlight is the most batches handed over and not yet written.
const (
	csvBatchRows = 4096
	csvInFlight  = 4
)

// csvRow is what one row needs, copied out of an engine.Record (the
// Record and its job are reused once the listener returns).
type csvRow struct {
	id                          int64
	submit, request, start, end float64
	bmEst, deadline             float64
	procs                       int
	machine                     int
	user, group, partition      int32
	cpuEnd, siteEnd             int // ends of the row's CPU runs and sites in the batch
	nodeEnd, gresEnd            int // ends of the row's nodes and GRES units in the batch
	noAlloc                     bool
	attempts                    int
	state                       job.FinalState
	reason                      job.StartReason
	gang, local                 bool
}

// gresRef is one GRES unit a job held: the index of its kind (in
// ns.Kinds() order) and its global unit id.
type gresRef struct{ kind, unit int32 }

// csvBatch holds rows and the CPU runs, sites, nodes and GRES units they
// point into.
type csvBatch struct {
	rows  []csvRow
	cpus  platform.Runs
	sites []int
	nodes []int32
	gres  []gresRef
	done  chan struct{} // closed once the batch is written (while in flight)
}

func (b *csvBatch) reset() {
	b.rows, b.cpus, b.sites = b.rows[:0], b.cpus[:0], b.sites[:0]
	b.nodes, b.gres = b.nodes[:0], b.gres[:0]
}

func newJobsCSV(w io.Writer, header string, sites bool, plat *platform.Platform) *JobsCSV {
	j := &JobsCSV{w: w, sites: sites, plat: plat, buf: make([]byte, 0, csvWriteSize+4096),
		cur: &csvBatch{rows: make([]csvRow, 0, csvBatchRows)}}
	j.buf = append(j.buf, header...)
	return j
}

// NewJobsCSV writes the header to w and returns the listener.
func NewJobsCSV(w io.Writer) *JobsCSV {
	return newJobsCSV(w, JobsHeader, false, nil)
}

// NewJobsCSVSites is NewJobsCSV for multi-site models: two more columns,
// kind (local, gang or job) and sites (the sites the job ran on, separated
// by ';'); kind "job" is a sequential job of the grid model.
func NewJobsCSVSites(w io.Writer) *JobsCSV {
	return newJobsCSV(w, JobsHeader[:len(JobsHeader)-1]+",kind,sites\n", true, nil)
}

// AttemptsColumn is the column NewJobsCSVAttempts adds last: the
// number of runs of the job (1, or more for a job requeued after a
// failure; its row is its last run). docs/availability.md.
const AttemptsColumn = "attempts"

// NewJobsCSVAttempts is NewJobsCSV (NewJobsCSVMachines when plat is not
// nil) for runs with unavailable CPUs: AttemptsColumn after the others.
func NewJobsCSVAttempts(w io.Writer, plat *platform.Platform) *JobsCSV {
	h := JobsHeader[:len(JobsHeader)-1]
	if plat != nil {
		h += "," + MachineColumns
	}
	j := newJobsCSV(w, h+","+AttemptsColumn+"\n", false, plat)
	j.tries = true
	return j
}

// MachineColumns are the columns NewJobsCSVMachines adds: the machine
// the job ran on, its speed BM, the speed at which the job's estimate
// holds (BM_est; empty when it is the reference speed) and the job's
// deadline (empty: none).
const MachineColumns = "machine,speed,bm_est,deadline"

// NewJobsCSVMachines is NewJobsCSV for platforms of machines of different
// speeds (the hetero model, traces with deadlines): MachineColumns after
// the jobs.csv columns.
func NewJobsCSVMachines(w io.Writer, p platform.Platform) *JobsCSV {
	return newJobsCSV(w, JobsHeader[:len(JobsHeader)-1]+","+MachineColumns+"\n", false, &p)
}

// NodeColumns are the columns NewJobsCSVNodes inserts right after
// allocated_resources: the job's nodes in Slurm's hostlist syntax
// (nodes.Compress; quoted when the hostlist has a comma) and its GRES
// units, each kind held as KIND=IDS (KIND as nodes.Kind prints it, IDS
// the global unit ids of the kind in allocated_resources syntax), kinds
// in (name, type) order separated by ';' (empty: none). docs/nodes.md.
const NodeColumns = "allocated_nodes,allocated_gres"

// NewJobsCSVNodes is NewJobsCSV for a platform of nodes: NodeColumns
// after allocated_resources (which holds the job's global core ids).
func NewJobsCSVNodes(w io.Writer, ns *nodes.Nodes) *JobsCSV {
	const after = "allocated_resources,"
	i := strings.Index(JobsHeader, after) + len(after)
	j := newJobsCSV(w, JobsHeader[:i]+NodeColumns+","+JobsHeader[i:], false, nil)
	j.ns = ns
	j.kindIdx = map[nodes.Kind]int32{}
	j.kinds = ns.Kinds()
	for k, kind := range j.kinds {
		j.kindIdx[kind] = int32(k)
	}
	return j
}

func (j *JobsCSV) JobFinished(now float64, r *engine.Record) { j.add(r) }
func (j *JobsCSV) JobKilled(now float64, r *engine.Record)   { j.add(r) }

// add copies r's row into the current batch and hands the batch to the
// formatter when it is full.
func (j *JobsCSV) add(r *engine.Record) {
	b := j.cur
	b.cpus = append(b.cpus, r.CPUs...)
	if j.sites {
		b.sites = append(b.sites, r.Sites...)
	}
	if j.ns != nil && r.Alloc != nil {
		for _, na := range r.Alloc.Nodes {
			b.nodes = append(b.nodes, int32(na.Node))
			for _, g := range na.GRES {
				k, ok := j.kindIdx[g.Kind]
				if !ok {
					k = -1 // not a kind of the platform: formatting reports it
				}
				for _, u := range g.Units {
					b.gres = append(b.gres, gresRef{k, int32(u)})
				}
			}
		}
	}
	b.rows = append(b.rows, csvRow{
		id: int64(r.Job.ID), submit: r.Job.Submit, request: r.Job.Request, start: r.Start, end: r.End,
		bmEst: r.Job.BMEst, deadline: r.Job.Deadline, procs: r.Job.Procs, machine: r.Machine,
		user: r.Job.User, group: r.Job.Group, partition: r.Job.Partition,
		cpuEnd: len(b.cpus), siteEnd: len(b.sites), state: r.State, reason: r.Reason, attempts: r.Attempts,
		gang: r.Job.Tasks != nil, local: r.Job.Local,
		nodeEnd: len(b.nodes), gresEnd: len(b.gres), noAlloc: r.Alloc == nil})
	if len(b.rows) == csvBatchRows {
		j.handOff()
	}
}

// handOff hands the current batch to a goroutine that formats it once
// the batches before it are written, and gives the listener a free batch
// (waiting for the oldest in flight when csvInFlight are).
func (j *JobsCSV) handOff() {
	if len(j.inflight) == csvInFlight {
		j.retire()
	}
	var prev chan struct{}
	if n := len(j.inflight); n > 0 {
		prev = j.inflight[n-1].done
	}
	b := j.cur
	b.done = make(chan struct{})
	j.inflight = append(j.inflight, b)
	if n := len(j.free); n > 0 {
		j.cur = j.free[n-1]
		j.free = j.free[:n-1]
		j.cur.reset()
	} else {
		j.cur = &csvBatch{rows: make([]csvRow, 0, csvBatchRows)}
	}
	go func() {
		if prev != nil {
			<-prev
		}
		j.format(b)
		close(b.done)
	}()
}

// retire waits until the oldest batch in flight is written and keeps it
// for reuse.
func (j *JobsCSV) retire() {
	b := j.inflight[0]
	<-b.done
	copy(j.inflight, j.inflight[1:])
	j.inflight = j.inflight[:len(j.inflight)-1]
	j.free = append(j.free, b)
}

// wait returns once no batch is in flight.
func (j *JobsCSV) wait() {
	for len(j.inflight) > 0 {
		j.retire()
	}
}

// num appends v in the shortest form that reads back exactly. Trace times
// are whole seconds: integers take the fast path.
func num(b []byte, v float64) []byte {
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
		return digits.AppendInt(b, int64(v))
	}
	return strconv.AppendFloat(b, v, 'f', -1, 64)
}

// SetEnergyRate fills consumed_energy with each job's joules above
// idle: w (watts a CPU draws running a job beyond idle, docs/energy.md)
// x the CPUs it held x its execution time. Call it before the first job.
func (j *JobsCSV) SetEnergyRate(w float64) { j.energy, j.energyRate = true, w }

// SetNames adds NameColumns after every other column: each job's user
// and group name by its id (a trace header's "User N: name" lines,
// swf.Header.IDNames). Call it before the first job.
func (j *JobsCSV) SetNames(users, groups map[int32]string) {
	j.userNames, j.groupNames, j.withNames = users, groups, true
	if n := len(j.buf); n > 0 && j.buf[n-1] == '\n' {
		j.buf = append(j.buf[:n-1], ","+NameColumns+"\n"...)
	}
}

// appendName appends a name as a CSV field (quoted when it must be).
func appendName(b []byte, name string) []byte {
	if !strings.ContainsAny(name, ",\"\r\n") {
		return append(b, name...)
	}
	b = append(b, '"')
	b = append(b, strings.ReplaceAll(name, `"`, `""`)...)
	return append(b, '"')
}

// format writes the rows of batch bt.
func (j *JobsCSV) format(bt *csvBatch) {
	cpu0, site0, node0, gres0 := 0, 0, 0, 0
	for k := range bt.rows {
		r := &bt.rows[k]
		j.row(r, bt.cpus[cpu0:r.cpuEnd], bt.sites[site0:r.siteEnd], bt.nodes[node0:r.nodeEnd], bt.gres[gres0:r.gresEnd])
		cpu0, site0, node0, gres0 = r.cpuEnd, r.siteEnd, r.nodeEnd, r.gresEnd
	}
}

func (j *JobsCSV) row(r *csvRow, cpus platform.Runs, sites []int, ns []int32, gres []gresRef) {
	if j.err != nil {
		return
	}
	b := j.buf
	b = digits.AppendInt(b, r.id)
	b = append(b, ',')
	b = num(b, r.submit)
	b = append(b, ',')
	b = digits.AppendInt(b, int64(r.procs))
	b = append(b, ',')
	if r.request > 0 {
		b = num(b, r.request)
	}
	b = append(b, ',')
	b = num(b, r.start)
	b = append(b, ',')
	ex := r.end - r.start // as engine.Record's Exec, Wait, Turnaround
	b = num(b, ex)
	b = append(b, ',')
	b = num(b, r.end)
	b = append(b, ',')
	b = num(b, r.start-r.submit)
	b = append(b, ',')
	b = num(b, r.end-r.submit)
	b = append(b, ',')
	if ex > 0 {
		b = num(b, (r.end-r.submit)/ex)
	}
	b = append(b, ',')
	b = cpus.AppendText(b)
	b = append(b, ',')
	if j.ns != nil {
		var err error
		if b, err = j.appendNodes(b, r, ns, gres); err != nil {
			j.err = err
			return
		}
	}
	b = append(b, r.state.String()...)
	b = append(b, ',')
	b = append(b, r.reason.String()...)
	switch {
	case j.energy:
		if r.state == job.Completed {
			b = append(b, ",w0,delay,1,"...)
		} else {
			b = append(b, ",w0,delay,0,"...)
		}
		if j.ns != nil {
			b = num(b, j.energyRate*coreLoad(j.ns, cpus)*ex) // watts per node, linear in its load
		} else {
			b = num(b, j.energyRate*float64(cpus.Count())*ex)
		}
		b = append(b, ",,"...)
	case r.state == job.Completed:
		b = append(b, ",w0,delay,1,-1,,"...)
	default:
		b = append(b, ",w0,delay,0,-1,,"...)
	}
	for i, id := range [3]int32{r.user, r.group, r.partition} {
		if i > 0 {
			b = append(b, ',')
		}
		if id >= 0 {
			b = digits.AppendInt(b, int64(id))
		}
	}
	if j.sites {
		switch {
		case r.gang:
			b = append(b, ",gang,"...)
		case r.local:
			b = append(b, ",local,"...)
		default:
			b = append(b, ",job,"...)
		}
		for i, s := range sites {
			if i > 0 {
				b = append(b, ';')
			}
			b = strconv.AppendInt(b, int64(s), 10)
		}
	}
	if j.plat != nil {
		b = append(b, ',')
		if r.machine >= 0 {
			b = strconv.AppendInt(b, int64(r.machine), 10)
			b = append(b, ',')
			b = num(b, j.plat.Machine(r.machine).BM())
		} else {
			b = append(b, ',')
		}
		b = append(b, ',')
		if r.bmEst > 0 {
			b = num(b, r.bmEst)
		}
		b = append(b, ',')
		if r.deadline != 0 {
			b = num(b, r.deadline)
		}
	}
	if j.tries {
		b = append(b, ',')
		b = digits.AppendInt(b, int64(max(r.attempts, 1)))
	}
	if j.withNames {
		b = append(b, ',')
		b = appendName(b, j.userNames[r.user])
		b = append(b, ',')
		b = appendName(b, j.groupNames[r.group])
	}
	b = append(b, '\n')
	j.buf = b
	if len(b) >= csvWriteSize {
		j.write()
	}
}

// appendNodes appends the NodeColumns cells of row r and their commas:
// the hostlist of nodes ns (quoted when it holds a comma) and the GRES
// units, grouped by kind.
func (j *JobsCSV) appendNodes(b []byte, r *csvRow, ns []int32, gres []gresRef) ([]byte, error) {
	if r.noAlloc {
		return nil, fmt.Errorf("jobs.csv: job %d ran on a platform of nodes without an allocation", r.id)
	}
	j.names = j.names[:0]
	for _, id := range ns {
		if id < 0 || int(id) >= j.ns.Len() {
			return nil, fmt.Errorf("jobs.csv: job %d: node %d is not a node of the platform (%d nodes)", r.id, id, j.ns.Len())
		}
		j.names = append(j.names, j.ns.Name(int(id)))
	}
	hl, err := nodes.Compress(j.names)
	if err != nil {
		return nil, fmt.Errorf("jobs.csv: job %d: %v", r.id, err)
	}
	if strings.IndexByte(hl, ',') >= 0 {
		b = append(b, '"')
		b = append(b, hl...)
		b = append(b, '"')
	} else {
		b = append(b, hl...)
	}
	b = append(b, ',')
	j.units = append(j.units[:0], gres...)
	slices.SortFunc(j.units, func(x, y gresRef) int {
		if c := cmp.Compare(x.kind, y.kind); c != 0 {
			return c
		}
		return cmp.Compare(x.unit, y.unit)
	})
	for lo := 0; lo < len(j.units); {
		k := j.units[lo].kind
		if k < 0 {
			return nil, fmt.Errorf("jobs.csv: job %d holds GRES of a kind the platform does not have", r.id)
		}
		hi := lo
		j.runs = j.runs[:0]
		for ; hi < len(j.units) && j.units[hi].kind == k; hi++ {
			if u := j.units[hi].unit; hi == lo || u > j.units[hi-1].unit {
				j.runs = j.runs.Add(u)
			}
		}
		if lo > 0 {
			b = append(b, ';')
		}
		b = append(b, j.kinds[k].String()...)
		b = append(b, '=')
		b = j.runs.AppendText(b)
		lo = hi
	}
	return append(b, ','), nil
}

// write writes buf out, if it holds anything, and empties it. A write
// of fewer bytes without an error is io.ErrShortWrite (as a
// bufio.Writer reports it).
func (j *JobsCSV) write() {
	if j.err == nil && len(j.buf) > 0 {
		var n int
		if n, j.err = j.w.Write(j.buf); n < len(j.buf) && j.err == nil {
			j.err = io.ErrShortWrite
		}
	}
	j.buf = j.buf[:0]
}

// Err reports the first write error (of the rows handed to the
// formatter so far; Flush writes the rest).
func (j *JobsCSV) Err() error {
	j.wait()
	return j.err
}

// Stop waits until the rows already handed to the formatting goroutines
// are formatted (into the buffer; up to csvWriteSize bytes of them may
// not have reached the writer). A run that
// fails calls it before closing or removing the file, so that no goroutine
// writes to it afterwards. It does not flush: Flush is for success.
func (j *JobsCSV) Stop() { j.wait() }

// Flush writes the rows not yet written and flushes the buffer.
func (j *JobsCSV) Flush() error {
	j.wait()
	j.format(j.cur)
	j.cur.reset()
	j.write()
	return j.err
}

// PlatformHeader is the header row of a platform file.
const PlatformHeader = "machine,first_cpu,cpus,speed\n"

// WritePlatformCSV writes p's machines, one row each: index, the global id
// of its first CPU (allocated_resources in jobs.csv are global ids), CPU
// count and speed BM.
func WritePlatformCSV(w io.Writer, p platform.Platform) error {
	b := []byte(PlatformHeader)
	for m := range p.Machines() {
		b = strconv.AppendInt(b, int64(m), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(p.First(m)), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(p.Machine(m).CPUs), 10)
		b = append(b, ',')
		b = num(b, p.Machine(m).BM())
		b = append(b, '\n')
	}
	_, err := w.Write(b)
	return err
}

// coreLoad is the load a job holding the cores of r (global core ids,
// ascending) puts on the nodes of ns: the sum over its nodes of its cores
// there over the node's cores (docs/energy.md, power per node).
func coreLoad(ns *nodes.Nodes, r platform.Runs) float64 {
	l, node, k := 0.0, -1, 0
	for i := 0; i+1 < len(r); i += 2 {
		for c := r[i]; c <= r[i+1]; c++ {
			if n := ns.NodeOfCore(int(c)); n != node {
				if k > 0 {
					l += float64(k) / float64(ns.Node(node).Cores())
				}
				node, k = n, 0
			}
			k++
		}
	}
	if k > 0 {
		l += float64(k) / float64(ns.Node(node).Cores())
	}
	return l
}
