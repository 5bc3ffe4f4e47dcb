package gpumix

import (
	"io"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/policy/option"
	"github.com/schedlab/schedlab/workload/lublin"
	"github.com/schedlab/schedlab/workload/model"
)

func all(t *testing.T, p Params, seed uint64, rep int) []actual.Job {
	t.Helper()
	s, err := New(p, seed, rep)
	if err != nil {
		t.Fatal(err)
	}
	var out []actual.Job
	for {
		j, err := s.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, j)
	}
}

func params(jobs int) Params {
	p := Default(256)
	p.Lublin.Jobs = jobs
	return p
}

// TestRequest: the requests worked out by hand, 4 GPUs a node, 8 CPUs a
// GPU.
func TestRequest(t *testing.T) {
	p := params(1)
	p.Type = "a100"
	for _, c := range []struct {
		g    int
		want nodes.Request
	}{
		{1, nodes.Request{Nodes: 1, Tasks: 1, CPUsPerTask: 8, GRESPerNode: []nodes.GRES{{Name: "gpu", Type: "a100", Count: 1}}}},
		{4, nodes.Request{Nodes: 1, Tasks: 4, CPUsPerTask: 8, GRESPerNode: []nodes.GRES{{Name: "gpu", Type: "a100", Count: 4}}}},
		{8, nodes.Request{Nodes: 2, Tasks: 8, CPUsPerTask: 8, GRESPerNode: []nodes.GRES{{Name: "gpu", Type: "a100", Count: 4}}}},
		{12, nodes.Request{Nodes: 3, Tasks: 12, CPUsPerTask: 8, GRESPerNode: []nodes.GRES{{Name: "gpu", Type: "a100", Count: 4}}}},
	} {
		got := p.Request(c.g)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%d GPUs: %s, want %s", c.g, got, c.want)
		}
		if err := got.Check(); err != nil {
			t.Errorf("%d GPUs: %v", c.g, err)
		}
	}
	if s := p.Request(8).String(); s != "nodes=2 ntasks=8 cpus-per-task=8 gres=gpu:a100:4" {
		t.Errorf("8 GPUs: %s", s)
	}
}

// TestShareAndCounts: at seed 1, 40,000 jobs, the share of GPU jobs is
// within 4.5 standard deviations of gpu_share (sqrt(0.25 x 0.75 /
// 40000) = 0.00217: a tolerance of 0.0098, which a correct generator
// misses with probability 7e-6 at a fresh seed), and the GPU counts of
// the GPU jobs fit the distribution by Pearson's chi-square with 3
// degrees of freedom below 21.1 (its 1e-4 quantile). Every GPU job's
// Procs is its request's CPUs, its request checks, and its GPUs are a
// value of the distribution; every CPU job has Req nil.
func TestShareAndCounts(t *testing.T) {
	const n = 40000
	p := params(n)
	jobs := all(t, p, 1, 0)
	if len(jobs) != n {
		t.Fatalf("%d jobs", len(jobs))
	}
	count := map[int]int{}
	gpuJobs := 0
	for _, j := range jobs {
		g := GPUs(j)
		if g == 0 {
			if j.Req != nil {
				t.Fatalf("job %d: Req %s without GPUs", j.ID, j.Req)
			}
			continue
		}
		gpuJobs++
		count[g]++
		if j.Procs != j.Req.CPUs() || j.Procs != g*8 {
			t.Fatalf("job %d: %d procs, request %s", j.ID, j.Procs, j.Req)
		}
		if err := j.Req.Check(); err != nil {
			t.Fatalf("job %d: %v", j.ID, err)
		}
	}
	share := float64(gpuJobs) / n
	if tol := 4.5 * math.Sqrt(0.25*0.75/n); math.Abs(share-0.25) > tol {
		t.Errorf("GPU share %.4f, want 0.25 +- %.4f", share, tol)
	}
	chi := 0.0
	for i, v := range p.GPUs.Values {
		e := p.GPUs.Probs[i] * float64(gpuJobs)
		d := float64(count[v]) - e
		chi += d * d / e
		delete(count, v)
	}
	if len(count) != 0 || chi > 21.1 {
		t.Errorf("GPU counts: chi-square %.2f (3 df), values outside the distribution %v", chi, count)
	}
	t.Logf("share %.4f, chi-square %.2f", share, chi)
}

