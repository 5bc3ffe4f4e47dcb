package experiment

import (
	"errors"
	"fmt"

	"github.com/schedlab/schedlab/engine"
)

// MaxWaiting bounds the jobs waiting (arrived, not started) in a run of a
// synthetic model (grid, gang, cluster without a trace). A stable
// configuration keeps a short queue; one whose arrivals outpace its
// processors (offered load above 1, e.g. a mistyped mean_service) makes
// the queue grow until the memory runs out, so the run ends with an
// error at this bound instead (about 260 bytes a waiting job of the grid
// model: 130 MB, which a process limited to 1.5 GB of address space holds:
// TestOverloadedGridUnderAddressLimit).
const MaxWaiting = 500_000

// waitingError turns the engine's *WaitingError into a message for the
// user, with the model's offered load when it is above 1 (the reason the
// queue grows); other errors are returned as they are.
func waitingError(err error, model string, load float64) error {
	var we *engine.WaitingError
	if !errors.As(err, &we) {
		return err
	}
	why := "the queue grows without bound"
	if load > 1 {
		why = fmt.Sprintf("the offered load is %.4g, above 1: jobs arrive faster than the processors can serve them, so the queue grows without bound (lower mean_service or raise the mean inter-arrival times)", load)
	}
	return &waitingErr{fmt.Sprintf("%s model: more than %d jobs waiting at t=%.6g (limit experiment.MaxWaiting): %s", model, we.Limit, we.Time, why)}
}

// waitingErr is the user's message of an engine.ErrTooManyWaiting.
type waitingErr struct{ msg string }

func (e *waitingErr) Error() string { return e.msg }
func (e *waitingErr) Unwrap() error { return engine.ErrTooManyWaiting }
