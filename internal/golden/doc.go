// Package golden guards refactors: its test runs the real command line
// (cli.Main, in-process) and checks that the results are those saved in
// testdata (each change to testdata is a commit that says why the results
// changed: git log internal/golden/testdata). A refactor of the engine,
// the policies or the output code must leave every one of them unchanged.
// The package has no code of its own; everything is in golden_test.go.
//
// What is compared, and how:
//
//   - testdata/quick/<paper>/: "schedlab reproduce all --quick", run with
//     the real traces out of sight (no $SCHEDLAB_TRACES, none in the
//     folders searched from the test's folder), so that the result does not
//     depend on the machine: every CSV (claims.csv included), SVG and
//     report.txt, byte for byte (all three are deterministic and hold no
//     timings; the console output, which has timings, is not compared).
//   - testdata/full/<paper>/: "schedlab reproduce all" (about 60 s), traces
//     out of sight too: every CSV (claims.csv included), byte for byte.
//     Only when SCHEDLAB_GOLDEN_FULL=1 and not -short.
//   - testdata/quick-traces/<paper>/ and testdata/full-traces/<paper>/:
//     the reproductions that read real traces (today hafshejani2012, which
//     runs prefixes of HPC2N-2002 and SDSC-BLUE besides the embedded
//     KTH-SP2, and skips with a note a trace it does not find), run with
//     $SCHEDLAB_TRACES set to ../shared/traces beside the checkout;
//     compared as quick/ and full/. Both run in the default mode (about a
//     second); skipped, with the reason, when a trace is missing.
//
// A paper folder that a run writes without a golden folder, a golden
// folder that no run writes, and an output file without its golden file
// are failures, not notes: a new output is pinned (with -update) in the
// commit that adds it.
//   - testdata/sweep/<example>/: "schedlab sweep examples/<example>.yaml":
//     summary.csv and comparisons.csv, byte for byte, for every file in
//     examples/. The dimitriadou2010 example takes about 9 s and runs only
//     in full mode, as does kth-sleeper-sweep (about 30 s).
//   - testdata/kth-power/: "schedlab run --trace KTH-SP2-1996-2.1-cln.swf.gz
//     --policy easy --power 95:190.74": summary.json by key, and
//     sha256.txt the SHA-256 digests of energy.csv and jobs.csv, byte for
//     byte (taken where they agree with the binary before power states).
//   - testdata/kth/<policy>/: "schedlab run --trace
//     KTH-SP2-1996-2.1-cln.swf.gz --policy <policy>" for fcfs, easy and
//     conservative. jobs.csv (stored gzip-compressed) is compared by column
//     name: every golden column must be present with the same value on every
//     row, rows in the same order and as many; new columns are allowed.
//     summary.json: every golden key must have the same value (numbers
//     compared as written); new keys are allowed.
//   - testdata/hpc2n/<policy>/: the same runs on the HPC2N-2002 trace, read
//     from ../shared/traces beside the checkout; only
//     in full mode and when that file exists, else skipped. Its jobs.csv
//     files (19 MB each) are not stored: jobs.digest.json holds SHA-256
//     digests of the golden jobs.csv projected on the golden columns (see
//     below); summary.json is compared as for KTH except run.trace, which
//     is the path as given and is compared by base name only.
//
// The projection of a jobs.csv on a list of columns (the golden header, in
// golden order) is the text made of one line for the header and one line
// per data row, each line the values of those columns (by name, as
// encoding/csv decodes them) joined with "," and ended by "\n". For golden
// columns equal to the whole header (as stored) and a file without quoted
// fields, the projection is the file itself. jobs.digest.json holds the
// SHA-256 of the whole projection ("sha256"), of each column's values, each
// ended by "\n" ("column_sha256", in "columns" order), and of each block of
// "block_rows" projected data lines ("block_sha256"), so that a mismatch
// can be narrowed to columns and rows.
//
// Running:
//
//	go test ./internal/golden/                               # a few seconds
//	SCHEDLAB_GOLDEN_FULL=1 go test ./internal/golden/        # about a minute
//
// Regenerating. The -update flag (the standard library's habit) rewrites
// testdata from the current code instead of comparing:
//
//	SCHEDLAB_GOLDEN_FULL=1 go test ./internal/golden/ -update
//
// (without SCHEDLAB_GOLDEN_FULL=1 only the default-mode files are
// rewritten; -run narrows it further, e.g. -run 'TestSweeps/cluster-mmc').
// Regenerating is right only in a commit whose results are meant to
// change, such as a bug fix in a policy or a new metric, never to make a
// refactor pass; that commit's message says why the results changed.
// -update rewrites only what the tests that ran compare: review the diff
// (git diff --stat internal/golden/testdata) before committing it.
package golden
