// Package capping is the power-capping layer: a layer around any queue
// policy of the cluster model that plans around unavailable CPUs
// (policy.AvailabilityPlanner: fcfs, easy, conservative, backfill), on
// a pool of CPUs of one machine under a power cap (docs/energy.md,
// "Power caps"). The rule: a job starts only if the machine's power
// stays within the cap from now through the job's estimated end, given
// the running jobs' power until their estimated ends.
//
// With the two-number model a CPU draws IDLE_W idle and COMPUTE_W busy,
// so a cap of W watts at time t allows A(t) busy CPUs, the most b with
// IDLE_W x CPUs + (COMPUTE_W - IDLE_W) x b <= W (powercap.MaxBusy), and
// the rule is: B(t) + p <= A(t) over [now, now + estimate), B(t) the
// CPUs of the running jobs whose estimated end is after t. That is a
// count of CPUs over time, which the inner policy already plans with
// when CPUs are reserved: the layer hands it the cap as announced
// windows of CPUs (PlanAvailability: over each step of the cap that
// allows A < CPUs, the CPUs A..CPUs-1), so EASY's reservation for its
// head job, conservative's plan and every backfill see the cap's
// future exactly as they see a maintenance window's. At each pass the
// inner policy's view (Free, Horizons) is that of a machine with those
// windows, counted not named (the windows are virtual: any CPU can run
// a job, only their number is bounded):
//
//   - Free: min(idle CPUs, A(now) - busy) (never below 0);
//   - Horizons: of those CPUs, the k-th has the horizon of the first
//     time t after now at which A(t) - B(t) < k (+Inf: none), so that
//     "p CPUs clear until now + d" is exactly the rule.
//
// The layer filters nothing: the inner policy's plan holds only starts
// that keep within the cap, and a job the cap holds stays waiting in
// the inner policy's queue. The kernel passes at every change of the
// cap (engine.PowerCap: a background event at each step), so a held job
// starts at the window's boundary when the cap rises.
//
// A job that could not run under the highest cap even on an idle
// machine never reaches the inner policy: the layer rejects it at its
// next pass (Plan.Rejects) and counts it (Rejected).
//
// The layer measures HeldS, the time during which jobs waited in the
// inner policy while the cap kept idle CPUs from it, and HeldCPUS, those
// idle CPUs times that time.
//
// A declared layer (policy.Layer): its capabilities are its inner
// policy's among Forwards, availability planning its own.
// Deterministic: no map is iterated.
package capping
