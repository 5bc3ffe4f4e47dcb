// Package repro reproduces the experiments of the papers behind schedlab
// and sets our numbers beside the published ones.
//
// A reproduction yields a Report: comparison items (paper value, ours, 95%
// confidence interval), figures (CSV and SVG, through report/plot) and
// checks of the paper's qualitative claims, each saying whether it holds in
// our runs and by how much. Reports are deterministic for a given seed and
// independent of the number of workers.
//
// A reproduction describes each configuration of its paper as a
// scenario.Scenario value, the one a scenario file would give (the
// model, platform, workload and policy settings, the paper's seed,
// replications and jobs; policies and options named as package registry
// names them, options the policy does not declare left out, so that
// equal runs have one key), and runs them through a sweep.Memo: the
// sweep's replication core (sweep.Run, experiment.RunReplication), each
// scenario key run once however often a figure or a search asks for it,
// every replication in parallel (results independent of the number of
// workers). Metrics are read by the model's metric names; what no
// metric reports (the jobs simulated, al-najjar-2019's TET from the
// run's summary, the hetero policies' wall-clock decision time,
// hafshejani-2012's per-job responses and matrix's window heads) from
// the model's typed result, experiment.RepMetrics.Detail. Means and 95%
// intervals are stats.CI95's, as in a sweep's summary. hafshejani2012's
// workloads are scenario settings too: a trace's first jobs
// (workload.jobs), its synthetic workloads (workload.model hafshejani)
// and the batch reading (workload.submit zero). Readings lists the alternative
// readings of dimitriadou-karatza-2010's open rules as a fresh slice.
//
// FitTrace is al-najjar-2019's curve estimation (its Tables 2-9): the
// least-squares fit of a trace's runtimes on CPUs and memory per CPU,
// whose coefficients JRB's fitted ranks take ('schedlab fit'); the
// generic least squares is stats.FitOLS.
package repro
