package main

import (
	"strings"
	"testing"
)

// A stream with one passing package (a skipped subtest inside), one
// failing package and one without tests: the failing test's output is
// shown, the skip is listed with its reason, and the verdict is FAIL.
func TestSummarize(t *testing.T) {
	in := `{"Action":"start","Package":"a"}
{"Action":"run","Package":"a","Test":"TestX"}
{"Action":"output","Package":"a","Test":"TestX","Output":"=== RUN   TestX\n"}
{"Action":"output","Package":"a","Test":"TestX/hpc2n","Output":"=== RUN   TestX/hpc2n\n"}
{"Action":"output","Package":"a","Test":"TestX/hpc2n","Output":"    x_test.go:9: trace not available\n"}
{"Action":"output","Package":"a","Test":"TestX/hpc2n","Output":"--- SKIP: TestX/hpc2n (0.00s)\n"}
{"Action":"skip","Package":"a","Test":"TestX/hpc2n"}
{"Action":"output","Package":"a","Test":"TestX","Output":"--- PASS: TestX (0.01s)\n"}
{"Action":"pass","Package":"a","Test":"TestX"}
{"Action":"output","Package":"a","Test":"TestQuiet","Output":"--- SKIP: TestQuiet (0.00s)\n"}
{"Action":"skip","Package":"a","Test":"TestQuiet"}
{"Action":"output","Package":"a","Output":"PASS\n"}
{"Action":"output","Package":"a","Output":"ok  \ta\t0.1s\n"}
{"Action":"pass","Package":"a"}
{"Action":"output","Package":"b","Test":"TestY","Output":"=== RUN   TestY\n"}
{"Action":"output","Package":"b","Test":"TestY","Output":"    y_test.go:3: got 2, want 1\n"}
{"Action":"output","Package":"b","Test":"TestY","Output":"--- FAIL: TestY (0.00s)\n"}
{"Action":"fail","Package":"b","Test":"TestY"}
{"Action":"output","Package":"b","Output":"FAIL\n"}
{"Action":"output","Package":"b","Output":"FAIL\tb\t0.2s\n"}
{"Action":"fail","Package":"b"}
{"Action":"output","Package":"c","Output":"?   \tc\t[no test files]\n"}
{"Action":"skip","Package":"c"}
`
	var w strings.Builder
	s, err := summarize(strings.NewReader(in), &w)
	if err != nil {
		t.Fatal(err)
	}
	want := "ok  \ta\t0.1s\n" +
		"    y_test.go:3: got 2, want 1\n--- FAIL: TestY (0.00s)\nFAIL\nFAIL\tb\t0.2s\n" +
		"?   \tc\t[no test files]\n" +
		"\nSkipped tests: 2\n" +
		"  a TestQuiet: (no reason given)\n" +
		"  a TestX/hpc2n: x_test.go:9: trace not available\n" +
		"FAIL: 1 package(s) failed, 1 test(s) failed; 1 package(s) ok\n"
	if got := w.String(); got != want {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
	if s.OK() || s.Passed != 1 || s.Failed != 1 || s.NoTests != 1 || s.FailedTests != 1 || len(s.Skips) != 2 {
		t.Errorf("summary = %+v, want 1 passed, 1 failed, 1 without tests, 1 failed test, 2 skips, not OK", s)
	}
}

// Everything passing is OK and ends with PASS; an empty stream (go test
// could not start) is not OK.
func TestSummarizeVerdict(t *testing.T) {
	var w strings.Builder
	s, err := summarize(strings.NewReader(`{"Action":"output","Package":"a","Output":"ok  \ta\t0.1s\n"}
{"Action":"pass","Package":"a"}
`), &w)
	if err != nil || !s.OK() || !strings.HasSuffix(w.String(), "\nSkipped tests: 0\nPASS: 1 package(s) ok, 0 without tests, 0 test(s) skipped\n") {
		t.Errorf("all passing: ok %v, err %v, output %q", s.OK(), err, w.String())
	}
	w.Reset()
	s, err = summarize(strings.NewReader("go: cannot find main module\n"), &w)
	if err != nil || s.OK() || !strings.HasPrefix(w.String(), "go: cannot find main module\n") {
		t.Errorf("no events: ok %v, err %v, output %q", s.OK(), err, w.String())
	}
}
