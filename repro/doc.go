// Package repro reproduces the experiments of the papers behind schedlab
// and sets our numbers beside the published ones.
//
// A reproduction yields a Report: comparison items (paper value, ours, 95%
// confidence interval), figures (CSV and SVG, through report/plot) and
// checks of the paper's qualitative claims, each saying whether it holds in
// our runs and by how much. Reports are deterministic for a given seed and
// independent of the number of workers.
package repro
