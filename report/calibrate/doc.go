// Package calibrate compares a simulated run with the recorded one job
// for job: how close the model is to the machine before any what-if.
// It reads two jobs.csv files (the run of `--policy recorded`, which is
// the trace's own schedule, and a simulation of the same trace), matches
// jobs by id, and reports the start-time error distribution (simulated
// start minus recorded start), the mean and median waits of both with
// the mean wait's relative error, and the same per partition and per
// user. docs/slurm.md ("Calibration") explains how to read it.
package calibrate
