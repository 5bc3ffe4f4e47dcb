// Package recorded declares the recorded policy of the cluster model:
// every job starts at the start its trace records (submit + SWF field 3,
// the wait; sacct's Start once imported), so that what the real machine
// did is a run of its own, beside simulations, with the same outputs and
// metrics, and a simulated run can be compared with it job for job
// ('schedlab calibrate').
//
// A job starts at its recorded start when it fits there (the lowest
// free CPU ids of the first machine with room: the trace does not say
// which CPUs it held). A job that does not fit then (the simulated
// machine is smaller than the real one, or the trace's records overlap)
// waits and starts at the first later pass where it fits; late jobs are
// tried in recorded order, but a job whose recorded start has come is
// not held back by a late one that does not fit (it fitted on the real
// machine). Late counts the jobs started after their recorded start
// (Late). A job whose trace records no start (SWF wait -1, or a source
// that moved submissions: resampling, all jobs at time 0) is refused at
// submission (a policy.Screener: counted, never simulated).
package recorded
