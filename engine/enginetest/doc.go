// Package enginetest is the test harness of the engine and of every
// policy's tests, as net/http/httptest is for HTTP handlers: a recording
// listener, a scripted central-queue policy, a helper that runs a policy
// through the real central-queue model, job builders, and the bridge to
// the independent schedule checker (validate).
//
//   - Recorder (an engine.Listener) keeps every start (time, reason,
//     CPUs) in start order and every end (finished or killed, with a copy
//     of the job) in end order, and looks both up by job id.
//   - Scripted is a policy.QueueScheduler that makes exactly the starts
//     it is given at the instants it is given, and nothing else: a
//     harness for the model's rules.
//   - RunCluster runs a policy over jobs on a platform and returns its
//     Recorder; Check hands the recorded schedule to validate.Check.
//   - Job and Exact build jobs for hand-worked cases.
//
// It is imported by tests only (internal/lint's allowlist lets no other
// package import it). It sees actual runtimes, as the engine's listeners
// do; the policies' tests may use it because they drive the engine, never
// the policies' own code.
package enginetest
