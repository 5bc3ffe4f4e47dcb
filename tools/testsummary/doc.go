// Command testsummary reads the output of "go test -json" on its standard
// input and prints what "go test" prints without -json (one "ok" line per
// passing package, the output of every failing test, the "FAIL" lines,
// build errors), then the list of skipped tests with their reasons, then a
// final verdict: "PASS" or "FAIL" with counts. It exits with status 1 when
// a test or a package failed (or the input holds no package result), 0
// otherwise. .ci/run uses it so that a skip in CI is visible:
//
//	go test -json ./... | go run ./tools/testsummary
//
// A test's reason is its output without the "=== RUN"-style framing lines
// (what t.Skip and t.Log printed); a skipped test that printed nothing is
// listed with "(no reason given)".
package main
