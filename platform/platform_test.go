package platform

import (
	"strings"
	"testing"
)

func TestGlobalCPUIds(t *testing.T) {
	p, err := New([]Machine{{CPUs: 2}, {CPUs: 4, Speed: 2}, {CPUs: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if p.CPUs() != 7 || p.Machines() != 3 {
		t.Fatalf("%d CPUs on %d machines, want 7 on 3", p.CPUs(), p.Machines())
	}
	// machine 0 owns 0-1, machine 1 owns 2-5, machine 2 owns 6
	wantFirst := []int{0, 2, 6}
	for m, w := range wantFirst {
		if p.First(m) != w {
			t.Errorf("First(%d) = %d, want %d", m, p.First(m), w)
		}
	}
	wantOf := []int{0, 0, 1, 1, 1, 1, 2}
	for c, w := range wantOf {
		if got := p.MachineOf(c); got != w {
			t.Errorf("MachineOf(%d) = %d, want %d", c, got, w)
		}
	}
}

func TestDuration(t *testing.T) {
	cases := []struct {
		m         Machine
		p, bm, dt float64
	}{
		{Machine{CPUs: 1}, 10, 0, 10},                  // reference speeds
		{Machine{CPUs: 1, Speed: 400}, 1000, 200, 500}, // twice as fast as BM_est
		{Machine{CPUs: 1, Speed: 200}, 1000, 600, 3000},
		{Machine{CPUs: 1, Speed: 2}, 10, 0, 5},    // BM_est 0 means 1
		{Machine{CPUs: 1, Speed: 3}, 0.7, 3, 0.7}, // equal speeds: exactly p
	}
	for _, c := range cases {
		if got := c.m.Duration(c.p, c.bm); got != c.dt {
			t.Errorf("%+v.Duration(%g, %g) = %g, want %g", c.m, c.p, c.bm, got, c.dt)
		}
	}
}

func TestNewRejects(t *testing.T) {
	cases := []struct {
		ms   []Machine
		want string
	}{
		{nil, "no machines"},
		{[]Machine{{CPUs: 0}}, "machine 0 has 0 CPUs"},
		{[]Machine{{CPUs: 2}, {CPUs: 2, Speed: -1}}, "machine 1 has speed -1"},
		{[]Machine{{CPUs: 2, Mem: -5}}, "machine 0 has memory -5"},
		{[]Machine{{CPUs: MaxCPUs}, {CPUs: 1}}, "machine 1: 1 CPUs takes the platform beyond the limit of 4194304 CPUs"},
		{[]Machine{{CPUs: 2147483647}}, "beyond the limit of 4194304 CPUs"},
	}
	for _, c := range cases {
		_, err := New(c.ms)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New(%v): error %v, want %q", c.ms, err, c.want)
		}
	}
	if _, err := Sites(make([]int, MaxMachines+1)); err == nil || !strings.Contains(err.Error(), "limit of 65536") {
		t.Errorf("too many sites: %v", err)
	}
}

func TestRunsText(t *testing.T) {
	var r Runs
	for _, c := range []int32{0, 1, 2, 3, 8, 10, 11} {
		r = r.Add(c)
	}
	if got := r.String(); got != "0-3 8 10-11" {
		t.Fatalf("got %q", got)
	}
	if r.Count() != 7 {
		t.Fatalf("count %d", r.Count())
	}
	if got := Runs(nil).String(); got != "" {
		t.Fatalf("empty set: %q", got)
	}
}

func TestHolds(t *testing.T) {
	m := Machine{CPUs: 4, Speed: 300, Mem: 1000}
	cases := []struct {
		procs      int
		mem, speed float64
		want       bool
	}{
		{4, 1000, 300, true}, {5, 0, 0, false}, {1, 1001, 0, false}, {1, 0, 301, false}, {1, 0, 0, true},
	}
	for _, c := range cases {
		if got := m.Holds(c.procs, c.mem, c.speed); got != c.want {
			t.Errorf("Holds(%d, %g, %g) = %v, want %v", c.procs, c.mem, c.speed, got, c.want)
		}
	}
	if !(Machine{CPUs: 2}).Holds(2, 1e9, 1) { // memory not modelled, speed 1 by default
		t.Error("a machine without modelled memory holds any memory")
	}
}

// Shared finds the lowest CPU of the first run two sets share, or none.
func TestRunsShared(t *testing.T) {
	for _, c := range []struct {
		a, b Runs
		cpu  int32
		ok   bool
	}{
		{Runs{0, 3}, Runs{4, 7}, 0, false},
		{Runs{0, 3}, Runs{3, 7}, 3, true},
		{Runs{5, 9}, Runs{0, 6}, 5, true},
		{Runs{0, 1, 10, 12}, Runs{2, 9, 12, 20}, 12, true},
		{Runs{0, 1, 10, 12}, Runs{2, 9, 13, 20}, 0, false},
		{nil, Runs{0, 5}, 0, false},
	} {
		if cpu, ok := c.a.Shared(c.b); cpu != c.cpu || ok != c.ok {
			t.Errorf("%v.Shared(%v) = %d, %v; want %d, %v", c.a, c.b, cpu, ok, c.cpu, c.ok)
		}
		if cpu, ok := c.b.Shared(c.a); cpu != c.cpu || ok != c.ok {
			t.Errorf("%v.Shared(%v) = %d, %v; want %d, %v", c.b, c.a, cpu, ok, c.cpu, c.ok)
		}
	}
}
