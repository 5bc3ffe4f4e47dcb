package engine_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/engine/enginetest"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy/gang"
	"github.com/schedlab/schedlab/rng"
	"github.com/schedlab/schedlab/workload/synth"
)

// On random runs of the gang model (both approaches, both gang-size
// distributions, three loads, exact and 30%-off estimates): no processor
// ever runs two things at once; a gang's tasks start at the same instant on
// distinct processors, on one site under approach 1; and with exact
// estimates and T = 0 no backfilled local ends after the start of the gang
// it jumped.
func TestGangInvariants(t *testing.T) {
	for _, c := range []struct {
		approach int
		pow2     bool
		ia, e, T float64
	}{
		{1, false, 0.08, 0, 0}, {2, false, 0.08, 0, 0}, {1, true, 0.1, 0, 0}, {2, true, 0.1, 0, 0},
		{2, true, 0.12, 0, 0}, {1, false, 0.08, 0.3, 0}, {2, true, 0.08, 0.3, 1}, {2, false, 0.1, 0.1, 0.5},
	} {
		name := fmt.Sprintf("approach %d pow2 %v 1/λ %g E %g T %g", c.approach, c.pow2, c.ia, c.e, c.T)
		t.Run(name, func(t *testing.T) {
			const seed, rep = 11, 0
			var ls []engine.Source
			for s := 0; s < 2; s++ {
				l, _ := synth.NewLocals(seed, rep, s, 3, c.ia, 1, c.e)
				ls = append(ls, l)
			}
			gs, _ := synth.NewGangs(seed, rep, 3, 2, 1, synth.GangSizes{Pow2: c.pow2, Min: 2, Max: 13}, false, c.e)
			pol, _ := gang.New(gang.Options{Approach: c.approach, Threshold: c.T}, rng.New(seed, rep, rng.GridChoice))
			lg := &gangLog{Recorder: &enginetest.Recorder{}}
			g, err := engine.NewGangGrid(engine.GangConfig{Platform: platform.MustSites([]int{16, 16}), Policy: pol, Locals: ls, Gangs: gs, Listener: lg,
				SplitOverhead: 0.1, StopAfter: 30000})
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Run(); err != nil {
				t.Fatal(err)
			}
			runs := lg.runs
			// No processor runs two things.
			byProc := map[[2]int][]engine.TaskRun{}
			for _, r := range runs {
				k := [2]int{r.Machine, r.Proc}
				byProc[k] = append(byProc[k], r)
			}
			for k, rs := range byProc {
				slices.SortFunc(rs, func(a, b engine.TaskRun) int {
					if a.Start < b.Start {
						return -1
					} else if a.Start > b.Start {
						return 1
					}
					return 0
				})
				for i := 1; i < len(rs); i++ {
					if rs[i].Start < rs[i-1].End {
						t.Fatalf("processor %v runs job %d from %v while job %d runs until %v", k, rs[i].ID, rs[i].Start, rs[i-1].ID, rs[i-1].End)
					}
				}
			}
			// Gang tasks start together, on distinct processors.
			type gangRuns struct {
				starts []float64
				procs  map[[2]int]bool
				sites  map[int]bool
			}
			gangsSeen := map[job.ID]*gangRuns{}
			for _, r := range runs {
				if r.Task < 0 {
					continue
				}
				gr := gangsSeen[r.ID]
				if gr == nil {
					gr = &gangRuns{procs: map[[2]int]bool{}, sites: map[int]bool{}}
					gangsSeen[r.ID] = gr
				}
				gr.starts = append(gr.starts, r.Start)
				if gr.procs[[2]int{r.Machine, r.Proc}] {
					t.Fatalf("gang %d has two tasks on processor %d of site %d", r.ID, r.Proc, r.Machine)
				}
				gr.procs[[2]int{r.Machine, r.Proc}] = true
				gr.sites[r.Machine] = true
			}
			split := 0
			for id, gr := range gangsSeen {
				for _, s := range gr.starts {
					if s != gr.starts[0] {
						t.Fatalf("gang %d: tasks start at %v and %v", id, gr.starts[0], s)
					}
				}
				if len(gr.sites) > 1 {
					split++
					if c.approach == 1 {
						t.Fatalf("gang %d split over two sites under approach 1", id)
					}
				}
			}
			// Exact estimates, T = 0: backfilling never delays a gang.
			backfills := 0
			if c.e == 0 && c.T == 0 {
				for _, r := range runs {
					if r.Behind == 0 {
						continue
					}
					backfills++
					if st, ok := lg.Start(r.Behind); ok && r.End > st.At {
						t.Fatalf("local %d backfilled ahead of gang %d ends at %v, after the gang's start %v", r.ID, r.Behind, r.End, st.At)
					}
				}
				if backfills == 0 {
					t.Fatal("no backfill happened: the invariant was not exercised")
				}
			}
			t.Logf("%d runs, %d gangs started (%d split), %d backfills checked", len(runs), len(gangsSeen), split, backfills)
		})
	}
}
