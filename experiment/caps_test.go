package experiment

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/predict"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/workload"
)

// capsJobs are a few small jobs of two trace partitions (0 and 1) for
// an 8-CPU machine.
func capsJobs() []actual.Job {
	var jobs []actual.Job
	for i := range 6 {
		jobs = append(jobs, actual.Job{ID: job.ID(i + 1), Submit: float64(i), Procs: 1 + i%3, Runtime: 5, Estimate: 10, Request: 10,
			User: int32(i % 2), Partition: int32(i % 2)})
	}
	return jobs
}

// capsSpec is a run of qp with the layers of l (threads comes from qp).
func capsSpec(t *testing.T, qp registry.Entry, l layers) clusterSpec {
	t.Helper()
	opts, err := qp.Check(nil)
	var env policy.Env
	if qp.Name == "external" { // deciding in this process: a strict FCFS
		opts, err = qp.CheckInProcess(map[string]string{"view": "free"})
		env.Decider = &fcfsDecider{}
	}
	if err != nil {
		t.Fatal(err)
	}
	s := clusterSpec{plat: platform.MustCluster(8), qp: qp, opts: opts, env: env, src: workload.FromSlice(capsJobs()), lis: engine.Tee{}}
	if l.predict {
		s.predict = &predict.Params{}
	}
	if l.parts {
		s.parts = []engine.Partition{{Name: "a", CPUs: platform.Runs{0, 3}, Numbers: []int32{0}}, {Name: "b", CPUs: platform.Runs{4, 7}, Numbers: []int32{1}}}
	}
	if l.avail {
		s.avail = &engine.Availability{Windows: []policy.Window{{Start: 100, End: 200, CPUs: platform.Runs{0, 1}}}}
	}
	return s
}

// Every registered queue policy with every combination of layers: the
// assembly either refuses it with the table's message, which names the
// policy, or runs it, and then what the model's policy can do is what
// the table says (layeredCaps), and the run goes through.
func TestEveryPolicyEveryLayer(t *testing.T) {
	n := 0
	for _, model := range []string{registry.ModelCluster, registry.ModelHetero} {
		for _, name := range registry.Names(model, registry.KindQueue) {
			if name == "python" {
				// the external policy with a Python decision process (its
				// capabilities are external's, tested here; it needs an
				// interpreter and a class: policy/external and sweep test it)
				continue
			}
			qp, err := registry.Lookup(model, registry.KindQueue, name)
			if err != nil {
				t.Fatal(err)
			}
			if qp.Traits.NodesOnly {
				continue // no pool form (slurm): its refusal on a pool is tested with its declaration
			}
			for k := range 8 {
				l := layers{predict: k&1 != 0, parts: k&2 != 0, avail: k&4 != 0, threads: qp.Traits.Threads}
				t.Run(fmt.Sprintf("%s/%s/%v", model, name, l), func(t *testing.T) {
					s := capsSpec(t, qp, l)
					env := s.env
					env.Platform = s.plat
					b, err := qp.BuildValues(env, s.opts)
					if err != nil {
						t.Fatal(err)
					}
					own := policy.CapsOf(b.Queue)
					closePolicy(b.Queue)
					want := checkCombination(b.Queue.Name(), own, l)
					r, err := newClusterRun(s)
					if want != nil {
						if err == nil || err.Error() != want.Error() || !strings.Contains(err.Error(), name) && !strings.Contains(err.Error(), "estimate predict") {
							t.Fatalf("assembly: %v; the table refuses it with %q", err, want)
						}
						return
					}
					if err != nil {
						t.Fatalf("the table accepts it, the assembly says %v", err)
					}
					wantCaps := layeredCaps(own, l).Set()
					if got := r.eng.Caps().Set(); got != wantCaps {
						t.Fatalf("the model's policy can %v, the table says %v", got, wantCaps)
					}
					if !l.parts && r.caps.Set() != wantCaps {
						t.Fatalf("the run's caps are %v, the table says %v", r.caps.Set(), wantCaps)
					}
					if err := r.eng.Run(); err != nil {
						t.Fatalf("accepted, but the run fails: %v", err)
					}
					if err := closePolicy(r.pol); err != nil {
						t.Fatal(err)
					}
					n++
				})
			}
		}
	}
	if n < 40 {
		t.Fatalf("only %d combinations ran", n)
	}
}

