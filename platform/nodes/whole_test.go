package nodes

import (
	"fmt"
	"testing"
)

// WholeAlloc of n2 on 2 nodes x 4 cores x 2 GPUs, 1000 MB: n2's cores
// 4-7, its 1000 MB and GPUs 2-3, exclusive. Held in a state, n2 has
// nothing free and takes no job (a 1-CPU job goes to n1); released, the
// state is empty again. On n1 running a job, it cannot be held.
func TestWholeAlloc(t *testing.T) {
	ns := twoNodes(t)
	a := ns.WholeAlloc(1)
	if got := fmt.Sprint(a); got != "{[{1 1 [4 5 6 7] 1000 [{gpu [2 3]}]}] true}" {
		t.Fatalf("WholeAlloc(1) = %s", got)
	}
	s := NewState(ns)
	if !s.Occupy(a) {
		t.Fatal("the empty state refuses n2 whole")
	}
	if s.FreeCores(1) != 0 || s.FreeMemMB(1) != 0 || !s.Whole(1) {
		t.Fatalf("n2 held whole: %d cores, %d MB free, whole %v", s.FreeCores(1), s.FreeMemMB(1), s.Whole(1))
	}
	j := mustAlloc(t, s, FromProcs(1))
	if j.Nodes[0].Node != 0 {
		t.Fatalf("a 1-CPU job on node %d beside n2 held whole", j.Nodes[0].Node)
	}
	s.Release(a)
	if s.FreeCores(1) != 4 || s.Whole(1) {
		t.Fatal("n2 not given back")
	}
	if s.Occupy(ns.WholeAlloc(0)) {
		t.Fatal("n1, running a job, held whole")
	}
}
