package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// run --report and report put the trace header's UnixStartTime and
// TimeZoneString on the page (its time axes show dates); a trace without
// UnixStartTime gives a page without a clock.
func TestReportClockFromTraceHeader(t *testing.T) {
	dir := t.TempDir()
	recs := "1 0 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n2 5 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n"
	for _, tc := range []struct {
		name, header, want string
	}{
		{"dated", "; MaxProcs: 2\n; UnixStartTime: 1700000000\n; TimeZoneString: Europe/Stockholm\n", `"clock":{"start":1700000000,"zone":"Europe/Stockholm"}`},
		{"undated", "; MaxProcs: 2\n", ""},
	} {
		tr := filepath.Join(dir, tc.name+".swf")
		if err := os.WriteFile(tr, []byte(tc.header+recs), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, tc.name)
		var so, se bytes.Buffer
		if code := Main([]string{"run", "--trace", tr, "--policy", "fcfs", "--out", out, "--report"}, &so, &se); code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.name, code, se.String())
		}
		for _, args := range [][]string{nil, {"report", out}} {
			if args != nil {
				if code := Main(args, &so, &se); code != 0 {
					t.Fatalf("%s: report: exit %d: %s", tc.name, code, se.String())
				}
			}
			page, err := os.ReadFile(filepath.Join(out, "report.html"))
			if err != nil {
				t.Fatal(err)
			}
			has := strings.Contains(string(page), `"clock":`)
			if tc.want == "" && has || tc.want != "" && !strings.Contains(string(page), tc.want) {
				t.Errorf("%s %v: page clock present %v, want %q", tc.name, args, has, tc.want)
			}
		}
	}
}
