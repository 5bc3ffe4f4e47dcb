package nodes

import (
	"strings"
	"testing"
)

func TestRequestCheck(t *testing.T) {
	ok := []Request{
		FromProcs(1),
		{Nodes: 2, Tasks: 8, CPUsPerTask: 2, MemPerNodeMB: 4000, GRESPerNode: []GRES{{"gpu", "a100", 2}}, Constraint: "a&b", Exclusive: true},
		{Nodes: 1, MaxNodes: 4, Tasks: 4, CPUsPerTask: 1, MemPerCPUMB: 100, GRESPerJob: []GRES{{"gpu", "", 4}}},
	}
	for _, r := range ok {
		if err := r.Check(); err != nil {
			t.Errorf("%v: %v", r, err)
		}
	}
	bad := map[string]Request{
		"tasks 0":                       {CPUsPerTask: 1},
		"cpus per task 0":               {Tasks: 1},
		"max nodes 1: want 2":           {Nodes: 2, MaxNodes: 1, Tasks: 4, CPUsPerTask: 1},
		"nodes 3: more than its 2":      {Nodes: 3, Tasks: 2, CPUsPerTask: 1},
		"both per node":                 {Tasks: 1, CPUsPerTask: 1, MemPerNodeMB: 1, MemPerCPUMB: 1},
		"gres per node gpu:a100: count": {Tasks: 1, CPUsPerTask: 1, GRESPerNode: []GRES{{"gpu", "a100", 0}}},
		"gres per job: gpu given twice": {Tasks: 1, CPUsPerTask: 1, GRESPerJob: []GRES{{"gpu", "", 1}, {"gpu", "", 2}}},
		"constraint \"a&\"":             {Tasks: 1, CPUsPerTask: 1, Constraint: "a&"},
		"more than":                     {Tasks: MaxCPUs, CPUsPerTask: 2},
	}
	for want, r := range bad {
		err := r.Check()
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%+v: error %v, want one with %q", r, err, want)
		}
	}
}

func TestRequestString(t *testing.T) {
	r := Request{Nodes: 2, MaxNodes: 3, Tasks: 8, CPUsPerTask: 2, MemPerNodeMB: 4000, GRESPerNode: []GRES{{"gpu", "a100", 2}}, GRESPerJob: []GRES{{"gpu", "", 1}}, Constraint: "a&b", Exclusive: true}
	want := "nodes=2-3 ntasks=8 cpus-per-task=2 mem=4000M gres=gpu:a100:2 gpus=gpu:1 constraint=a&b exclusive"
	if got := r.String(); got != want {
		t.Fatalf("String() = %q, want %q", got, want)
	}
	if got := FromProcs(5).String(); got != "ntasks=5" {
		t.Fatalf("FromProcs(5) = %q", got)
	}
	if FromProcs(5).CPUs() != 5 || r.CPUs() != 16 {
		t.Fatal("CPUs")
	}
}

// CoresAlone: tasks of one CPU and nothing else; nil (an SWF job) too.
func TestCoresAlone(t *testing.T) {
	for _, c := range []struct {
		r    *Request
		want bool
	}{
		{nil, true},
		{&Request{Tasks: 5, CPUsPerTask: 1}, true},
		{&Request{Tasks: 5, CPUsPerTask: 2}, false},
		{&Request{Nodes: 1, Tasks: 5, CPUsPerTask: 1}, false},
		{&Request{Tasks: 5, CPUsPerTask: 1, MaxNodes: 2}, false},
		{&Request{Tasks: 5, CPUsPerTask: 1, MemPerCPUMB: 1}, false},
		{&Request{Tasks: 5, CPUsPerTask: 1, MemPerNodeMB: 1}, false},
		{&Request{Tasks: 5, CPUsPerTask: 1, GRESPerJob: []GRES{{Name: "gpu", Count: 1}}}, false},
		{&Request{Tasks: 5, CPUsPerTask: 1, Constraint: "ib"}, false},
		{&Request{Tasks: 5, CPUsPerTask: 1, Exclusive: true}, false},
	} {
		if got := CoresAlone(c.r); got != c.want {
			t.Errorf("CoresAlone(%v) = %v, want %v", c.r, got, c.want)
		}
	}
}
