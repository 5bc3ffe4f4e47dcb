package backfill

// queueOrder is how the driver (pass.go) orders the queue before it
// plans, chosen when the policy is built from its Order (orderFor):
//
//   - FCFS and SJF (keptOrder): the queue is kept sorted as jobs are
//     inserted (waitQueue.insert); nothing to do before a pass.
//   - Flexible's priority (flexOrder, OrderPriority): every waiting job's
//     priority is recomputed and the queue re-sorted after a submission
//     or a completion (reprioritize, flexible.go).
//   - Slurm's multifactor priority (mfOrder, OrderMultifactor): re-sorted
//     at every pass (multifactor.go); when the order changed, every
//     reservation is planned anew (rebuild).
//
// A re-sort makes the pass a full one: new priorities reorder the queue,
// so every reservation is re-placed rather than trusted in slots computed
// in another order.
type queueOrder interface {
	// sort re-sorts the queue of b at now if it is due (changed: a
	// submission or a completion since the last pass) and reports
	// whether it did.
	sort(b *Backfill, now float64, changed bool) bool
}

type (
	keptOrder struct{}
	flexOrder struct{}
	mfOrder   struct{}
)

func (keptOrder) sort(*Backfill, float64, bool) bool { return false }

func (flexOrder) sort(b *Backfill, now float64, changed bool) bool {
	if changed {
		b.reprioritize(now)
	}
	return changed
}

// sort: nothing pinned; when the order changed, every reservation is
// planned anew in the new order, as Slurm's backfill plans every job in
// priority order at each cycle. (Without its state, set after the
// engine is built, the queue is never sorted.)
func (mfOrder) sort(b *Backfill, now float64, changed bool) bool {
	if b.mf == nil {
		return false
	}
	if b.mf.sort(now, b.w.q) {
		b.rebuild = true
	}
	return true
}

// orderFor returns the queue order of o.
func orderFor(o Order) queueOrder {
	switch o {
	case OrderPriority:
		return flexOrder{}
	case OrderMultifactor:
		return mfOrder{}
	}
	return keptOrder{}
}
