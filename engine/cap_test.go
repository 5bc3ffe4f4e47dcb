package engine_test

import (
	"math"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/engine/enginetest"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/powercap"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/workload"
)

// TestCapRefusals: the kernel refuses what breaks a power cap, whatever
// the policy (a planted one that ignores the cap). 4 CPUs at 10 W idle
// and 30 W computing: 40 W idle, +20 W a busy CPU.
//
//   - cap 90 W: jobs 1 and 2 (1 CPU each) at 0 draw 80 W; job 3 started
//     at 0 too would make 100 W: refused, naming the policy, the time,
//     the job, the power and the cap.
//   - no cap, then 60 W from t=10: jobs 1 and 2 run [0, 100) at 80 W;
//     at 10 the cap falls below it: refused at the change.
//   - cap 90 W with power states switching off at 50 W (+40 W a CPU
//     over idle): switching 2 idle CPUs off at 0 would make 40 + 80 =
//     120 W: refused; 1 CPU, 80 W, is fine, and so is job 1 at 1 under
//     a cap of 100 W (CPU 3 still switching off until 2: 80 + 20 W).
//   - the cap's checks before work: a cap below the idle draw (39 W),
//     too many steps.
func TestCapRefusals(t *testing.T) {
	m := powercap.Model{IdleW: 10, ComputeW: 30}
	ms := powercap.Model{IdleW: 10, ComputeW: 30, OffW: 1, SwOnW: 20, SwOffW: 50}
	inf := math.Inf(1)
	one := func(ids ...int) []policy.Start {
		var s []policy.Start
		for _, id := range ids {
			s = append(s, policy.Start{ID: job.ID(id)})
		}
		return s
	}
	manySteps := make([]float64, engine.MaxCapSteps+1)
	for i := range manySteps {
		manySteps[i] = float64(i)
	}
	cases := []struct {
		name       string
		s          powerScript
		jobs       []actual.Job
		cap        engine.PowerCap
		sw         bool
		want       string
		wantNoFail bool
	}{
		{name: "start above the cap", s: powerScript{starts: map[float64][]policy.Start{0: one(1, 2, 3)}},
			jobs: []actual.Job{enginetest.Job(1, 0, 1, 100, 100), enginetest.Job(2, 0, 1, 100, 100), enginetest.Job(3, 0, 1, 100, 100)},
			cap:  engine.PowerCap{Times: []float64{0}, Watts: []float64{90}, Model: m},
			want: "policy script at t=0: start job 3: the machine would draw 100 W (3 CPUs busy), above the power cap of 90 W"},
		{name: "within the cap", s: powerScript{starts: map[float64][]policy.Start{0: one(1, 2)}},
			jobs: []actual.Job{enginetest.Job(1, 0, 1, 100, 100), enginetest.Job(2, 0, 1, 100, 100)},
			cap:  engine.PowerCap{Times: []float64{0}, Watts: []float64{80}, Model: m}, wantNoFail: true},
		{name: "cap falls below the power", s: powerScript{starts: map[float64][]policy.Start{0: one(1, 2)}},
			jobs: []actual.Job{enginetest.Job(1, 0, 1, 100, 100), enginetest.Job(2, 0, 1, 100, 100)},
			cap:  engine.PowerCap{Times: []float64{0, 10}, Watts: []float64{inf, 60}, Model: m},
			want: "at t=10 the power cap falls to 60 W, but the machine draws 80 W (2 CPUs busy): policy script"},
		{name: "switch off above the cap", s: powerScript{power: map[float64][]policy.PowerSwitch{0: {{CPUs: platform.Runs{2, 3}}}}, starts: map[float64][]policy.Start{1: one(1)}},
			jobs: []actual.Job{enginetest.Job(1, 1, 1, 10, 10)}, sw: true,
			cap:  engine.PowerCap{Times: []float64{0}, Watts: []float64{90}, Model: ms},
			want: "policy script at t=0: switch 2 CPUs off: the machine would draw 120 W, above the power cap of 90 W"},
		{name: "switch off within the cap", s: powerScript{power: map[float64][]policy.PowerSwitch{0: {{CPUs: platform.Runs{3, 3}}}}, starts: map[float64][]policy.Start{1: one(1)}},
			jobs: []actual.Job{enginetest.Job(1, 1, 1, 10, 10)}, sw: true,
			cap: engine.PowerCap{Times: []float64{0}, Watts: []float64{100}, Model: ms}, wantNoFail: true},
		{name: "below idle", s: powerScript{}, jobs: []actual.Job{enginetest.Job(1, 0, 1, 10, 10)},
			cap:  engine.PowerCap{Times: []float64{0, 5}, Watts: []float64{90, 39}, Model: m},
			want: "the power cap of 39 W from t=5 is below the machine's idle draw, 40 W (4 CPUs at 10 W idle)"},
		{name: "too many steps", s: powerScript{}, jobs: []actual.Job{enginetest.Job(1, 0, 1, 10, 10)},
			cap:  engine.PowerCap{Times: manySteps, Watts: make([]float64, len(manySteps)), Model: m},
			want: "at most 2001 (engine.MaxCapSteps)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := engine.ClusterConfig{Platform: platform.MustCluster(4), Policy: tc.s, Source: workload.FromSlice(tc.jobs), Cap: &tc.cap}
			if tc.sw {
				cfg.Switching = &engine.Switching{OnS: 5, OffS: 2}
			}
			c, err := engine.NewCluster(cfg)
			if err == nil {
				err = c.Run()
			}
			if tc.wantNoFail {
				if err != nil {
					t.Fatalf("error %v, want none", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
