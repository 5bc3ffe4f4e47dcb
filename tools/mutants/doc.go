// Command mutants is the planted-bug check: it applies each of a list of
// small mutations (mutations.go) to the core code, one at a time, in a
// temporary copy of the repository, runs the tests there and reports which
// tests catch each mutation. A mutation that no test catches is a hole in
// the safety net. It runs on demand, not in CI (about a minute per
// mutation on 2 cores, after a first run of the whole suite):
//
//	go run ./tools/mutants                 # every mutation, then the table
//	go run ./tools/mutants -run 'egedf'    # the mutations whose name matches
//	go run ./tools/mutants -list           # the mutations, nothing run
//
// The copy holds the tracked and untracked (not ignored) files of the
// checkout as they are on disk, and a link named shared beside it to the
// folder ../shared of the checkout when there is one, so that the tests
// that use the real traces find them as in the checkout. The tests first
// run unmutated (every package of -pkgs must pass, else the run stops);
// then, per mutation, the same packages run again: Go's test cache
// re-runs only the packages the mutated file reaches. Flags:
//
//	-pkgs  the packages to test (default ./...)
//	-full  set SCHEDLAB_GOLDEN_FULL=1 (the full goldens: slower)
//	-timeout  go test's -timeout per run (a mutation can make a test hang)
//	-tags  go test's -tags (default invariants, so the tests behind that
//	       build tag run as well: docs/testing.md)
//	-keep  keep the temporary copy and print where it is
//
// The output is a Markdown table, one row per mutation: its name, what it
// changes, and the tests that failed (by package; "caught" is at least one
// failing test, a build failure or a timeout; the failure of this tool's
// own TestMutationsApply, which every mutation causes, is left out), then
// the count of mutations
// caught. It exits with status 1 when a mutation is not caught or no
// longer applies (its text is not found exactly once in its file: update
// mutations.go with the code). docs/testing.md holds the latest table.
package main
