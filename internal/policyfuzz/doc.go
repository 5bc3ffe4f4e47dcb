// Package policyfuzz holds one test, TestEveryPolicy: a randomized run
// of every policy the registry declares, of every implemented model
// (cluster, grid, gang, hetero), through the normal run path, each run
// checked by the independent checker (package validate) and the
// invariants every schedule must keep. The package has no code of its
// own; it is a test package so that the planted-bug check
// (tools/mutants -pkgs ./internal/policyfuzz/) can show what this test
// alone catches.
//
// For each declared policy (registry.Models, registry.Policies) the test
// draws, from a seeded stream, values of every declared option
// (policy/option.Decl: in range for numbers, one of the values for
// enumerations, true or false; text options keep their default; an
// option read only under another's value, Decl.On, only then; each
// option left at its default one time in four), and a small random
// workload and platform:
//
//   - cluster: a generated SWF trace (30 to 300 jobs of 1 to M CPUs on a
//     machine of 8 to 64, requests above or below the runtime, users,
//     groups, memory) run by experiment.RunSpec.Run with Outputs.Check (what
//     'schedlab run --check' does) and, for a policy that reports its
//     reservations, Planned (planned.csv);
//   - grid, gang, hetero: a scenario file (scenario.Parse) run by
//     experiment.RunReplication, as a sweep runs it, with a listener
//     that records every job, checked by validate.Check (capacity, CPU
//     ids, none held twice, one machine for the hetero model, start >=
//     submit, durations) and for each job: submitted before it ends,
//     ended once, start >= submit.
//
// Draws that the policy's own Check refuses (an option combination it
// does not accept, such as the external policy's missing command) are
// redrawn and counted, never failures; the test logs, per policy, the
// runs made and the draws refused. Besides validity, a cluster policy
// that reports its reservations (policy.ReservationReporter) must keep
// them when its queue is in submit order and jobs are killed at their
// request: no job starts after the first start it was planned for.
//
// docs/testing.md says how long it takes and how to reproduce a failing
// run from the seed its message prints.
package policyfuzz
