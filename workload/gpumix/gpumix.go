package gpumix

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/rng"
	"github.com/schedlab/schedlab/workload/jobtable"
	"github.com/schedlab/schedlab/workload/lublin"
)

// The purposes of the streams the GPU jobs draw from (package rng), apart
// from the lublin generator's own.
const (
	PurposeKind = "gpumix-kind" // one draw a job: a GPU job or not
	PurposeGPUs = "gpumix-gpus" // one draw a job: its GPU count
)

// Defaults and bounds of the settings.
const (
	DefaultShare       = 0.25
	DefaultGPUs        = "1:0.5,2:0.25,4:0.15,8:0.1"
	DefaultCPUsPerGPU  = 8
	DefaultGPUsPerNode = 4

	// MaxGPUsPerJob bounds a value of the GPU-count distribution, and
	// MaxDistValues its number of values.
	MaxGPUsPerJob = 4096
	MaxDistValues = 64
	// MaxCPUsPerGPU bounds cpus_per_gpu: a task's CPUs are on one node
	// (nodes.MaxCPUsPerTask).
	MaxCPUsPerGPU = nodes.MaxCPUsPerTask
	// MaxGPUsPerNode bounds gpus_per_node (nodes.MaxGRESPerNode).
	MaxGPUsPerNode = nodes.MaxGRESPerNode
	// MaxDistText bounds the text of a distribution.
	MaxDistText = 4096
)

// Dist is a discrete distribution of GPU counts: Values[i] with
// probability Probs[i], the values increasing and distinct, the
// probabilities positive and summing to 1.
type Dist struct {
	Values []int
	Probs  []float64
}

// ParseDist reads a distribution written "VALUE:PROB,..." (as
// DefaultGPUs): each value a whole number 1..MaxGPUsPerJob at most once,
// each probability a number in (0, 1], together 1 (within 1e-6), at most
// MaxDistValues values, in any order (kept sorted by value). "" is
// DefaultGPUs.
func ParseDist(s string) (Dist, error) {
	if s == "" {
		s = DefaultGPUs
	}
	if len(s) > MaxDistText {
		return Dist{}, fmt.Errorf("%d bytes: at most %d", len(s), MaxDistText)
	}
	items := strings.Split(s, ",")
	if len(items) > MaxDistValues {
		return Dist{}, fmt.Errorf("%d values: at most %d", len(items), MaxDistValues)
	}
	type vp struct {
		v int
		p float64
	}
	var out []vp
	sum := 0.0
	for _, it := range items {
		vs, ps, ok := strings.Cut(it, ":")
		if !ok {
			return Dist{}, fmt.Errorf("%q: want GPUS:PROBABILITY (e.g. %s)", it, DefaultGPUs)
		}
		v, err := strconv.Atoi(vs)
		if err != nil || v < 1 || v > MaxGPUsPerJob {
			return Dist{}, fmt.Errorf("%q: GPUs %q: want a whole number 1..%d", it, vs, MaxGPUsPerJob)
		}
		p, err := strconv.ParseFloat(ps, 64)
		if err != nil || !(p > 0 && p <= 1) {
			return Dist{}, fmt.Errorf("%q: probability %q: want a number in (0, 1]", it, ps)
		}
		for _, o := range out {
			if o.v == v {
				return Dist{}, fmt.Errorf("%d GPUs given twice", v)
			}
		}
		out = append(out, vp{v, p})
		sum += p
	}
	if math.Abs(sum-1) > 1e-6 {
		return Dist{}, fmt.Errorf("the probabilities sum to %v: want 1", sum)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].v < out[j].v })
	var d Dist
	for _, o := range out {
		d.Values = append(d.Values, o.v)
		d.Probs = append(d.Probs, o.p)
	}
	return d, nil
}

// String writes d as ParseDist reads it.
func (d Dist) String() string {
	var b strings.Builder
	for i, v := range d.Values {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%d:%s", v, strconv.FormatFloat(d.Probs[i], 'g', -1, 64))
	}
	return b.String()
}

