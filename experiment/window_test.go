package experiment

import (
	"strconv"
	"strings"
	"testing"
)

// A run restricted to a window of KTH-SP2 (its header places dates:
// UnixStartTime 843480031, Europe/Stockholm) simulates exactly the jobs
// submitted in it; seconds and dates name the same window.
func TestTraceWindow(t *testing.T) {
	all, err := (RunSpec{Workload: WorkloadSpec{Trace: "KTH-SP2-1996-2.1-cln.swf.gz"}, Policy: PolicySpec{Name: "fcfs"}}).Run()
	if err != nil {
		t.Fatal(err)
	}
	// 1996-10-01 00:00 CEST (UTC+2) is 1075200 - 7200 s after the start
	// (1996-09-23 12:00:31 UTC = 843480031).
	byDate, err := (RunSpec{Workload: WorkloadSpec{Trace: "KTH-SP2-1996-2.1-cln.swf.gz", From: "1996-10-01", To: "1996-11-01"}, Policy: PolicySpec{Name: "fcfs"}}).Run()
	if err != nil {
		t.Fatal(err)
	}
	from := float64(844120800 - 843480031) // 1996-10-01T00:00:00+02:00
	to := float64(846802800 - 843480031)   // 1996-11-01T00:00:00+01:00 (CET)
	bySec, err := (RunSpec{Workload: WorkloadSpec{Trace: "KTH-SP2-1996-2.1-cln.swf.gz", From: strconv.FormatFloat(from, 'f', -1, 64), To: strconv.FormatFloat(to, 'f', -1, 64)}, Policy: PolicySpec{Name: "fcfs"}}).Run()
	if err != nil {
		t.Fatal(err)
	}
	if byDate.Jobs != bySec.Jobs || byDate.MeanWait != bySec.MeanWait {
		t.Errorf("dates: %d jobs, mean wait %v; seconds: %d jobs, %v", byDate.Jobs, byDate.MeanWait, bySec.Jobs, bySec.MeanWait)
	}
	if !(byDate.Jobs > 1000 && byDate.Jobs < all.Jobs) {
		t.Errorf("window of October 1996: %d jobs of %d", byDate.Jobs, all.Jobs)
	}
	if byDate.FirstSubmit < from || byDate.Run.BeforeWindow == 0 {
		t.Errorf("first submit %v before the window's start %v; %d records before it", byDate.FirstSubmit, from, byDate.Run.BeforeWindow)
	}
	if want := "from 1996-10-01 00:00:00 CEST to 1996-11-01 00:00:00 CET"; byDate.Run.Window != want {
		t.Errorf("window %q, want %q", byDate.Run.Window, want)
	}
	for _, c := range []struct{ from, to, want string }{
		{"1996-13-01", "", `--from "1996-13-01": want a date`},
		{"1996-11-01", "1996-10-01", "an empty window"},
		{"1990-01-01", "1990-02-01", "no job was submitted between --from 1990-01-01 and --to 1990-02-01"},
	} {
		if _, err := (RunSpec{Workload: WorkloadSpec{Trace: "KTH-SP2-1996-2.1-cln.swf.gz", From: c.from, To: c.to}, Policy: PolicySpec{Name: "fcfs"}}).Run(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s..%s: err %v, want %q", c.from, c.to, err, c.want)
		}
	}
	if _, err := (RunSpec{Workload: WorkloadSpec{Trace: "testdata/explain.swf", From: "1996-10-01"}, Policy: PolicySpec{Name: "fcfs"}}).Run(); err == nil || !strings.Contains(err.Error(), "no UnixStartTime") {
		t.Errorf("a date on a trace without UnixStartTime: %v", err)
	}
}