// Hand-worked rows of the table, independent of it: what each known
// policy goes with.
func TestCombinationTable(t *testing.T) {
	e := &allCaps{}
	full := policy.CapsOf(e)
	backfill := full.Only(policy.CapReserve | policy.CapReestimate | policy.CapAvail | policy.CapForeign) // easy, conservative
	jrb := full.Only(policy.CapScreen | policy.CapSummary)
	external := full.Only(policy.CapFail | policy.CapClose)
	firstfitPlain := policy.Caps{}
	for _, c := range []struct {
		name string
		own  policy.Caps
		l    layers
		want string // "" accepted, else a part of the error
		caps policy.CapSet
	}{
		{"easy", backfill, layers{}, "", policy.CapReserve | policy.CapReestimate | policy.CapAvail | policy.CapForeign},
		{"easy", backfill, layers{predict: true}, "", policy.CapReserve | policy.CapForeign},
		{"easy", backfill, layers{parts: true, predict: true}, "", 0},
		{"easy", backfill, layers{parts: true, avail: true}, "", policy.CapAvail},
		{"easy", backfill, layers{avail: true, predict: true}, "do not go with estimate predict", 0},
		{"jrb", jrb, layers{predict: true}, "", policy.CapScreen},
		{"jrb", jrb, layers{parts: true}, "partitions do not go with policy jrb yet (it refuses jobs at submission)", 0},
		{"external", external, layers{parts: true}, "partitions do not go with policy external yet (one decision process per partition)", 0},
		{"external", external, layers{predict: true}, "", policy.CapFail | policy.CapClose},
		{"external", external, layers{avail: true}, "policy external does not plan around unavailable CPUs", 0},
		{"plain", firstfitPlain, layers{parts: true, predict: true}, "need a policy that plans around the jobs of other partitions (policy.ForeignLoad); plain does not", 0},
		{"matrix", firstfitPlain, layers{threads: true}, "", 0},
		{"matrix", firstfitPlain, layers{threads: true, parts: true}, "partitions do not go with policy matrix (jobs as threads) yet", 0},
	} {
		err := checkCombination(c.name, c.own, c.l)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s with %v: refused (%v), want accepted", c.name, c.l, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s with %v: %v, want %q", c.name, c.l, err, c.want)
		case c.want == "" && layeredCaps(c.own, c.l).Set() != c.caps:
			t.Errorf("%s with %v: can %v, want %v", c.name, c.l, layeredCaps(c.own, c.l).Set(), c.caps)
		}
		var pe *PartitionError
		if err != nil && c.l.parts && strings.HasPrefix(c.want, "partitions") && !errors.As(err, &pe) {
			t.Errorf("%s with %v: %T, want a *PartitionError", c.name, c.l, err)
		}
		if err != nil && strings.Contains(c.want, "unavailable CPUs") && !c.l.predict && !errors.Is(err, engine.ErrNoAvailabilityPlanner) {
			t.Errorf("%s with %v: not an engine.ErrNoAvailabilityPlanner", c.name, c.l)
		}
	}
}

// The timing layer of hetero runs passes on exactly its inner's
// Failer, nothing else.
func TestTimedForwards(t *testing.T) {
	for _, inner := range []policy.QueueScheduler{&allCaps{}, noCaps{}} {
		want := policy.CapsOf(inner).Only(policy.CapFail)
		if got := policy.CapsOf(newTimed(inner)); got != want {
			t.Errorf("timed over %T can %v, want %v", inner, got.Set(), want.Set())
		}
	}
}

// noCaps is a queue policy with no optional interface.
type noCaps struct{}

func (noCaps) Name() string                                    { return "none" }
func (noCaps) Submit(float64, job.Info)                        {}
func (noCaps) Finish(float64, job.ID)                          {}
func (noCaps) Schedule(float64, policy.Machines, *policy.Plan) {}

// allCaps is a queue policy with every optional interface.
type allCaps struct{ noCaps }

func (*allCaps) Refuse(job.Info) string                      { return "" }
func (*allCaps) SetOnReserve(func(float64, job.ID, float64)) {}
func (*allCaps) SetOnWindow(func(float64, job.ID))           {}
func (*allCaps) Reestimate(float64, job.ID, float64)         {}
func (*allCaps) Err() error                                  { return nil }
func (*allCaps) PlanAvailability([]policy.Window)            {}
func (*allCaps) Occupy(float64, job.ID, int, float64)        {}
func (*allCaps) Release(float64, job.ID)                     {}
func (*allCaps) ExamineEveryDeparture() bool                 { return false }
func (*allCaps) Close() error                                { return nil }
func (*allCaps) RankHead() (string, string)                  { return "", "" }
func (*allCaps) RefusalNote() string                         { return "" }

// What the registered policies can do, by hand from their packages.
func TestRegisteredCaps(t *testing.T) {
	for _, c := range []struct {
		model, name string
		want        policy.CapSet
	}{
		{registry.ModelCluster, "fcfs", policy.CapAvail | policy.CapForeign},
		{registry.ModelCluster, "firstfit", policy.CapForeign},
		{registry.ModelCluster, "easy", policy.CapReserve | policy.CapReestimate | policy.CapAvail | policy.CapForeign},
		{registry.ModelCluster, "conservative", policy.CapReserve | policy.CapReestimate | policy.CapAvail | policy.CapForeign},
		{registry.ModelCluster, "matrix", policy.CapWindows},
		{registry.ModelCluster, "jrb", policy.CapScreen | policy.CapSummary},
		{registry.ModelCluster, "external", policy.CapFail | policy.CapClose},
	} {
		qp, err := registry.Lookup(c.model, registry.KindQueue, c.name)
		if err != nil {
			t.Fatal(err)
		}
		s := capsSpec(t, qp, layers{})
		s.env.Platform = s.plat
		b, err := qp.BuildValues(s.env, s.opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := policy.CapsOf(b.Queue).Set(); got != c.want {
			t.Errorf("%s: can %v, want %v", c.name, got, c.want)
		}
		closePolicy(b.Queue)
	}
}
