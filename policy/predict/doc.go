// Package predict gives a central-queue policy system-generated runtime
// predictions instead of the jobs' estimates: EASY++'s predictor (D.
// Tsafrir, Y. Etsion, D. G. Feitelson, "Backfilling using
// system-generated predictions rather than user runtime estimates", IEEE
// TPDS 18(6), 2007). docs/workloads.md ("Predicted runtimes") is the user's page.
//
// New(inner, Params) wraps any policy.QueueScheduler in a Predictor, a
// policy.QueueScheduler itself; NewNodes wraps a policy.NodeScheduler
// (a platform of nodes, docs/nodes.md) in a NodePredictor, the same core
// (predictions, learning, corrections) around a node scheduler, on which
// a job runs at the reference speed:
//
//   - Submit: a job's prediction is the mean of the runtimes of its
//     user's last K completed jobs (History: last2 = K 2, EASY++'s; avg:K),
//     at most the job's estimate (its request under the default estimate
//     model). A job keeps its estimate when its user is unknown (User <
//     0), has fewer than K runtimes known (with Params.Partial: none), or
//     when its estimate is not positive. The inner policy gets the job
//     with Estimate = the prediction; the predictor keeps the original.
//   - Runtimes are learned from what the policy sees, as a real resource
//     manager would: the starts of the inner policy's plans and the Finish
//     calls. A job's runtime (end - start, converted to the speed of its
//     estimate on a machine of another speed) enters its user's history
//     when it ends, in end order, killed or not.
//   - Correction: at each Schedule(now), before the inner policy's pass,
//     every running job whose predicted end (start + its prediction) is at
//     or before now gets a new prediction from the Correction rule,
//     applied step after step until the predicted end is after now or the
//     prediction reaches the request; the inner policy is told through
//     policy.Reestimator (an inner policy without it keeps its own view,
//     e.g. treats the job as overrunning). The predictor asks for a pass at
//     the next predicted end (Plan.Wake, kept if the inner policy asks
//     earlier), so corrections happen at the instant a prediction
//     expires whenever jobs are waiting (the model honours a wake-up only
//     then, and with nothing waiting a late correction changes no
//     decision).
//   - Kills are unchanged: the kernel kills a job at its request (or lets
//     it run on, under the continue option), whatever the prediction.
//
// Increments, EASY++'s correction: the k-th correction predicts the first
// prediction plus the k-th of 1 min, 5 min, 15 min, 30 min, 1 h, 2 h,
// 5 h, 10 h, 20 h, 50 h, 100 h (Ladder), at most the request; after the
// eleventh, the request. That is the "tsafrir" corrector of the pyss
// simulator as used by Gaussier et al. (SC'15; predictsim,
// schedulers/common_correctors.py: new = old - ladder[n] + ladder[n+1]),
// which adds the ladder to the first prediction, not to the elapsed time
// (a job corrected when it reaches prediction k-1 moves on by the
// difference of two ladder values). Request: the first correction
// predicts the request.
//
// Everything is deterministic: histories are read by user, corrections
// applied in (predicted end, job id) order; no map is iterated.
//
// The Predictor is a declared layer (policy.Layer): its capabilities
// (policy.Caps) are its inner policy's among Forwards (refusals,
// reservations, foreign load, failures, closing), each the inner's own
// value and absent when the inner policy lacks it, so a runner sees
// exactly what the layered policy can do; other optional methods of the
// inner policy are reached through Inner.
package predict