// Mean is the mean GPU count.
func (d Dist) Mean() float64 {
	m := 0.0
	for i, v := range d.Values {
		m += float64(v) * d.Probs[i]
	}
	return m
}

// Params are the settings of the workload: the CPU jobs of a lublin
// generator, of which a share become GPU jobs.
type Params struct {
	// Lublin is the generator of every job's arrival, runtime, requested
	// time and user, and of the CPU jobs' sizes (lublin.Params.Check).
	Lublin lublin.Params
	// Share is the probability that a job is a GPU job (gpu_share),
	// 0..1.
	Share float64
	// GPUs is the distribution of a GPU job's GPU count (gpus_per_job).
	GPUs Dist
	// Type is the GPU type asked for (gpu_type; "" any type).
	Type string
	// CPUsPerGPU is the CPUs of a GPU job's task (cpus_per_gpu),
	// 1..MaxCPUsPerGPU: a job of g GPUs has g tasks of CPUsPerGPU CPUs.
	CPUsPerGPU int
	// GPUsPerNode is the GPUs of a node the jobs are shaped for
	// (gpus_per_node), 1..MaxGPUsPerNode: a job of g GPUs asks for
	// ceil(g / GPUsPerNode) nodes and g / nodes GPUs on each, so every
	// value of GPUs above it is a multiple of it.
	GPUsPerNode int
}

// Default is the defaults on the batch set of the lublin model for a
// machine of procs processors (lublin.Default), its Jobs to be set.
func Default(procs int) Params {
	d, _ := ParseDist(DefaultGPUs)
	return Params{Lublin: lublin.Default(procs), Share: DefaultShare, GPUs: d, CPUsPerGPU: DefaultCPUsPerGPU, GPUsPerNode: DefaultGPUsPerNode}
}

// CheckType checks a GPU type: "" (any), or a GRES type as a job table
// writes it (letters, digits, '_', '-', '.', not starting with '-' or
// '.', at most 64 bytes).
func CheckType(t string) error {
	if t == "" {
		return nil
	}
	if _, err := jobtable.ParseGRES("gpu:" + t + ":1"); err != nil || strings.ContainsAny(t, ":,") {
		return fmt.Errorf("%q: want a GRES type (letters, digits, _, - and ., at most 64 bytes), or empty for any", t)
	}
	return nil
}

// Check says what is wrong with p, naming the setting (gpu_share,
// gpus_per_job, gpu_type, cpus_per_gpu, gpus_per_node; the lublin
// generator's own fields as lublin.Params.Check names them).
func (p Params) Check() error {
	if err := p.Lublin.Check(); err != nil {
		return err
	}
	var errs []error
	if !(p.Share >= 0 && p.Share <= 1) {
		errs = append(errs, fmt.Errorf("gpu_share %v: want 0..1", p.Share))
	}
	if p.CPUsPerGPU < 1 || p.CPUsPerGPU > MaxCPUsPerGPU {
		errs = append(errs, fmt.Errorf("cpus_per_gpu %d: want 1..%d", p.CPUsPerGPU, MaxCPUsPerGPU))
	}
	if p.GPUsPerNode < 1 || p.GPUsPerNode > MaxGPUsPerNode {
		errs = append(errs, fmt.Errorf("gpus_per_node %d: want 1..%d", p.GPUsPerNode, MaxGPUsPerNode))
	}
	if err := CheckType(p.Type); err != nil {
		errs = append(errs, fmt.Errorf("gpu_type %v", err))
	}
	if d, err := ParseDist(p.GPUs.String()); err != nil || len(p.GPUs.Values) == 0 || !slices.Equal(d.Values, p.GPUs.Values) {
		if err == nil {
			err = errors.New("want values increasing, each once")
		}
		if len(p.GPUs.Values) == 0 || len(p.GPUs.Values) != len(p.GPUs.Probs) {
			err = errors.New("no distribution (one probability a value)")
		}
		errs = append(errs, fmt.Errorf("gpus_per_job %s: %v", p.GPUs, err))
	} else if len(errs) == 0 {
		for _, g := range p.GPUs.Values {
			if g > p.GPUsPerNode && g%p.GPUsPerNode != 0 {
				errs = append(errs, fmt.Errorf("gpus_per_job: %d GPUs is above gpus_per_node %d and not a multiple of it (the job could not ask for the same GPUs on each of its nodes)", g, p.GPUsPerNode))
				break
			}
		}
		if g := p.GPUs.Values[len(p.GPUs.Values)-1]; p.Share > 0 && g*p.CPUsPerGPU > p.Lublin.Procs {
			errs = append(errs, fmt.Errorf("gpus_per_job %d x cpus_per_gpu %d = %d CPUs: more than the machine's %d processors (platform.procs)", g, p.CPUsPerGPU, g*p.CPUsPerGPU, p.Lublin.Procs))
		}
	}
	return errors.Join(errs...)
}