// TestDeterministicAndCommon: the same seed gives the same jobs twice;
// another replication others; with gpu_share 0 the jobs are lublin's;
// at any share every job keeps lublin's arrival, runtime and request,
// and the GPU jobs at share 0.25 are GPU jobs at 0.5, with the same
// GPU count.
func TestDeterministicAndCommon(t *testing.T) {
	p := params(3000)
	a, b := all(t, p, 7, 2), all(t, p, 7, 2)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the same seed gave different jobs")
	}
	if reflect.DeepEqual(a, all(t, p, 7, 3)) {
		t.Fatal("replications 2 and 3 gave the same jobs")
	}
	src, err := lublin.New(p.Lublin, 7, 2)
	if err != nil {
		t.Fatal(err)
	}
	var lub []actual.Job
	for {
		j, err := src.Next()
		if err != nil {
			break
		}
		lub = append(lub, j)
	}
	zero := p
	zero.Share = 0
	if !reflect.DeepEqual(all(t, zero, 7, 2), lub) {
		t.Error("gpu_share 0: not lublin's jobs")
	}
	half := p
	half.Share = 0.5
	h := all(t, half, 7, 2)
	gpuA, gpuH := 0, 0
	for i := range lub {
		for _, j := range []actual.Job{a[i], h[i]} {
			if j.ID != lub[i].ID || j.Submit != lub[i].Submit || j.Runtime != lub[i].Runtime || j.Request != lub[i].Request {
				t.Fatalf("job %d: %+v, lublin's %+v", lub[i].ID, j, lub[i])
			}
			if j.Req == nil && j.Procs != lub[i].Procs {
				t.Fatalf("CPU job %d: %d procs, lublin's %d", j.ID, j.Procs, lub[i].Procs)
			}
		}
		if g := GPUs(a[i]); g > 0 {
			gpuA++
			if GPUs(h[i]) != g {
				t.Fatalf("job %d: %d GPUs at share 0.25, %d at 0.5", a[i].ID, g, GPUs(h[i]))
			}
		}
		if GPUs(h[i]) > 0 {
			gpuH++
		}
	}
	if gpuA == 0 || gpuH <= gpuA {
		t.Errorf("%d GPU jobs at 0.25, %d at 0.5", gpuA, gpuH)
	}
}

func TestParseDist(t *testing.T) {
	d, err := ParseDist("8:0.1,1:0.5,4:0.15,2:0.25")
	if err != nil {
		t.Fatal(err)
	}
	if want := (Dist{Values: []int{1, 2, 4, 8}, Probs: []float64{0.5, 0.25, 0.15, 0.1}}); !reflect.DeepEqual(d, want) {
		t.Fatalf("%+v", d)
	}
	if d.String() != DefaultGPUs || math.Abs(d.Mean()-2.4) > 1e-12 {
		t.Errorf("%s, mean %v", d, d.Mean())
	}
	if e, _ := ParseDist(""); !reflect.DeepEqual(e, d) {
		t.Errorf("empty: %+v", e)
	}
	for _, c := range []struct{ in, want string }{
		{"1:0.5", "the probabilities sum to 0.5: want 1"},
		{"1", `"1": want GPUS:PROBABILITY`},
		{"0:1", `"0:1": GPUs "0": want a whole number 1..4096`},
		{"x:1", `GPUs "x"`},
		{"5000:1", `GPUs "5000"`},
		{"1:0.5,1:0.5", "1 GPUs given twice"},
		{"1:-1,2:2", `probability "-1": want a number in (0, 1]`},
		{"1:NaN", `probability "NaN"`},
		{strings.Repeat("1:0.01,", 65) + "1:0", "66 values: at most 64"},
	} {
		if _, err := ParseDist(c.in); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.in, err, c.want)
		}
	}
}

