package engine_test

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/engine/enginetest"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/workload"
)

// powerScript makes the switches and starts it is given by pass time,
// and plans around unavailable CPUs (the model requires it with power
// states).
type powerScript struct {
	starts map[float64][]policy.Start
	power  map[float64][]policy.PowerSwitch
	wake   map[float64]float64
}

func (s powerScript) Name() string                        { return "script" }
func (s powerScript) Submit(float64, job.Info)            {}
func (s powerScript) Finish(float64, job.ID)              {}
func (s powerScript) PlanAvailability(ws []policy.Window) {}
func (s powerScript) Schedule(now float64, v policy.Machines, p *policy.Plan) {
	p.Power = append(p.Power, s.power[now]...)
	p.Starts = append(p.Starts, s.starts[now]...)
	p.PowerWake = s.wake[now]
}

// TestPowerRefusals: on 3 CPUs with switching on 5 s and off 2 s, job
// 9 runs on CPU 0 from 0 and CPU 1 is switched off at 0 (switching until
// 2, off after). Job 1 arrives at its submit time. A start naming CPU 1
// at 1 (switching off) or at 3 (off) is refused, as is one of 2 CPUs
// while only CPU 2 is free, switching an on CPU on, a busy or a
// switching CPU off, and switches on a run without power states.
func TestPowerRefusals(t *testing.T) {
	type starts = map[float64][]policy.Start
	type switches = map[float64][]policy.PowerSwitch
	base := func(st starts, sw switches) powerScript {
		s := powerScript{starts: starts{0: {{ID: 9, CPUs: platform.Runs{0, 0}}}}, power: switches{0: {{CPUs: platform.Runs{1, 1}}}}}
		for k, v := range st {
			s.starts[k] = append(s.starts[k], v...)
		}
		for k, v := range sw {
			s.power[k] = append(s.power[k], v...)
		}
		return s
	}
	cases := []struct {
		name    string
		s       powerScript
		submit  float64
		procs   int
		noState bool
		want    string
	}{
		{"start on a CPU switching off", base(starts{1: {{ID: 1, CPUs: platform.Runs{1, 1}}}}, nil),
			1, 1, false, "start job 1: CPU 1 is switching off (a CPU runs a job only when on)"},
		{"start on an off CPU", base(starts{3: {{ID: 1, CPUs: platform.Runs{1, 1}}}}, nil),
			3, 1, false, "start job 1: CPU 1 is off (a CPU runs a job only when on)"},
		{"too few on", base(starts{3: {{ID: 1}}}, nil),
			3, 2, false, "start job 1: needs 2 processors, 1 free"},
		{"switch on an on CPU", base(nil, switches{1: {{CPUs: platform.Runs{2, 2}, On: true}}}),
			1, 1, false, "switch CPU 2 on: it is on (only an off CPU can be switched on)"},
		{"switch off a switching CPU", base(nil, switches{1: {{CPUs: platform.Runs{1, 1}}}}),
			1, 1, false, "switch CPU 1 off: it is switching off (only an idle CPU that is on can be switched off)"},
		{"switch off a busy CPU", base(nil, switches{1: {{CPUs: platform.Runs{0, 0}}}}),
			1, 1, false, "switch CPU 0 off: it runs a job"},
		{"no power states", base(nil, nil),
			1, 1, true, "the run has no power states"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			jobs := []actual.Job{enginetest.Exact(9, 0, 1, 100), enginetest.Exact(1, c.submit, c.procs, 100)}
			cfg := engine.ClusterConfig{Platform: enginetest.MustPlatform(t, platform.Machine{CPUs: 3}), Policy: c.s, Source: workload.FromSlice(jobs)}
			if !c.noState {
				cfg.Switching = &engine.Switching{OnS: 5, OffS: 2}
			}
			e, err := engine.NewCluster(cfg)
			if err != nil {
				t.Fatal(err)
			}
			err = e.Run()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

// TestPowerConfig: power states need a policy that plans around
// unavailable CPUs, and no reservations.
func TestPowerConfig(t *testing.T) {
	plat := enginetest.MustPlatform(t, platform.Machine{CPUs: 2})
	src := workload.FromSlice([]actual.Job{enginetest.Exact(1, 0, 1, 1)})
	if _, err := engine.NewCluster(engine.ClusterConfig{Platform: plat, Policy: enginetest.Scripted{}, Source: src, Switching: &engine.Switching{OnS: 1, OffS: 1}}); err == nil {
		t.Error("a policy without availability planning: no error")
	}
	av := &engine.Availability{Windows: []policy.Window{{Start: 1, End: 2, CPUs: platform.Runs{0, 0}}}}
	if _, err := engine.NewCluster(engine.ClusterConfig{Platform: plat, Policy: powerScript{}, Source: src, Availability: av, Switching: &engine.Switching{OnS: 1, OffS: 1}}); err == nil || !strings.Contains(err.Error(), "reservations") {
		t.Errorf("with reservations: %v", err)
	}
	if _, err := engine.NewCluster(engine.ClusterConfig{Platform: plat, Policy: powerScript{}, Source: src, Switching: &engine.Switching{OnS: 0, OffS: 1}}); err == nil {
		t.Error("switching on in 0 s: no error")
	}
}
