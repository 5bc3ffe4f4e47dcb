package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/experiment"
	"github.com/schedlab/schedlab/workload/traces"
)

// starts parses the "id,start" rows simulate writes.
func starts(t *testing.T, s string) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		id, st, ok := strings.Cut(l, ",")
		if !ok {
			t.Fatalf("bad row %q", l)
		}
		m[id] = st
	}
	return m
}

// Four processors, worked by hand. J2 (4 procs) blocks behind J1 until
// its shadow time 10 with no extra processors; J3 ends at 10, by the
// shadow time, and backfills at 2; J4 and the zero-length J5 (request
// unknown: estimate = run time = 0) wait for free processors until J2
// ends at 15.
func TestHandWorked(t *testing.T) {
	const trace = `; MaxProcs: 4
1 0 -1 10 2 -1 -1 2 10 -1 1 -1 -1 -1 -1 -1 -1 -1
2 1 -1 5 4 -1 -1 4 5 -1 1 -1 -1 -1 -1 -1 -1 -1
3 2 -1 8 2 -1 -1 2 8 -1 1 -1 -1 -1 -1 -1 -1 -1
4 3 -1 1 1 -1 -1 1 20 -1 1 -1 -1 -1 -1 -1 -1 -1
5 3 -1 0 1 -1 -1 1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
6 4 -1 50 9 -1 -1 9 50 -1 1 -1 -1 -1 -1 -1 -1 -1
`
	var out strings.Builder
	res, err := simulate(strings.NewReader(trace), &out)
	if err != nil {
		t.Fatal(err)
	}
	got := starts(t, out.String())
	want := map[string]string{"1": "0", "2": "10", "3": "2", "4": "15", "5": "15"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("starts %v, want %v", got, want)
	}
	// J6 is wider than the machine. Waits: 0 + 9 + 0 + 12 + 12 = 33.
	if res.Jobs != 5 || res.Rejected != 1 || res.SumWait != 33 {
		t.Errorf("result %+v, want 5 jobs, 1 rejected, wait 33", res)
	}
}

func TestBadInput(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"; MaxProcs: 4\n1 0 -1 10 2\n", "line 2: 5 fields, want 18"},
		{"; MaxProcs: 4\n1 0 -1 1x 2 -1 -1 2 10 -1 1 -1 -1 -1 -1 -1 -1 -1\n", "line 2: field 4"},
		{"1 0 -1 10 2 -1 -1 2 10 -1 1 -1 -1 -1 -1 -1 -1 -1\n", "no MaxProcs header"},
	} {
		_, err := simulate(strings.NewReader(c.in), io.Discard)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
}

// The yardstick is only fair if it computes schedlab's schedule: the same
// start time for every job of KTH-SP2 (embedded) and HPC2N (when present).
func TestSameStartsAsSchedlab(t *testing.T) {
	for _, tr := range []string{"KTH-SP2-1996-2.1-cln.swf.gz", "../../../shared/traces/HPC2N-2002-2.1-cln.swf.gz"} {
		t.Run(filepath.Base(tr), func(t *testing.T) {
			var f io.ReadCloser
			var err error
			if strings.ContainsRune(tr, '/') {
				f, err = os.Open(tr)
				if os.IsNotExist(err) {
					t.Skipf("%s not available", tr)
				}
			} else {
				f, err = traces.Open(tr)
			}
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var out strings.Builder
			res, err := simulate(f, &out)
			if err != nil {
				t.Fatal(err)
			}
			plain := starts(t, out.String())

			dir := t.TempDir()
			if _, err := (experiment.RunSpec{Workload: experiment.WorkloadSpec{Trace: tr}, Policy: experiment.PolicySpec{Name: "easy"}, Outputs: experiment.OutputSpec{Dir: dir}}).Run(); err != nil {
				t.Fatal(err)
			}
			cf, err := os.Open(filepath.Join(dir, "jobs.csv"))
			if err != nil {
				t.Fatal(err)
			}
			defer cf.Close()
			rows, err := csv.NewReader(cf).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if len(rows)-1 != len(plain) || res.Jobs != len(plain) {
				t.Fatalf("schedlab %d jobs, plaineasy %d (%d rows)", len(rows)-1, res.Jobs, len(plain))
			}
			bad := 0
			for _, r := range rows[1:] {
				a, _ := strconv.ParseFloat(r[4], 64)
				b, err := strconv.ParseFloat(plain[r[0]], 64)
				if err != nil || a != b {
					if bad++; bad <= 5 {
						t.Errorf("job %s: schedlab starts it at %s, plaineasy at %q", r[0], r[4], plain[r[0]])
					}
				}
			}
			if bad > 0 {
				t.Fatalf("%d of %d start times differ", bad, len(plain))
			}
		})
	}
}
