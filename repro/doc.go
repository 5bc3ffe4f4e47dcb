// Package repro reproduces the experiments of the papers behind schedlab
// and sets our numbers beside the published ones.
//
// A reproduction yields a Report: comparison items (paper value, ours, 95%
// confidence interval), figures (CSV and SVG, through report/plot) and
// checks of the paper's qualitative claims, each saying whether it holds in
// our runs and by how much. Reports are deterministic for a given seed and
// independent of the number of workers.
//
// The reproductions run the papers' configurations through package
// experiment, naming policies as package registry does (an unknown name
// fails with its typed error); settings a policy has no registry option
// for are dropped from a configuration so that equal runs are shared.
// Their replications run in parallel through sweep.Parallel (results
// independent of the number of workers). Readings lists the alternative
// readings of dimitriadou-karatza-2010's open rules as a fresh slice.
//
// FitTrace is al-najjar-2019's curve estimation (its Tables 2-9): the
// least-squares fit of a trace's runtimes on CPUs and memory per CPU,
// whose coefficients JRB's fitted ranks take ('schedlab fit'); the
// generic least squares is stats.FitOLS.
package repro
