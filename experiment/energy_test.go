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

	"github.com/schedlab/schedlab/scenario"
)

// independentJoules integrates the machine's power from docs/energy.md
// alone (it imports nothing of metrics/energy): every job of jobs.csv
// draws COMPUTE_W - IDLE_W per CPU over [start, finish) on top of the
// machine's IDLE_W per CPU from 0 to the last finish. It sweeps the
// breakpoints (every start and finish) and sums power x duration over
// each piece, and also returns the sum of the jobs' own joules.
func independentJoules(t *testing.T, path string, cpus int, idle, compute float64) (total, perJobs float64, rows [][]string) {
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
	col := map[string]int{}
	for i, h := range all[0] {
		col[h] = i
	}
	type iv struct{ a, b float64 }
	var ivs []iv
	var n []int
	var pts []float64
	end := 0.0
	for _, r := range all[1:] {
		s, _ := strconv.ParseFloat(r[col["starting_time"]], 64)
		e, _ := strconv.ParseFloat(r[col["finish_time"]], 64)
		k := 0
		for _, part := range strings.Fields(r[col["allocated_resources"]]) {
			lo, hi, ok := strings.Cut(part, "-")
			a, _ := strconv.Atoi(lo)
			b := a
			if ok {
				b, _ = strconv.Atoi(hi)
			}
			k += b - a + 1
		}
		ivs, n, pts = append(ivs, iv{s, e}), append(n, k), append(pts, s, e)
		end = max(end, e)
	}
	pts = append(pts, 0)
	slices.Sort(pts)
	pts = slices.Compact(pts)
	for i := 0; i+1 < len(pts); i++ {
		a, b := pts[i], pts[i+1]
		busy := 0
		for j, v := range ivs {
			if v.a <= a && b <= v.b {
				busy += n[j]
			}
		}
		total += (idle*float64(cpus) + (compute-idle)*float64(busy)) * (b - a)
	}
	for j, v := range ivs {
		perJobs += (compute - idle) * float64(n[j]) * (v.b - v.a)
	}
	return total, perJobs, all
}

// Random traces under FCFS, EASY and conservative with a power model:
// summary.json's energy.total_j and jobs.csv's consumed_energy agree with
// the independent integrator to 1e-9 (relative).
func TestEnergyAgainstIndependentIntegrator(t *testing.T) {
	dir := t.TempDir()
	for seed := range 12 {
		r := rand.New(rand.NewPCG(uint64(seed), 3))
		var b strings.Builder
		b.WriteString("; MaxProcs: 16\n")
		at := 0.0
		for id := 1; id <= 60; id++ {
			at += float64(r.IntN(50))
			run := 1 + r.IntN(400)
			req := run + r.IntN(400)
			p := 1 + r.IntN(16)
			fmt.Fprintf(&b, "%d %g 0 %d %d -1 -1 %d %d -1 1 1 1 -1 -1 -1 -1 -1\n", id, at, run, p, p, req)
		}
		trace := writeTrace(t, dir, fmt.Sprintf("t%d.swf", seed), b.String(), false)
		for _, pol := range []string{"fcfs", "easy", "conservative"} {
			idle, compute := 10+float64(r.IntN(100)), 200+r.Float64()*100
			out := filepath.Join(dir, fmt.Sprintf("o%d-%s", seed, pol))
			spec := RunSpec{Workload: WorkloadSpec{Trace: trace}, Policy: PolicySpec{Name: pol},
				Platform: PlatformSpec{Power: strconv.FormatFloat(idle, 'g', -1, 64) + ":" + strconv.FormatFloat(compute, 'g', -1, 64)},
				Outputs:  OutputSpec{Dir: out}}
			if err := spec.Check(); err != nil {
				t.Fatal(err)
			}
			res, err := spec.Run()
			if err != nil {
				t.Fatal(err)
			}
			want, wantJobs, rows := independentJoules(t, filepath.Join(out, "jobs.csv"), 16, idle, compute)
			if math.Abs(res.Energy.TotalJ-want) > 1e-9*want {
				t.Fatalf("seed %d %s: total_j %v, independent %v", seed, pol, res.Energy.TotalJ, want)
			}
			var sum float64
			ci := slices.Index(rows[0], "consumed_energy")
			for _, row := range rows[1:] {
				v, _ := strconv.ParseFloat(row[ci], 64)
				sum += v
			}
			if math.Abs(sum-wantJobs) > 1e-9*wantJobs {
				t.Fatalf("seed %d %s: consumed_energy sums to %v, independent %v", seed, pol, sum, wantJobs)
			}
			var js struct {
				Energy struct {
					TotalJ float64 `json:"total_j"`
				} `json:"energy"`
			}
			data, _ := os.ReadFile(filepath.Join(out, "summary.json"))
			if json.Unmarshal(data, &js) != nil || js.Energy.TotalJ != res.Energy.TotalJ {
				t.Fatalf("summary.json's energy.total_j %v, want %v", js.Energy.TotalJ, res.Energy.TotalJ)
			}
		}
	}
}

