package policy_test

import (
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/policy"
)

// every implements every optional interface.
type every struct{}

func (*every) Refuse(job.Info) string                                 { return "no" }
func (*every) SetOnReserve(func(float64, job.ID, float64))            {}
func (*every) SetOnWindow(func(float64, job.ID))                      {}
func (*every) Reestimate(float64, job.ID, float64)                    {}
func (*every) Err() error                                             { return nil }
func (*every) PlanAvailability([]policy.Window)                       {}
func (*every) Occupy(float64, job.ID, int, float64)                   {}
func (*every) Release(float64, job.ID)                                {}
func (*every) ExamineEveryDeparture() bool                            { return true }
func (*every) Close() error                                           { return nil }
func (*every) RankHead() (string, string)                             { return "r", "h" }
func (*every) RefusalNote() string                                    { return "" }
func (*every) OccupyNodes(float64, job.ID, nodes.Allocation, float64) {}
func (*every) ReleaseNodes(float64, job.ID)                           {}
func (*every) SetOnReason(func(float64, job.ID, policy.Reason))       {}

// screenOnly implements Screener alone.
type screenOnly struct{}

func (screenOnly) Refuse(job.Info) string { return "" }

// layer declares its capabilities, whatever methods it has.
type layer struct {
	*every
	caps policy.Caps
}

func (l layer) Caps() policy.Caps { return l.caps }

func TestCapsOf(t *testing.T) {
	e := &every{}
	c := policy.CapsOf(e)
	if c.Set() != policy.AllCaps {
		t.Fatalf("every: %v, want %v", c.Set(), policy.AllCaps)
	}
	if c.Screen != policy.Screener(e) || c.Close.Close() != nil || !c.Examine.ExamineEveryDeparture() {
		t.Fatal("every: the caps are not its own values")
	}
	if got := policy.CapsOf(screenOnly{}).Set(); got != policy.CapScreen {
		t.Fatalf("screenOnly: %v", got)
	}
	if got := policy.CapsOf(struct{}{}).Set(); got != 0 || got.String() != "none" {
		t.Fatalf("nothing: %v", got)
	}
	// A layer is taken at its word: it has every method, declares two.
	l := layer{e, policy.Caps{Fail: e, Foreign: e}}
	if got := policy.CapsOf(l).Set(); got != policy.CapFail|policy.CapForeign || got.String() != "fail+foreign" {
		t.Fatalf("layer: %v", got)
	}
}

func TestCapsOnlyAndString(t *testing.T) {
	c := policy.CapsOf(&every{})
	for s := policy.CapSet(0); s <= policy.AllCaps; s++ {
		if got := c.Only(s).Set(); got != s {
			t.Fatalf("Only(%v).Set() = %v", s, got)
		}
	}
	if got := policy.AllCaps.String(); got != "screen+reserve+windows+reestimate+fail+avail+foreign+examine+close+summary+nodeforeign+reasons" {
		t.Fatalf("AllCaps: %s", got)
	}
}
