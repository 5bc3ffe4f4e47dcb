// Package sleep is the idle sleeper: a layer around any queue policy of
// the cluster model on a pool of CPUs whose CPUs have power states
// (engine.ClusterConfig.Switching, a power model with off watts and
// switching times: docs/energy.md, "Power states"). It switches a CPU
// off once it has been idle for a timeout and switches CPUs on when the
// waiting jobs need more CPUs than are idle or switching on, keeping at
// least Keep CPUs on; batsched's energy_bf_idle_sleeper is the
// behaviour it follows (docs/energy.md, "An idle sleeper", says where it
// differs).
//
// At each pass at time now, with D the CPUs the waiting jobs ask for in
// all (the sum of their sizes, as the layer saw them submitted and not
// yet started or rejected):
//
//  1. Off, before the inner policy's pass: the idle CPUs that are on and
//     idle since at most now - After are candidates; the layer switches
//     off n of them, n = min(candidates, idle - D, on - Keep) (on: the
//     CPUs on or switching on; idle: on and running no job), the
//     longest idle first (ties: the highest id first). The inner policy
//     sees the pass without them (Free and Down count them as down), so
//     it can still start every waiting job it wants: at least D idle
//     CPUs stay on.
//  2. The inner policy's pass.
//  3. On, after it: with D' the CPUs the jobs still waiting ask for and
//     S' the idle CPUs left (idle - n - the CPUs of the pass's starts)
//     plus the CPUs switching on, when D' > S' the layer switches on
//     min(D' - S', off) CPUs that are off, lowest ids first (a CPU
//     switching off cannot be switched on until it is off: the end of
//     its switch is a pass, where this rule runs again).
//  4. Plan.PowerWake: the first time after now at which an idle CPU
//     reaches the timeout (idle since + After).
//
// The rules cover the whole platform as one pool (trace runs have one
// machine). A pass costs O(CPUs log CPUs).
package sleep