// Without --power nothing of energy is written: consumed_energy stays -1
// (the goldens pin the rest).
func TestNoPowerNoEnergy(t *testing.T) {
	dir := t.TempDir()
	trace := writeTrace(t, dir, "t.swf", "; MaxProcs: 4\n1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n", false)
	out := filepath.Join(dir, "o")
	spec := RunSpec{Workload: WorkloadSpec{Trace: trace}, Policy: PolicySpec{Name: "fcfs"}, Outputs: OutputSpec{Dir: out}}
	if err := spec.Check(); err != nil {
		t.Fatal(err)
	}
	res, err := spec.Run()
	if err != nil || res.Energy != nil {
		t.Fatalf("%v %+v", err, res.Energy)
	}
	if _, err := os.Stat(filepath.Join(out, "energy.csv")); !os.IsNotExist(err) {
		t.Fatal("energy.csv written without --power")
	}
	b, _ := os.ReadFile(filepath.Join(out, "jobs.csv"))
	if !strings.Contains(string(b), ",w0,delay,1,-1,,") {
		t.Fatalf("jobs.csv: %s", b)
	}
}

// A trace scenario with platform.power and metrics: [energy_kwh,
// mean_power_kw]: the replication reports the run's own energy (the
// same trace run by RunSpec with --power), in kWh and kW.
func TestEnergyMetricsInScenario(t *testing.T) {
	text := "model: cluster\nworkload: {trace: KTH-SP2-1996-2.1-cln.swf.gz, jobs: 2000}\nplatform: {power: \"95:190.74\"}\npolicy: {queue: easy}\nmetrics: [mean_wait, energy_kwh, mean_power_kw]\n"
	pts, err := scenario.Parse("e.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	m, err := RunReplication(pts[0].Scenario, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	spec := RunSpec{Workload: WorkloadSpec{Trace: "KTH-SP2-1996-2.1-cln.swf.gz", First: 2000}, Policy: PolicySpec{Name: "easy"}, Platform: PlatformSpec{Power: "95:190.74"}}
	if err := spec.Check(); err != nil {
		t.Fatal(err)
	}
	res, err := spec.Run()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for i, n := range m.Names {
		got[n] = m.Values[i]
	}
	if want := res.Energy.TotalJ / 3.6e6; math.Abs(got["energy_kwh"]-want) > 1e-9*want {
		t.Fatalf("energy_kwh %v, want %v (the run's total_j / 3.6e6)", got["energy_kwh"], want)
	}
	if want := res.Energy.MeanW / 1e3; math.Abs(got["mean_power_kw"]-want) > 1e-9*want {
		t.Fatalf("mean_power_kw %v, want %v", got["mean_power_kw"], want)
	}
}
