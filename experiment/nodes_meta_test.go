package experiment

import (
	"os"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
)

// startLog keeps every job's start time, by id and submit time (ids may
// repeat in a trace once their earlier job has ended).
type startLog struct {
	engine.NopListener
	starts map[startKey]float64
	order  []startKey
}

type startKey struct {
	id     job.ID
	submit float64
}

func (l *startLog) JobFinished(now float64, r *engine.Record) {
	k := startKey{r.Job.ID, r.Job.Submit}
	if l.starts == nil {
		l.starts = map[startKey]float64{}
	}
	l.starts[k] = r.Start
	l.order = append(l.order, k)
}

func (l *startLog) JobKilled(now float64, r *engine.Record) { l.JobFinished(now, r) }

// Metamorphic: a platform of nodes of one core each, with nothing else,
// is the pool of CPUs: under fcfs, firstfit and easy the whole KTH trace
// (and HPC2N, when the traces are beside the repository) starts every
// job at the same time on both (job for job). Conservative on nodes is
// not the pool's (docs/nodes.md, "Conservative on nodes"): it plans every
// reservation anew at each pass and a reservation holds named nodes,
// where the pool keeps its reservations and moves them only earlier, on
// counts; the number of KTH jobs that start at another time is pinned, so
// that a change of either is seen.
func TestNodesOfOneCoreAreThePool(t *testing.T) {
	traces := []struct {
		name  string
		procs int
		nodes string
	}{{"KTH-SP2-1996-2.1-cln.swf.gz", 100, "n[1-100]:cores=1"}}
	if _, err := os.Stat(hpc2n); err == nil && !testing.Short() {
		traces = append(traces, struct {
			name  string
			procs int
			nodes string
		}{hpc2n, 240, "n[001-240]:cores=1"})
	} else {
		t.Logf("HPC2N not at %s (or -short): KTH only", hpc2n)
	}
	for _, tr := range traces {
		for _, pol := range []string{"fcfs", "firstfit", "easy", "conservative"} {
			if pol == "conservative" && tr.procs != 100 {
				continue // conservative on nodes is too slow for HPC2N yet (docs/performance.md)
			}
			run := func(p PlatformSpec) *startLog {
				t.Helper()
				l := &startLog{}
				if _, err := (RunSpec{Workload: WorkloadSpec{Trace: tr.name}, Platform: p, Policy: PolicySpec{Name: pol},
					Outputs: OutputSpec{Listeners: []engine.Listener{l}}}).Run(); err != nil {
					t.Fatalf("%s %s: %v", tr.name, pol, err)
				}
				return l
			}
			pool := run(PlatformSpec{Procs: tr.procs})
			onNodes := run(PlatformSpec{Nodes: []string{tr.nodes}})
			if len(pool.order) != len(onNodes.order) {
				t.Fatalf("%s %s: %d jobs on the pool, %d on nodes", tr.name, pol, len(pool.order), len(onNodes.order))
			}
			diff, first := 0, startKey{}
			for _, k := range pool.order {
				if s, ok := onNodes.starts[k]; !ok || s != pool.starts[k] {
					if diff == 0 {
						first = k
					}
					diff++
				}
			}
			if pol == "conservative" {
				if want := 10620; diff != want {
					t.Errorf("%s conservative: %d of %d jobs start at another time on nodes of one core, want %d (the measured difference; the first, job %d, at %g on the pool, %g on nodes)",
						tr.name, diff, len(pool.order), want, first.id, pool.starts[first], onNodes.starts[first])
				}
				continue
			}
			if diff > 0 {
				t.Errorf("%s %s: %d of %d jobs start at another time on nodes of one core; the first, job %d (submitted %g), at %g on the pool, %g on nodes",
					tr.name, pol, diff, len(pool.order), first.id, first.submit, pool.starts[first], onNodes.starts[first])
			}
		}
	}
}
