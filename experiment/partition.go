package experiment

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/validate"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/partition"
	"github.com/schedlab/schedlab/workload/swf"
)

// MaxPartitions bounds the partitions of a run.
const MaxPartitions = partition.MaxPartitions

// PartitionError is a partition that cannot be used as given (a bad
// --partition text, an unknown name, a combination not supported): a
// mistake of the command line, not of the trace.
type PartitionError struct{ Err error }

func (e *PartitionError) Error() string { return e.Err.Error() }
func (e *PartitionError) Unwrap() error { return e.Err }

// partitionDef is one partition of a trace run (docs/partitions.md): as
// written, and what the run routes to it.
type partitionDef struct {
	partition.Spec
	nums []int32 // the trace's partition numbers routed here
	jobs int64   // jobs admitted
	// node, on a platform of nodes, is the partition's nodes
	// (nodeparts.go; nil on a pool of CPUs).
	node *nodePart
}

// resolvePartitions parses the --partition texts and routes the trace's
// partition numbers: a NAME that is a number is that number (SWF field
// 16); another NAME is looked up in the header's "Partition: N name"
// lines; a name the header does not know is an error unless the
// partition is the default (it then takes only the jobs of unknown
// partition).
func resolvePartitions(texts []string, procs int, h swf.Header) ([]partitionDef, error) {
	if len(texts) > MaxPartitions {
		return nil, fmt.Errorf("%d partitions: at most %d (experiment.MaxPartitions)", len(texts), MaxPartitions)
	}
	var defs []partitionDef
	for _, s := range texts {
		spec, err := partition.Parse(s, procs)
		if err != nil {
			return nil, fmt.Errorf("--partition %q: %w", s, err)
		}
		d := partitionDef{Spec: spec}
		for _, o := range defs {
			if o.Name == d.Name {
				return nil, fmt.Errorf("--partition %q: partition %s is given twice", s, d.Name)
			}
		}
		if n, err := strconv.ParseInt(d.Name, 10, 32); err == nil && n >= 0 {
			d.nums = []int32{int32(n)}
		} else {
			for _, nn := range h.PartitionNames {
				if nn.Name == d.Name && nn.Number >= 0 && nn.Number <= math.MaxInt32 {
					d.nums = append(d.nums, int32(nn.Number))
				}
			}
			if d.nums == nil && !d.Default {
				var known []string
				for _, nn := range h.PartitionNames {
					known = append(known, fmt.Sprintf("%d %s", nn.Number, nn.Name))
				}
				if known == nil {
					return nil, fmt.Errorf("--partition %q: the trace's header names no partitions (no \"; Partition: N name\" lines): name it by its number (SWF field 16), or make it the default", s)
				}
				return nil, fmt.Errorf("--partition %q: the trace's header names no partition %s (its Partition lines: %s)", s, d.Name, strings.Join(known, ", "))
			}
		}
		defs = append(defs, d)
	}
	return defs, nil
}

// engineParts is the engine's configuration of defs (policies unset).
func engineParts(defs []partitionDef) []engine.Partition {
	ps := make([]engine.Partition, len(defs))
	for k, d := range defs {
		ps[k] = engine.Partition{Name: d.Name, CPUs: d.CPUs, Numbers: d.nums, Default: d.Default}
	}
	return ps
}

// Why a partitioned run refuses a job at submission.
const (
	rejUnknown = iota // its partition is none of the run's
	rejMaxTime        // its request is above the partition's maxtime
	rejMaxCPUs        // it needs more CPUs than maxcpus or the partition has
	rejAccess         // its user, account or QOS is not allowed
	numRej
)

// partitionSource drops (and counts) the jobs a partitioned run refuses
// at submission; the others go on.
type partitionSource struct {
	src      workload.Source
	defs     []partitionDef
	of       map[int32]int
	def      int
	rejected [numRej]int64
}

func newPartitionSource(src workload.Source, defs []partitionDef) *partitionSource {
	p := &partitionSource{src: src, defs: defs, of: map[int32]int{}, def: -1}
	for k, d := range defs {
		for _, n := range d.nums {
			p.of[n] = k
		}
		if d.Default {
			p.def = k
		}
	}
	return p
}

// index is the partition of a job of trace partition num (-1: none).
func (p *partitionSource) index(num int32) int {
	if k, ok := p.of[num]; ok {
		return k
	}
	if num < 0 {
		return p.def
	}
	return -1
}

