// Package synth generates synthetic workloads: Poisson arrivals and
// exponential service demands (the queueing models of the papers), each
// drawn from its own seeded stream so that policies compared with the same
// seed see exactly the same jobs (common random numbers).
package synth
