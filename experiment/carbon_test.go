package experiment

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// sigRow is a row of a signal file as the tests write it.
type sigRow struct{ t, v float64 }

// writeSignal writes rows (and repeat,period when period > 0).
func writeSignal(t *testing.T, path string, rows []sigRow, period float64) {
	t.Helper()
	var b strings.Builder
	b.WriteString("time,value\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "%g,%g\n", r.t, r.v)
	}
	if period > 0 {
		fmt.Fprintf(&b, "repeat,%g\n", period)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// valueAt is the signal at x by a scan of the rows (x reduced by the
// period first).
func valueAt(rows []sigRow, period, x float64) float64 {
	if period > 0 {
		x -= math.Floor(x/period) * period
	}
	v := rows[0].v
	for _, r := range rows {
		if r.t <= x {
			v = r.v
		}
	}
	return v
}

// readJobs reads jobs.csv's columns by name.
func readJobs(t *testing.T, path string) (col map[string]int, rows [][]string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	all, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col = map[string]int{}
	for i, h := range all[0] {
		col[h] = i
	}
	return col, all[1:]
}

// TestCarbonAgainstIndependentIntegrator runs random traces under FCFS
// and EASY, with random power models and random carbon and price
// signals (periodic or not), and checks carbon_kg and cost against an
// integrator written here from docs/energy.md: every start and finish of
// jobs.csv and every change point of the signal, the machine's power
// (idle x CPUs + (compute - idle) x the busy CPUs) times the signal at
// the middle of each interval between them, to 1e-9.
func TestCarbonAgainstIndependentIntegrator(t *testing.T) {
	dir := t.TempDir()
	for seed := range 8 {
		r := rand.New(rand.NewPCG(uint64(seed), 5))
		var b strings.Builder
		b.WriteString("; MaxProcs: 16\n")
		at := 0.0
		for id := 1; id <= 50; id++ {
			at += float64(r.IntN(60))
			run := 1 + r.IntN(400)
			p := 1 + r.IntN(16)
			fmt.Fprintf(&b, "%d %g 0 %d %d -1 -1 %d %d -1 1 1 1 -1 -1 -1 -1 -1\n", id, at, run, p, p, run+r.IntN(300))
		}
		trace := writeTrace(t, dir, fmt.Sprintf("t%d.swf", seed), b.String(), false)
		var rows []sigRow
		for x := 0.0; len(rows) < 2+r.IntN(10); x += 1 + float64(r.IntN(300)) + r.Float64() {
			rows = append(rows, sigRow{x, float64(r.IntN(700))})
		}
		period := 0.0
		if seed%2 == 1 {
			period = rows[len(rows)-1].t + 1 + float64(r.IntN(200))
		}
		prices := []sigRow{{0, 0.2}, {500 + float64(r.IntN(1000)), -0.05}, {3000, 0.31}}
		cfile, pfile := filepath.Join(dir, fmt.Sprintf("c%d.csv", seed)), filepath.Join(dir, fmt.Sprintf("p%d.csv", seed))
		writeSignal(t, cfile, rows, period)
		writeSignal(t, pfile, prices, 0)
		for _, pol := range []string{"fcfs", "easy"} {
			idle, compute := 10+float64(r.IntN(100)), 200+r.Float64()*100
			out := filepath.Join(dir, fmt.Sprintf("o%d-%s", seed, pol))
			spec := RunSpec{Workload: WorkloadSpec{Trace: trace}, Policy: PolicySpec{Name: pol},
				Platform: PlatformSpec{Power: strconv.FormatFloat(idle, 'g', -1, 64) + ":" + strconv.FormatFloat(compute, 'g', -1, 64),
					Carbon: cfile, Price: pfile},
				Outputs: OutputSpec{Dir: out, Metrics: []string{"carbon_kg", "cost"}}}
			if err := spec.Check(); err != nil {
				t.Fatal(err)
			}
			res, err := spec.Run()
			if err != nil {
				t.Fatal(err)
			}
			col, jobs := readJobs(t, filepath.Join(out, "jobs.csv"))
			type iv struct {
				a, b float64
				n    int
			}
			var ivs []iv
			cuts := []float64{0}
			end := 0.0
			for _, j := range jobs {
				s, _ := strconv.ParseFloat(j[col["starting_time"]], 64)
				e, _ := strconv.ParseFloat(j[col["finish_time"]], 64)
				n, _ := strconv.Atoi(j[col["requested_number_of_resources"]])
				ivs, cuts, end = append(ivs, iv{s, e, n}), append(cuts, s, e), max(end, e)
			}
			for k := 0.0; ; k++ {
				for _, sr := range rows {
					cuts = append(cuts, sr.t+k*period)
				}
				if period == 0 || k*period > end {
					break
				}
			}
			for _, pr := range prices {
				cuts = append(cuts, pr.t)
			}
			slices.Sort(cuts)
			cuts = slices.Compact(cuts)
			var wantC, wantP float64
			for i := 0; i+1 < len(cuts) && cuts[i+1] <= end; i++ {
				mid := (cuts[i] + cuts[i+1]) / 2
				busy := 0
				for _, x := range ivs {
					if x.a <= mid && mid < x.b {
						busy += x.n
					}
				}
				w := idle*16 + (compute-idle)*float64(busy)
				wantC += w * valueAt(rows, period, mid) * (cuts[i+1] - cuts[i])
				wantP += w * valueAt(prices, 0, mid) * (cuts[i+1] - cuts[i])
			}
			wantC /= 3.6e9
			wantP /= 3.6e6
			e := res.Energy
			if e.CarbonKg == nil || math.Abs(*e.CarbonKg-wantC) > 1e-9*wantC {
				t.Fatalf("seed %d %s: carbon_kg %v, independent %v", seed, pol, e.CarbonKg, wantC)
			}
			if e.Cost == nil || math.Abs(*e.Cost-wantP) > 1e-9*math.Abs(wantP) {
				t.Fatalf("seed %d %s: cost %v, independent %v", seed, pol, e.Cost, wantP)
			}
			if res.Metrics["carbon_kg"] != *e.CarbonKg || res.Metrics["cost"] != *e.Cost {
				t.Fatalf("seed %d %s: the metrics %v, the energy section %v %v", seed, pol, res.Metrics, *e.CarbonKg, *e.Cost)
			}
			var js struct {
				Energy map[string]any `json:"energy"`
			}
			data, _ := os.ReadFile(filepath.Join(out, "summary.json"))
			if json.Unmarshal(data, &js) != nil || js.Energy["carbon_kg"] != *e.CarbonKg || js.Energy["cost"] != *e.Cost {
				t.Fatalf("summary.json's energy %v", js.Energy)
			}
		}
	}
}

// TestCarbonDelayRun: a trace run under EASY with --carbon-delay and
// --check (the independent checker validates the schedule). Every
// deferrable job starts no earlier than its release, computed here by
// a scan of the rows (the first time in [submit, submit + MAX] at which
// the signal is at its lowest over that window); a job whose release is
// its submission, and every job that is not deferrable, is not held.
func TestCarbonDelayRun(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(9, 9))
	var b strings.Builder
	b.WriteString("; MaxProcs: 8\n")
	at := 0.0
	for id := 1; id <= 80; id++ {
		at += float64(r.IntN(120))
		run := 1 + r.IntN(200)
		p := 1 + r.IntN(8)
		fmt.Fprintf(&b, "%d %g 0 %d %d -1 -1 %d %d -1 1 1 1 -1 -1 -1 -1 -1\n", id, at, run, p, p, run+r.IntN(200))
	}
	trace := writeTrace(t, dir, "t.swf", b.String(), false)
	rows := []sigRow{{0, 300}, {400, 100}, {900, 350}, {1300, 50}, {1500, 250}}
	period := 2000.0
	cfile := filepath.Join(dir, "c.csv")
	writeSignal(t, cfile, rows, period)
	const maxDelay, maxEst = 700.0, 300.0
	out := filepath.Join(dir, "o")
	spec := RunSpec{Workload: WorkloadSpec{Trace: trace}, Policy: PolicySpec{Name: "easy", CarbonDelay: "700:300"},
		Platform: PlatformSpec{Power: "10:20", Carbon: cfile}, Outputs: OutputSpec{Dir: out, Check: true}}
	if err := spec.Check(); err != nil {
		t.Fatal(err)
	}
	res, err := spec.Run()
	if err != nil {
		t.Fatal(err)
	}
	release := func(s float64) float64 {
		low, first := valueAt(rows, period, s), s
		for k := math.Floor(s / period); k*period <= s+maxDelay; k++ {
			for _, sr := range rows {
				if x := sr.t + k*period; x > s && x <= s+maxDelay && valueAt(rows, period, x) < low {
					low, first = valueAt(rows, period, x), x
				}
			}
		}
		return first
	}
	col, jobs := readJobs(t, filepath.Join(out, "jobs.csv"))
	held := 0
	for _, j := range jobs {
		sub, _ := strconv.ParseFloat(j[col["submission_time"]], 64)
		start, _ := strconv.ParseFloat(j[col["starting_time"]], 64)
		est, _ := strconv.ParseFloat(j[col["requested_time"]], 64)
		if est <= maxEst {
			if rel := release(sub); rel > sub {
				held++
				if start < rel {
					t.Errorf("job %s submitted at %g starts at %g, before its release %g", j[col["job_id"]], sub, start, rel)
				}
			}
		}
	}
	d := res.Energy.CarbonDelay
	if d == nil || d.Deferred != int64(held) || held == 0 || d.MaxDelayS != maxDelay || d.MaxEstimateS != maxEst {
		t.Fatalf("carbon_delay %+v, want %d jobs held", d, held)
	}
}

func TestCarbonCheckErrors(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "c.csv")
	writeSignal(t, good, []sigRow{{0, 1}}, 0)
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("0,1\n5,-2\n"), 0o644)
	trace := writeTrace(t, dir, "t.swf", "; MaxProcs: 4\n1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n", false)
	for _, c := range []struct {
		p    PlatformSpec
		pol  PolicySpec
		m    []string
		want string
	}{
		{PlatformSpec{Carbon: good}, PolicySpec{Name: "easy"}, nil, "--carbon needs --power"},
		{PlatformSpec{Price: good}, PolicySpec{Name: "easy"}, nil, "--price needs --power"},
		{PlatformSpec{Power: "1:2", Carbon: bad}, PolicySpec{Name: "easy"}, nil, "bad.csv:2: field value: -2: want a value >= 0"},
		{PlatformSpec{Power: "1:2", Price: bad}, PolicySpec{Name: "easy"}, []string{"carbon_kg"}, "--metric carbon_kg needs --carbon"},
		{PlatformSpec{Power: "1:2"}, PolicySpec{Name: "easy"}, []string{"cost"}, "--metric cost needs --price"},
		{PlatformSpec{Power: "1:2"}, PolicySpec{Name: "easy", CarbonDelay: "60"}, nil, "needs a carbon intensity signal"},
		{PlatformSpec{Power: "1:2", Carbon: good}, PolicySpec{Name: "easy", CarbonDelay: "-1"}, nil, "--carbon-delay \"-1\": the delay -1 s"},
		{PlatformSpec{Power: "1:2", Carbon: good, Partitions: []string{"1:4"}}, PolicySpec{Name: "easy", CarbonDelay: "60"}, nil, "does not go with partitions"},
		{PlatformSpec{Power: "1:2", Carbon: good}, PolicySpec{Name: "flexible", CarbonDelay: "60"}, nil, "wraps a queue policy of the cluster model"},
	} {
		spec := RunSpec{Workload: WorkloadSpec{Trace: trace}, Platform: c.p, Policy: c.pol, Outputs: OutputSpec{Metrics: c.m}}
		if err := spec.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v %+v: %v, want an error with %q", c.p, c.pol, err, c.want)
		}
	}
}