// TestCheck: each bad parameter is refused, naming its setting.
func TestCheck(t *testing.T) {
	for _, c := range []struct {
		set  func(p *Params)
		want string
	}{
		{func(p *Params) { p.Share = -0.1 }, "gpu_share -0.1: want 0..1"},
		{func(p *Params) { p.Share = 1.5 }, "gpu_share 1.5: want 0..1"},
		{func(p *Params) { p.Share = math.NaN() }, "gpu_share NaN: want 0..1"},
		{func(p *Params) { p.CPUsPerGPU = 0 }, "cpus_per_gpu 0: want 1..8192"},
		{func(p *Params) { p.GPUsPerNode = 0 }, "gpus_per_node 0: want 1..1024"},
		{func(p *Params) { p.Type = "a 100" }, `gpu_type "a 100": want a GRES type`},
		{func(p *Params) { p.Type = "a:1" }, `gpu_type "a:1": want a GRES type`},
		{func(p *Params) { p.GPUs = Dist{} }, "gpus_per_job : no distribution"},
		{func(p *Params) { p.GPUs = Dist{Values: []int{2, 1}, Probs: []float64{0.5, 0.5}} }, "gpus_per_job 2:0.5,1:0.5: want values increasing"},
		{func(p *Params) { p.GPUs, _ = ParseDist("1:0.5,6:0.5") }, "gpus_per_job: 6 GPUs is above gpus_per_node 4 and not a multiple of it"},
		{func(p *Params) { p.CPUsPerGPU = 64 }, "gpus_per_job 8 x cpus_per_gpu 64 = 512 CPUs: more than the machine's 256 processors (platform.procs)"},
	} {
		p := params(10)
		c.set(&p)
		err := p.Check()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v, want %q", err, c.want)
		}
		if _, err := New(p, 1, 0); err == nil {
			t.Errorf("New accepted what Check refuses (%s)", c.want)
		}
	}
	p := params(10)
	p.GPUs, _ = ParseDist("12:1")
	p.Type = "v100"
	if err := p.Check(); err != nil {
		t.Errorf("12 GPUs, 3 nodes of 4: %v", err)
	}
	p.Share, p.CPUsPerGPU = 0, 64 // no GPU job: the size does not matter
	if err := p.Check(); err != nil {
		t.Errorf("share 0: %v", err)
	}
}

// TestDeclare: the scenario options build the workload, and their bad
// values are refused naming the key.
func TestDeclare(t *testing.T) {
	d := Declare()
	for _, o := range d.Options {
		if o.Key == "" || o.Doc == "" {
			t.Errorf("option %s: key %q, doc %q", o.Name, o.Key, o.Doc)
		}
	}
	build := func(texts map[string]string) (model.Built, error) {
		v, err := option.Check(d.Options, texts)
		if err != nil {
			return model.Built{}, err
		}
		return d.New(model.Env{Procs: 128, Jobs: 500, Seed: 3, Rep: 0}, v)
	}
	b, err := build(map[string]string{"gpu_share": "50%", "gpu_type": "h100"})
	if err != nil {
		t.Fatal(err)
	}
	gpu := 0
	for {
		j, err := b.Source.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if j.Request < j.Runtime {
			t.Fatalf("job %d: request %v below runtime %v", j.ID, j.Request, j.Runtime)
		}
		if j.Req != nil {
			gpu++
			if j.Req.GRESPerNode[0].Type != "h100" {
				t.Fatalf("job %d: %s", j.ID, j.Req)
			}
		}
	}
	if gpu < 200 || gpu > 300 { // 250 expected, sd 11
		t.Errorf("%d GPU jobs of 500 at 50%%", gpu)
	}
	for key, texts := range map[string]map[string]string{
		"gpus_per_job":   {"gpus_per_job": "1:0.7"},
		"gpu_share":      {"gpu_share": "2"},
		"gpu_type":       {"gpu_type": "a,b"},
		"gpus_per_node":  {"gpus_per_job": "1:0.5,3:0.5", "gpus_per_node": "2"},
		"platform.procs": {"cpus_per_gpu": "64"},
	} {
		_, err := build(texts)
		if err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("%v: %v, want an error naming %s", texts, err, key)
		}
	}
}
