package experiment

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPowerCapOnKTH: KTH-SP2 (100 CPUs, embedded) under EASY at 95 W
// idle and 190.74 W computing, capped at 17 kW (78 busy CPUs: 9,500 +
// 78 x 95.74 = 16,967.7 W), 15 kW over [1e6, 3e6) s (57 busy) and 16
// kW over [5e6, 6e6) (67). Invariants: the power of energy.csv never
// above the cap in force anywhere over its interval (the cap computed
// here from the windows, not by the package); the jobs of more than 78
// CPUs, which no cap lets run, rejected and the others all run; the
// schedule checked (--check); the cap held jobs; the same bytes twice.
func TestPowerCapOnKTH(t *testing.T) {
	type win struct{ a, b, w float64 }
	wins := []win{{1e6, 3e6, 15000}, {5e6, 6e6, 16000}}
	const def = 17000.0
	capAt := func(t float64) float64 {
		for _, w := range wins {
			if t >= w.a && t < w.b {
				return w.w
			}
		}
		return def
	}
	run := func(out string) *TraceResult {
		spec := RunSpec{Workload: WorkloadSpec{Trace: "KTH-SP2-1996-2.1-cln.swf.gz"}, Policy: PolicySpec{Name: "easy"},
			Platform: PlatformSpec{Power: "95:190.74", PowerCap: "17000,15000@1000000-3000000,16000@5000000-6000000"}, Outputs: OutputSpec{Dir: out, Check: true}}
		if err := spec.Check(); err != nil {
			t.Fatal(err)
		}
		res, err := spec.Run()
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "a")
	res := run(out)
	raw, err := os.ReadFile(filepath.Join(out, "energy.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")[1:]
	type row struct{ t, w float64 }
	var rows []row
	for _, l := range lines {
		a, b, _ := strings.Cut(l, ",")
		tt, err1 := strconv.ParseFloat(a, 64)
		w, err2 := strconv.ParseFloat(b, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("energy.csv row %q", l)
		}
		rows = append(rows, row{tt, w})
	}
	peak := 0.0
	for i, r := range rows {
		end := math.Inf(1)
		if i+1 < len(rows) {
			end = rows[i+1].t
		}
		// the least cap over [r.t, end): at r.t and at every window
		// boundary inside
		least := capAt(r.t)
		for _, w := range wins {
			for _, x := range []float64{w.a, w.b} {
				if x > r.t && x < end {
					least = min(least, capAt(x))
				}
			}
		}
		if r.w > least+1e-9 {
			t.Fatalf("energy.csv: %g W from t=%g to %g, above the cap %g W", r.w, r.t, end, least)
		}
		peak = max(peak, r.w)
	}
	col, jobs := readJobs(t, filepath.Join(out, "jobs.csv"))
	for _, j := range jobs {
		if p, _ := strconv.Atoi(j[col["requested_number_of_resources"]]); p > 78 {
			t.Fatalf("job %s of %d CPUs ran: no cap lets it (it draws above 17 kW)", j[col["job_id"]], p)
		}
	}
	c := res.Energy.Cap
	if c == nil || c.Rejected == 0 || c.HeldS <= 0 || c.HeldCPUS <= 0 || c.DefaultW == nil || *c.DefaultW != def || len(c.Windows) != 2 {
		t.Fatalf("energy.cap %+v", c)
	}
	if got := int64(len(jobs)) + c.Rejected; got != 27992 {
		t.Errorf("%d jobs ran and %d were rejected: %d, want the 27992 jobs of an uncapped run", len(jobs), c.Rejected, got)
	}
	if peak != res.Energy.PeakW || peak > def {
		t.Errorf("peak %g W in energy.csv, %g in summary; want equal, at most %g", peak, res.Energy.PeakW, def)
	}
	out2 := filepath.Join(dir, "b")
	run(out2)
	for _, f := range []string{"jobs.csv", "energy.csv"} {
		a, _ := os.ReadFile(filepath.Join(out, f))
		b, _ := os.ReadFile(filepath.Join(out2, f))
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between two runs", f)
		}
	}
}

func TestPowerCapCheckErrors(t *testing.T) {
	dir := t.TempDir()
	trace := writeTrace(t, dir, "t.swf", "; MaxProcs: 4\n1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n", false)
	for _, c := range []struct {
		p    PlatformSpec
		pol  PolicySpec
		want string
	}{
		{PlatformSpec{PowerCap: "100"}, PolicySpec{Name: "easy"}, "--power-cap needs --power"},
		{PlatformSpec{Power: "1:2", PowerCap: "x"}, PolicySpec{Name: "easy"}, `--power-cap "x": item 1 "x": field watts`},
		{PlatformSpec{Power: "1:2", PowerCap: "5@3-1"}, PolicySpec{Name: "easy"}, "field end: the window's start 3 is not before its end 1"},
		{PlatformSpec{Power: "1:2", PowerCap: "100", Partitions: []string{"1:4"}}, PolicySpec{Name: "easy"}, "does not go with partitions"},
		{PlatformSpec{Power: "1:2", PowerCap: "100", Continue: true}, PolicySpec{Name: "easy"}, "does not go with --on-overrun continue"},
		{PlatformSpec{Power: "1:2:0.5:1:1:1:1", PowerCap: "100"}, PolicySpec{Name: "easy", Sleep: "60"}, "does not go with --sleep-after"},
		{PlatformSpec{Power: "1:2", PowerCap: "100"}, PolicySpec{Name: "flexible"}, "wraps a queue policy of the cluster model"},
	} {
		spec := RunSpec{Workload: WorkloadSpec{Trace: trace}, Platform: c.p, Policy: c.pol}
		if err := spec.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v %+v: %v, want an error with %q", c.p, c.pol, err, c.want)
		}
	}
	// Found only when the run is built: the cap below the idle draw, a
	// policy that does not plan around unavailable CPUs.
	for _, c := range []struct {
		p    PlatformSpec
		pol  string
		want string
	}{
		{PlatformSpec{Power: "10:20", PowerCap: "50,30@5-10"}, "easy", "a cap of 30 W is below the machine's idle draw, 40 W"},
		{PlatformSpec{Power: "10:20", PowerCap: "60"}, "firstfit", "--power-cap: policy firstfit does not plan around unavailable CPUs"},
	} {
		spec := RunSpec{Workload: WorkloadSpec{Trace: trace}, Platform: c.p, Policy: PolicySpec{Name: c.pol}}
		if err := spec.Check(); err != nil {
			t.Fatalf("%+v: %v", c.p, err)
		}
		if _, err := spec.Run(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v %s: %v, want an error with %q", c.p, c.pol, err, c.want)
		}
	}
}
