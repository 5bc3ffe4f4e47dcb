package engine

import (
	"fmt"

	"github.com/schedlab/schedlab/policy"
)

// wakes is what a central-queue model (Cluster, NodeCluster) keeps of
// its policy's wake-ups (policy.Plan.Wake, Batsim's CALL_ME_LATER):
// woke, a wake-up fired at this instant; jobEvent, a job arrived or
// ended at it (or the machine changed); idleWakes, the passes in a row
// caused by wake-ups alone that started or rejected nothing; wakeAt, the
// last wake-up pushed.
type wakes struct {
	woke, jobEvent bool
	idleWakes      int
	wakeAt         float64
}

// afterPass applies, once a pass's starts and rejections are applied,
// the rules of wake-ups: a run whose policy asks to be woken
// policy.MaxIdleWakes times in a row with nothing starting, arriving or
// ending stops with an error naming the policy; a wake-up after now is
// pushed while jobs wait, once (a policy repeating its request adds no
// event).
func (w *wakes) afterPass(k *kernel, plan *policy.Plan, name string, waiting int) error {
	wakeOnly := w.woke && !w.jobEvent
	w.woke, w.jobEvent = false, false
	if wakeOnly && len(plan.Starts) == 0 && len(plan.Rejects) == 0 {
		if w.idleWakes++; w.idleWakes >= policy.MaxIdleWakes {
			return fmt.Errorf("policy %s at t=%g: asked to be woken %d times in a row without a job starting, arriving or ending (%d job(s) waiting)",
				name, k.now, w.idleWakes, waiting)
		}
	} else {
		w.idleWakes = 0
	}
	if x := plan.Wake; x > k.now && waiting > 0 && x != w.wakeAt {
		k.events.Push(x, ClassTimer, -1)
		w.wakeAt = x
	}
	return nil
}