// Request is what a GPU job of g GPUs asks (with p's CPUsPerGPU,
// GPUsPerNode and Type): exactly n = ceil(g / GPUsPerNode) nodes, g
// tasks of CPUsPerGPU CPUs, g / n GPUs on each node (--gres, per node).
func (p Params) Request(g int) nodes.Request {
	n := (g + p.GPUsPerNode - 1) / p.GPUsPerNode
	return nodes.Request{Nodes: n, Tasks: g, CPUsPerTask: p.CPUsPerGPU,
		GRESPerNode: []nodes.GRES{{Name: "gpu", Type: p.Type, Count: g / n}}}
}

// Source yields the jobs of one replication: lublin's, each a GPU job
// with probability Share. Not safe for concurrent use; it holds no job.
type Source struct {
	p          Params
	cpu        *lublin.Source
	kind, gpus *rand.Rand
	cdf        []float64
}

// New returns the jobs of replication rep of seed under p, after
// p.Check. The same (p, seed, rep) gives the same jobs, bit for bit.
func New(p Params, seed uint64, rep int) (*Source, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	cpu, err := lublin.New(p.Lublin, seed, rep)
	if err != nil {
		return nil, err
	}
	s := &Source{p: p, cpu: cpu, kind: rng.New(seed, rep, PurposeKind), gpus: rng.New(seed, rep, PurposeGPUs)}
	sum := 0.0
	for _, q := range p.GPUs.Probs {
		sum += q
		s.cdf = append(s.cdf, sum)
	}
	for i := range s.cdf {
		s.cdf[i] /= sum
	}
	return s, nil
}

// Params returns the parameters the source was made with.
func (s *Source) Params() Params { return s.p }

// Lublin is the lublin source the jobs come from (its ArrivalFactor).
func (s *Source) Lublin() *lublin.Source { return s.cpu }

// Next returns the next job, io.EOF after the last.
func (s *Source) Next() (actual.Job, error) {
	var j actual.Job
	err := s.NextInto(&j)
	return j, err
}

// NextInto is Next writing the job to *j; on error *j is unchanged.
func (s *Source) NextInto(j *actual.Job) error {
	if err := s.cpu.NextInto(j); err != nil {
		return err
	}
	// Both draws for every job, so that whether job k is a GPU job, and
	// its GPU count, depend on nothing but its own draws.
	u, v := s.kind.Float64(), s.gpus.Float64()
	if u < s.p.Share {
		i := min(sort.SearchFloat64s(s.cdf, v), len(s.cdf)-1)
		if i < len(s.cdf)-1 && s.cdf[i] == v {
			i++ // v at a boundary belongs to the next value: P(value i) = cdf[i] - cdf[i-1]
		}
		g := s.p.GPUs.Values[i]
		q := s.p.Request(g)
		j.Procs, j.Req = g*s.p.CPUsPerGPU, &q
	}
	return nil
}

// GPUs is the GPU count of a job of the source (0: a CPU job).
func GPUs(j actual.Job) int {
	if j.Req == nil {
		return 0
	}
	n := 0
	for _, g := range j.Req.GRESPerNode {
		if g.Name == "gpu" {
			n += g.Count * max(j.Req.Nodes, 1)
		}
	}
	return n
}
