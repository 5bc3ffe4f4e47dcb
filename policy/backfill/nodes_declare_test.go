package backfill

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/option"
)

// On a platform of nodes every cluster declaration builds its node
// version (Built.Nodes, Built.Queue nil), with each of its orders, the
// name the CPU pool's build has; multifactor runs with its settings.
func TestNodeDeclarations(t *testing.T) {
	ns := mustNodes(t, "n[1-4]:cores=2")
	for _, d := range Declarations() {
		if d.Model != policy.ModelCluster {
			continue
		}
		orders := d.Options[0].Values
		for _, o := range orders {
			given := map[string]string{"order": o}
			if d.Name == "backfill" {
				given["depth"] = "2"
			}
			if o == "multifactor" {
				given["priority_weight_age"] = "1000"
			}
			v, err := option.Check(d.Options, given)
			if err != nil {
				t.Fatal(err)
			}
			b, err := d.New(policy.Env{Platform: platform.MustCluster(ns.Cores()), Nodes: ns}, v)
			if err != nil || b.Nodes == nil || b.Queue != nil {
				t.Fatalf("%s order %s: built %+v, %v", d.Name, o, b, err)
			}
			pool, err := d.New(policy.Env{Platform: platform.MustCluster(ns.Cores())}, v)
			if d.Traits.NodesOnly {
				if err == nil || !strings.Contains(err.Error(), "platform of nodes") {
					t.Errorf("%s order %s on the pool: built %+v, %v", d.Name, o, pool, err)
				}
			} else if err != nil || pool.Queue == nil || pool.Nodes != nil {
				t.Fatalf("%s order %s on the pool: built %+v, %v", d.Name, o, pool, err)
			} else if b.Nodes.Name() != pool.Queue.Name() {
				t.Errorf("%s order %s: named %q on nodes, %q on the pool", d.Name, o, b.Nodes.Name(), pool.Queue.Name())
			}
			if _, ok := b.Nodes.(policy.ReservationReporter); !ok {
				t.Errorf("%s: no ReservationReporter", d.Name)
			}
			// It schedules: two jobs of 4 CPUs on 8 cores start at once.
			var plan policy.Plan
			b.Nodes.Submit(0, job.Info{ID: 1, Procs: 4, Estimate: 10, User: 1})
			b.Nodes.Submit(0, job.Info{ID: 2, Procs: 4, Estimate: 10, User: 2})
			b.Nodes.Schedule(0, nil, &plan)
			if len(plan.Starts) != 2 || plan.Starts[0].Alloc == nil {
				t.Errorf("%s order %s: plan %+v", d.Name, o, plan)
			}
		}
	}
}

// A job whose request does not fit the platform is an error naming the
// job and its request (policy.Failer).
func TestNodePolicyRefusesWhatNeverFits(t *testing.T) {
	nb, err := NewNodePolicy(NodeConfig{Name: "easy", Nodes: mustNodes(t, "n[1-2]:cores=2"), Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	nb.Submit(0, job.Info{ID: 7, Procs: 5, Estimate: 1})
	if err := nb.Err(); err == nil || !strings.Contains(err.Error(), "job 7") || !strings.Contains(err.Error(), "ntasks=5") {
		t.Fatalf("got %v", err)
	}
}