// refuse says why job j is refused (-1: admitted, to partition k).
func (p *partitionSource) refuse(j *actual.Job) (why, k int) {
	k = p.index(j.Partition)
	if k < 0 {
		return rejUnknown, k
	}
	d := &p.defs[k]
	allowed := func(ids []int32, id int32) bool {
		_, ok := slices.BinarySearch(ids, id)
		return ids == nil || ok
	}
	switch {
	case d.node != nil && nodeTooBig(d, j):
		return rejMaxCPUs, k
	case d.node == nil && (j.Procs > d.CPUs.Count() || (d.MaxCPUs > 0 && j.Procs > d.MaxCPUs)):
		return rejMaxCPUs, k
	case d.MaxTime > 0 && j.Request > d.MaxTime:
		return rejMaxTime, k
	case !allowed(d.Users, j.User) || !allowed(d.Accounts, j.Group) || !allowed(d.QOS, j.QOS):
		return rejAccess, k
	}
	return -1, k
}

func (p *partitionSource) Next() (actual.Job, error) {
	for {
		j, err := p.src.Next()
		if err != nil {
			return j, err
		}
		why, k := p.refuse(&j)
		if why < 0 {
			p.defs[k].jobs++
			return j, nil
		}
		p.rejected[why]++
	}
}

// allowed is the CPUs a job may hold, for the checker.
func (p *partitionSource) allowed(j *actual.Job) []validate.Interval {
	k := p.index(j.Partition)
	if k < 0 {
		return nil
	}
	r := p.defs[k].CPUs
	ivs := make([]validate.Interval, 0, len(r)/2)
	for i := 0; i+1 < len(r); i += 2 {
		ivs = append(ivs, validate.Interval{Lo: int(r[i]), Hi: int(r[i+1])})
	}
	return ivs
}

// PartitionsInfo is what summary.json says of the partitions of a run.
type PartitionsInfo struct {
	List []PartitionInfo `json:"list"`
	// Rejected counts the jobs refused at submission, never simulated:
	// in all, and by reason.
	Rejected        int64 `json:"jobs_rejected"`
	RejectedUnknown int64 `json:"jobs_rejected_unknown_partition"`
	RejectedMaxTime int64 `json:"jobs_rejected_maxtime"`
	RejectedMaxCPUs int64 `json:"jobs_rejected_maxcpus"`
	RejectedAccess  int64 `json:"jobs_rejected_not_allowed"`
}

// PartitionInfo is one partition of a run.
type PartitionInfo struct {
	Name string `json:"name"`
	// CPUs are its CPU ids; on a platform of nodes its nodes' core ids,
	// and Nodes its nodes as a hostlist.
	CPUs    string  `json:"cpus"`
	Nodes   string  `json:"nodes,omitempty"`
	Numbers []int32 `json:"trace_numbers"`
	Default bool    `json:"default,omitempty"`
	Jobs    int64   `json:"jobs"`
	// Metrics are the partition's own summary metrics.
	Metrics *PartitionMetrics `json:"metrics,omitempty"`
}

func (p *partitionSource) info() *PartitionsInfo {
	in := &PartitionsInfo{RejectedUnknown: p.rejected[rejUnknown], RejectedMaxTime: p.rejected[rejMaxTime],
		RejectedMaxCPUs: p.rejected[rejMaxCPUs], RejectedAccess: p.rejected[rejAccess]}
	for _, n := range p.rejected {
		in.Rejected += n
	}
	for _, d := range p.defs {
		nums := d.nums
		if nums == nil {
			nums = []int32{}
		}
		pi := PartitionInfo{Name: d.Name, CPUs: d.CPUs.String(), Numbers: nums, Default: d.Default, Jobs: d.jobs}
		if d.node != nil {
			pi.Nodes = d.node.text
		}
		in.List = append(in.List, pi)
	}
	return in
}

// partitionDefs checks that cfg's partitions go with the rest of the run
// and resolves them for a machine of procs CPUs and the trace's header.
func (cfg *RunSpec) partitionDefs(procs int, h swf.Header, hetero, threads bool) ([]partitionDef, error) {
	no := func(what string) ([]partitionDef, error) {
		return nil, &PartitionError{fmt.Errorf("partitions do not go with %s yet (docs/partitions.md)", what)}
	}
	if hetero {
		return no("policy " + cfg.Policy.Name + " (several machines)")
	}
	// what the table of combinations refuses before the policy is built
	if err := checkCombination(cfg.Policy.Name, policy.Caps{}, layers{parts: true, threads: threads}); err != nil {
		return nil, err
	}
	defs, err := resolvePartitions(cfg.Platform.Partitions, procs, h)
	if err != nil {
		return nil, &PartitionError{err}
	}
	if cfg.Platform.Avail.Used() {
		for i, a := range defs {
			for _, b := range defs[:i] {
				if cpu, ok := a.CPUs.Shared(b.CPUs); ok {
					return nil, &PartitionError{fmt.Errorf("overlapping partitions do not go with unavailable CPUs (reservations, failures) yet: partitions %s and %s share CPU %d (docs/partitions.md)", b.Name, a.Name, cpu)}
				}
			}
		}
	}
	return defs, nil
}
