package engine_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/engine/enginetest"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy/gang"
	"github.com/schedlab/schedlab/workload"
)

func runScripted(p platform.Platform, jobs []actual.Job, s enginetest.Scripted) (*enginetest.Recorder, error) {
	return enginetest.Run(p, s, jobs, enginetest.Options{})
}

// Two machines: m0 has CPUs 0-1 at the reference speed 1, m1 has CPUs
// 2-5 at speed 2. Job 1 (runtime 10 at speed 1) on m1 takes 10 x 1/2 = 5;
// job 2 (runtime 10 measured at BM_est 2) on m0 takes 10 x 2/1 = 20; job 3
// names its CPU (5) on m1 and takes 6 x 1/2 = 3. Without named CPUs a job
// gets the lowest free ids of its machine.
func TestSpeedScalingAndCPUIds(t *testing.T) {
	p, err := platform.New([]platform.Machine{{CPUs: 2}, {CPUs: 4, Speed: 2}})
	if err != nil {
		t.Fatal(err)
	}
	jobs := []actual.Job{
		{ID: 1, Submit: 0, Procs: 3, Runtime: 10, Estimate: 10, Request: -1},
		{ID: 2, Submit: 0, Procs: 2, Runtime: 10, Estimate: 10, Request: -1, BMEst: 2},
		{ID: 3, Submit: 1, Procs: 1, Runtime: 6, Estimate: 6, Request: -1},
	}
	l, err := runScripted(p, jobs, enginetest.Scripted{
		0: {{ID: 1, Machine: 1}, {ID: 2, Machine: 0}},
		1: {{ID: 3, Machine: 1, CPUs: platform.Runs{5, 5}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	type run struct {
		start, end float64
		machine    int
		cpus       string
	}
	want := map[job.ID]run{
		1: {0, 5, 1, "2-4"},
		2: {0, 20, 0, "0-1"},
		3: {1, 4, 1, "5"},
	}
	for id, w := range want {
		e, _ := l.End(id)
		if got := (run{e.Start, e.End, e.Machine, e.CPUs.String()}); got != w {
			t.Errorf("job %d: got %+v, want %+v", id, got, w)
		}
	}
}

// Every illegal start is an error naming the policy, the time and the job.
func TestIllegalStartsAreErrors(t *testing.T) {
	p, err := platform.New([]platform.Machine{{CPUs: 2, Mem: 1000}, {CPUs: 4}})
	if err != nil {
		t.Fatal(err)
	}
	a := actual.Job{ID: 1, Submit: 0, Procs: 3, Runtime: 10, Estimate: 10, Request: -1}
	b := actual.Job{ID: 2, Submit: 0, Procs: 2, Runtime: 10, Estimate: 10, Request: -1}
	big := actual.Job{ID: 3, Submit: 0, Procs: 1, Runtime: 10, Estimate: 10, Request: -1, Mem: 2000}
	later := actual.Job{ID: 4, Submit: 5, Procs: 1, Runtime: 1, Estimate: 1, Request: -1}
	cases := []struct {
		name string
		jobs []actual.Job
		s    enginetest.Scripted
		want string
	}{
		{"machine too small", []actual.Job{a}, enginetest.Scripted{0: {{ID: 1, Machine: 0}}},
			"policy scripted at t=0: start job 1: needs 3 processors, machine 0 has 2"},
		{"not enough free CPUs", []actual.Job{a, b}, enginetest.Scripted{0: {{ID: 1, Machine: 1}, {ID: 2, Machine: 1}}},
			"policy scripted at t=0: start job 2: needs 2 processors, 1 free on machine 1"},
		{"busy CPUs", []actual.Job{b, {ID: 5, Submit: 0, Procs: 1, Runtime: 1, Estimate: 1, Request: -1}},
			enginetest.Scripted{0: {{ID: 2, Machine: 1}, {ID: 5, Machine: 1, CPUs: platform.Runs{3, 3}}}},
			"policy scripted at t=0: start job 5: CPU 3 is busy"},
		{"CPU on another machine", []actual.Job{b}, enginetest.Scripted{0: {{ID: 2, Machine: 1, CPUs: platform.Runs{1, 2}}}},
			"policy scripted at t=0: start job 2: CPU 1 is not on machine 1"},
		{"wrong CPU count", []actual.Job{b}, enginetest.Scripted{0: {{ID: 2, Machine: 1, CPUs: platform.Runs{2, 4}}}},
			"policy scripted at t=0: start job 2: names 3 CPUs for 2 processors"},
		{"memory", []actual.Job{big}, enginetest.Scripted{0: {{ID: 3, Machine: 0}}},
			"policy scripted at t=0: start job 3: needs 2000 KB of memory per CPU, machine 0 has 1000"},
		{"before arrival", []actual.Job{b, later}, enginetest.Scripted{0: {{ID: 4, Machine: 1}}},
			"policy scripted at t=0: start job 4: the job is not waiting"},
		{"no such machine", []actual.Job{b}, enginetest.Scripted{0: {{ID: 2, Machine: 2}}},
			"policy scripted at t=0: start job 2: no machine 2 (the platform has 2)"},
		{"started twice", []actual.Job{b}, enginetest.Scripted{0: {{ID: 2, Machine: 1}, {ID: 2, Machine: 1}}},
			"policy scripted at t=0: start job 2: the job is not waiting"},
		{"CPUs named twice", []actual.Job{b}, enginetest.Scripted{0: {{ID: 2, Machine: 1, CPUs: platform.Runs{2, 2, 2, 2}}}},
			"policy scripted at t=0: start job 2: CPUs [2 2 2 2] are not ascending, disjoint, merged runs"},
		{"reversed run", []actual.Job{b}, enginetest.Scripted{0: {{ID: 2, Machine: 1, CPUs: platform.Runs{3, 2}}}},
			"policy scripted at t=0: start job 2: CPUs [3 2] are not ascending, disjoint, merged runs"},
		{"unmerged runs", []actual.Job{b}, enginetest.Scripted{0: {{ID: 2, Machine: 1, CPUs: platform.Runs{2, 2, 3, 3}}}},
			"policy scripted at t=0: start job 2: CPUs [2 2 3 3] are not ascending, disjoint, merged runs"},
		{"odd CPU list", []actual.Job{b}, enginetest.Scripted{0: {{ID: 2, Machine: 1, CPUs: platform.Runs{2, 3, 4}}}},
			"policy scripted at t=0: start job 2: CPU list of odd length 3"},
		{"immediate after waiting", []actual.Job{b, later}, enginetest.Scripted{5: {{ID: 2, Machine: 1, Reason: job.Immediate}}},
			"policy scripted at t=5: start job 2: start reason immediate, but the job was submitted at t=0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := runScripted(p, c.jobs, c.s)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
}

// A job whose memory no machine has is rejected when it is read, not
// blamed on the policy.
func TestJobNoMachineCanHold(t *testing.T) {
	p, _ := platform.New([]platform.Machine{{CPUs: 2, Mem: 1000}, {CPUs: 4, Mem: 500}})
	_, err := runScripted(p, []actual.Job{{ID: 8, Procs: 1, Runtime: 1, Estimate: 1, Request: -1, Mem: 2000}}, enginetest.Scripted{})
	if err == nil || !strings.Contains(err.Error(), "job 8: no machine can hold it (1 processors, 2000 KB of memory per CPU") {
		t.Fatalf("error %v", err)
	}
}

// A deadline before the submit time is bad input, named with the job.
func TestDeadlineBeforeSubmit(t *testing.T) {
	_, err := runScripted(platform.MustCluster(2), []actual.Job{{ID: 4, Submit: 10, Procs: 1, Runtime: 1, Estimate: 1, Request: -1, Deadline: 5}}, enginetest.Scripted{})
	if err == nil || !strings.Contains(err.Error(), "job 4: deadline 5 is before its submit time 10") {
		t.Fatalf("error %v", err)
	}
}

// A job no machine can hold is rejected when it is read.
func TestJobLargerThanEveryMachine(t *testing.T) {
	p := platform.MustSites([]int{2, 4})
	_, err := runScripted(p, []actual.Job{{ID: 9, Procs: 5, Runtime: 1, Estimate: 1, Request: -1}}, enginetest.Scripted{})
	if err == nil || !strings.Contains(err.Error(), "job 9: needs 5 processors, the largest machine has 4") {
		t.Fatalf("error %v", err)
	}
}

// A gang's record names the site it ran on (it used to carry the index of
// the gang source instead: site 2 on a two-site grid). Sites of 1 and 2
// processors: the 2-task gang fits only site 1, CPUs 1-2.
func TestGangRecordNamesItsSite(t *testing.T) {
	l := &enginetest.Recorder{}
	pol, err := gang.New(gang.Options{Approach: 1}, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.NewGangGrid(engine.GangConfig{Platform: platform.MustSites([]int{1, 2}), Policy: pol,
		Locals: []engine.Source{workload.FromSlice(nil), workload.FromSlice(nil)},
		Gangs:  workload.FromSlice([]actual.Job{gangJob(100, 0, 3, 4)}), Listener: l})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Run(); err != nil {
		t.Fatal(err)
	}
	got, _ := l.End(100)
	if got.Machine != 1 || got.CPUs.String() != "1-2" || !slices.Equal(got.Sites, []int{1}) || got.End != 4 {
		t.Fatalf("gang record %+v, want machine 1, CPUs 1-2, sites [1], end 4", got)
	}
}
