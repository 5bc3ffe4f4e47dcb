// Package experiment runs simulations end to end: it wires a workload, a
// policy, the engine and the metric listeners, and writes the results of a
// run to an output folder atomically (all files appear together on
// success; on any error none is left behind and earlier results in the
// folder are untouched).
package experiment
