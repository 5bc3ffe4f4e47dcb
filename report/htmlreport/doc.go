// Package htmlreport turns a schedlab output folder into one
// self-contained HTML page, report.html: scripts, styles and data are
// inlined, so the page opens offline and fetches nothing.
//
// A trace run folder (jobs.csv and summary.json, as written by
// `schedlab run --out DIR`) gives the summary table; a Gantt chart of the
// schedule drawn on a canvas (CPU id against time, one rectangle per
// interval of allocated_resources, coloured by start reason, with hover,
// zoom and pan); utilization and queue length over time; and the
// distributions of wait and bounded slowdown. A run on a platform of
// nodes (jobs.csv has allocated_nodes) adds a Gantt chart by node (one
// row per node, a job on each of its nodes' rows) and the GPU units held
// over time (nodes.go); the pages of other runs are as they were.
//
// A sweep folder (summary.csv and comparisons.csv, from `schedlab sweep
// --out DIR`) gives every metric per point with its 95% confidence
// interval (a table and one chart per metric), the paired comparisons
// (a table and one chart of the differences and their CIs per metric),
// and one filter per swept parameter that hides the other points and
// comparisons. The metrics' declarations in metrics.json title the
// charts' axes ("mean wait (h)") and choose the units values are shown
// in: times in seconds in s, min, h or d by magnitude (seconds unless a
// point's key shows a Poisson workload, whose unit is the mean service
// time), fractions as percentages. The charts are SVG laid out by the
// page's script from the browser's text metrics, so that no two labels
// overlap: x labels wrap, or give way to the points' numbers.
//
// A reproduction folder (DIR/<paper>, from `schedlab reproduce --out
// DIR`) gives the claims of the paper with yes/no and the evidence
// (claims.csv), the published numbers beside ours with our 95% CIs
// (comparison.csv and the other item files), and the figures (figNN.svg,
// embedded as data URLs in <img> elements, so a figure cannot run a
// script). Write on DIR itself writes one page per paper folder.
//
// Compare sets two to MaxCompareRuns run folders of one trace side by
// side on one page (written where the caller says): the summaries in one
// table, one column per run; per job, matched by job id, the difference
// of wait and of response of every run against the first, with the
// counts of jobs helped, hurt and unchanged, a histogram and the jobs
// helped and hurt most; one Gantt chart per run on a shared, synchronised
// time axis; utilization and queue overlaid. Runs of different traces
// (the base name of run.trace, or the job ids and submission times) are
// refused.
//
// Promises:
//   - Write and Compare build the whole page in memory and then write it
//     atomically: on any error nothing is written (an older page is left
//     as it was);
//   - errors name the file and, for CSV content, the line and column;
//   - the same folder (or folders) gives a byte-identical page (no time stamps, no map
//     order, no machine dependence);
//   - the job data is embedded columnar (little-endian typed arrays in
//     base64, integers as Int32 when every value fits): about 40 bytes
//     per job plus 12 per CPU interval, so a 200,000-job trace gives a
//     page of roughly 10-15 MB;
//   - input sizes are bounded: at most MaxJobs rows in jobs.csv (in all
//     the runs of a comparison together), CPU ids as
//     validate.ParseResources bounds them, summary.json at most
//     MaxSummaryBytes, the tables of sweeps and reproductions at most
//     MaxTableRows rows, a figure at most MaxFigureBytes.
//
// This package sits at the report layer: it reads the files that the
// experiment, sweep and metrics packages write (and uses validate's
// parser of the interval syntax); none of those packages may import it.
package htmlreport
