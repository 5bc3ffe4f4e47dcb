// Package energy accounts the energy of a run on a pool of CPUs, exactly
// (closed form between events, no polling), from a power model of two
// states a CPU: IdleW when it runs no job, ComputeW when it runs one.
//
//   - The machine: total_j = IdleW x CPUs x T + (ComputeW - IdleW) x
//     (CPU-seconds of work), where T is the time from 0 to the last job's
//     end and the CPU-seconds are the integral of the busy CPUs over
//     [0, T]; mean power = total_j / T; peak power = IdleW x CPUs +
//     (ComputeW - IdleW) x the most CPUs busy at once.
//   - A job: consumed_j = (ComputeW - IdleW) x its CPUs x its run time
//     (end - start): the joules above idle it caused (a job requeued after
//     a failure: its last run only).
//
// With power states (Power.States: off watts and the time and energy of
// switching on and off, Batsim's energy platform) the meter also hears
// the CPUs' switches (an engine.PowerListener) and counts the CPUs off
// and switching: total_j gains (OffW - IdleW) x the CPU-seconds off and
// likewise for the two switches, each drawn at its joules over its
// seconds (docs/energy.md, "Power states"); Result's States fields.
//
// Under a carbon intensity or price signal (package platform/signal;
// Meter.SetSignals) the meter also integrates the machine's power times
// the signal, exactly (both are step functions: a sum of products over
// the intervals between their change points): Result's CarbonKg (and
// WorkCarbonKg, its part above idle) and Cost.
//
// Meter is the listener (an engine.TimeListener: it integrates the busy
// CPUs the kernel reports between instants, so failures and requeues are
// counted as the CPUs actually ran). Series lists the power at every
// change for an energy time series file. Trace runs use it with a power
// model (experiment.PlatformSpec.Power, 'run --power'); docs/energy.md
// says what is built and what is not.
package energy
