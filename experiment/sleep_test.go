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
	"github.com/schedlab/schedlab/workload"
)

// readCSV reads a whole CSV file and its header's columns.
func readCSV(t *testing.T, path string) ([][]string, map[string]int) {
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
	return all, col
}

// cpuList expands "0-3 8" into its ids.
func cpuList(s string) []int {
	var ids []int
	for _, part := range strings.Fields(s) {
		lo, hi, ok := strings.Cut(part, "-")
		a, _ := strconv.Atoi(lo)
		b := a
		if ok {
			b, _ = strconv.Atoi(hi)
		}
		for c := a; c <= b; c++ {
			ids = append(ids, c)
		}
	}
	return ids
}

// statesIntegral integrates the machine's power with power states from
// docs/energy.md alone (it imports nothing of metrics/energy or the
// engine): per CPU, its states from power.csv (on from 0, then each
// row's "to" from the row's time) and its jobs from jobs.csv; a piece of
// time between two breakpoints of the CPU draws COMPUTE_W running a job,
// IDLE_W on and idle, OFF_W off, ON_J/ON_S switching on, OFF_J/OFF_S
// switching off; summed over [0, the last finish]. It fails t on a job
// that runs on a CPU that is not on, and returns the total, the joules
// drawn switching and the CPU-seconds off.
func statesIntegral(t *testing.T, out string, cpus int, w [7]float64) (total, switching, offSec float64, ons, offs int) {
	t.Helper()
	idle, compute, offW, onS, onJ, offS, offJ := w[0], w[1], w[2], w[3], w[4], w[5], w[6]
	type change struct {
		at float64
		to string
	}
	type iv struct{ a, b float64 }
	changes := make([][]change, cpus)
	jobs := make([][]iv, cpus)
	rows, col := readCSV(t, filepath.Join(out, "power.csv"))
	for _, r := range rows[1:] {
		at, _ := strconv.ParseFloat(r[col["time_s"]], 64)
		for _, c := range cpuList(r[col["cpus"]]) {
			changes[c] = append(changes[c], change{at, r[col["to"]]})
			switch r[col["to"]] {
			case "switching_on":
				ons++
			case "switching_off":
				offs++
			}
		}
	}
	rows, col = readCSV(t, filepath.Join(out, "jobs.csv"))
	end := 0.0
	for _, r := range rows[1:] {
		s, _ := strconv.ParseFloat(r[col["starting_time"]], 64)
		e, _ := strconv.ParseFloat(r[col["finish_time"]], 64)
		for _, c := range cpuList(r[col["allocated_resources"]]) {
			jobs[c] = append(jobs[c], iv{s, e})
		}
		end = max(end, e)
	}
	for c := range cpus {
		pts := []float64{0, end}
		for _, ch := range changes[c] {
			pts = append(pts, ch.at)
		}
		for _, j := range jobs[c] {
			pts = append(pts, j.a, j.b)
		}
		slices.Sort(pts)
		pts = slices.Compact(pts)
		for i := 0; i+1 < len(pts) && pts[i+1] <= end; i++ {
			a, b := pts[i], pts[i+1]
			state := "on"
			for _, ch := range changes[c] {
				if ch.at <= a {
					state = ch.to
				}
			}
			busy := false
			for _, j := range jobs[c] {
				if j.a <= a && b <= j.b {
					busy = true
				}
			}
			var watts float64
			switch {
			case busy && state != "on":
				t.Fatalf("CPU %d runs a job over [%g, %g) while %s", c, a, b, state)
			case busy:
				watts = compute
			case state == "on":
				watts = idle
			case state == "off":
				watts = offW
				offSec += b - a
			case state == "switching_on":
				watts = onJ / onS
				switching += watts * (b - a)
			case state == "switching_off":
				watts = offJ / offS
				switching += watts * (b - a)
			default:
				t.Fatalf("power.csv: unknown state %q", state)
			}
			total += watts * (b - a)
		}
	}
	return total, switching, offSec, ons, offs
}

// Random traces with idle gaps under FCFS, EASY and conservative with the
// idle sleeper and random power states: summary.json's energy.total_j and
// its states (switching joules, CPU-seconds off, switch counts) agree
// with the independent integrator over jobs.csv and power.csv to 1e-9
// (relative), and no job runs on a CPU that is not on.
func TestSleeperEnergyAgainstIndependentIntegrator(t *testing.T) {
	dir := t.TempDir()
	switched := 0
	for seed := range 10 {
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		var b strings.Builder
		b.WriteString("; MaxProcs: 16\n")
		at := 0.0
		for id := 1; id <= 60; id++ {
			at += float64(r.IntN(300))
			run := 1 + r.IntN(400)
			req := run + r.IntN(400)
			p := 1 + r.IntN(16)
			fmt.Fprintf(&b, "%d %g 0 %d %d -1 -1 %d %d -1 1 1 1 -1 -1 -1 -1 -1\n", id, at, run, p, p, req)
		}
		trace := writeTrace(t, dir, fmt.Sprintf("t%d.swf", seed), b.String(), false)
		for _, pol := range []string{"fcfs", "easy", "conservative"} {
			idle := 10 + float64(r.IntN(100))
			w := [7]float64{idle, idle + r.Float64()*200, r.Float64() * idle, 1 + r.Float64()*150, r.Float64() * 20000, 1 + r.Float64()*10, r.Float64() * 1000}
			var ws []string
			for _, x := range w {
				ws = append(ws, strconv.FormatFloat(x, 'g', -1, 64))
			}
			sl := strconv.Itoa(r.IntN(200))
			if k := r.IntN(5); k > 0 {
				sl += ":keep=" + strconv.Itoa(k)
			}
			out := filepath.Join(dir, fmt.Sprintf("o%d-%s", seed, pol))
			spec := RunSpec{Workload: WorkloadSpec{Trace: trace}, Policy: PolicySpec{Name: pol, Sleep: sl},
				Platform: PlatformSpec{Power: strings.Join(ws, ":")}, Outputs: OutputSpec{Dir: out}}
			if err := spec.Check(); err != nil {
				t.Fatal(err)
			}
			res, err := spec.Run()
			if err != nil {
				t.Fatal(err)
			}
			total, switching, offSec, ons, offs := statesIntegral(t, out, 16, w)
			e := res.Energy
			if math.Abs(e.TotalJ-total) > 1e-9*total {
				t.Fatalf("seed %d %s: total_j %v, independent %v", seed, pol, e.TotalJ, total)
			}
			st := e.States
			if math.Abs(st.SwitchJ-switching) > 1e-9*max(switching, 1) || math.Abs(st.OffCPUS-offSec) > 1e-9*max(offSec, 1) {
				t.Fatalf("seed %d %s: switching %v J, off %v CPU-s; independent %v, %v", seed, pol, st.SwitchJ, st.OffCPUS, switching, offSec)
			}
			// The run ends at the last job's end: every switch of
			// power.csv began by then.
			if int(st.SwitchOns) != ons || int(st.SwitchOff) != offs {
				t.Fatalf("seed %d %s: %d on, %d off; power.csv has %d, %d", seed, pol, st.SwitchOns, st.SwitchOff, ons, offs)
			}
			switched += offs
			var js struct {
				Energy struct {
					TotalJ float64 `json:"total_j"`
					States struct {
						SwitchOffs int64 `json:"switch_offs"`
					} `json:"states"`
				} `json:"energy"`
			}
			data, _ := os.ReadFile(filepath.Join(out, "summary.json"))
			if json.Unmarshal(data, &js) != nil || js.Energy.TotalJ != e.TotalJ || js.Energy.States.SwitchOffs != st.SwitchOff {
				t.Fatalf("summary.json's energy %+v, want total_j %v", js.Energy, e.TotalJ)
			}
		}
	}
	t.Logf("%d CPU switches off in all", switched)
	if switched < 100 {
		t.Fatalf("only %d CPUs switched off in all the runs: the test checks little", switched)
	}
}

// A trace scenario with platform.sleep_after: the replication reports
// the energy of the same run made by RunSpec with --sleep-after, and
// sleep_after none that of the run without the sleeper.
func TestSleeperInScenario(t *testing.T) {
	const power = "95:190.74:9.75:152:19030:6.1:620"
	text := "model: cluster\nworkload: {trace: KTH-SP2-1996-2.1-cln.swf.gz, jobs: 2000}\nplatform: {power: \"" + power + "\", sleep_after: [none, \"600:keep=10\"]}\npolicy: {queue: easy}\nmetrics: [mean_wait, energy_kwh]\n"
	pts, err := scenario.Parse("e.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 2 {
		t.Fatalf("%d points, want 2", len(pts))
	}
	var kwh []float64
	for i, sl := range []string{"", "600:keep=10"} {
		m, err := RunReplication(pts[i].Scenario, 0, "")
		if err != nil {
			t.Fatal(err)
		}
		spec := RunSpec{Workload: WorkloadSpec{Trace: "KTH-SP2-1996-2.1-cln.swf.gz", First: 2000}, Policy: PolicySpec{Name: "easy", Sleep: sl}, Platform: PlatformSpec{Power: power}}
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
			t.Fatalf("sleep %q: energy_kwh %v, want %v (the run's total_j / 3.6e6)", sl, got["energy_kwh"], want)
		}
		if (res.Energy.States != nil) != (sl != "") {
			t.Fatalf("sleep %q: states %+v", sl, res.Energy.States)
		}
		kwh = append(kwh, got["energy_kwh"])
	}
	if !(kwh[1] < kwh[0]) {
		t.Fatalf("the sleeper saves nothing: %v kWh against %v always on", kwh[1], kwh[0])
	}
}

// The sleeper's settings are checked with what they stand on, each error
// naming --sleep-after.
func TestSleepChecks(t *testing.T) {
	const states = "95:190.74:9.75:152:19030:6.1:620"
	base := func() RunSpec {
		return RunSpec{Workload: WorkloadSpec{Trace: "KTH-SP2-1996-2.1-cln.swf.gz", First: 100}, Policy: PolicySpec{Name: "easy", Sleep: "600"}, Platform: PlatformSpec{Power: states}}
	}
	for name, c := range map[string]struct {
		edit func(*RunSpec)
		want string
	}{
		"no power":         {func(s *RunSpec) { s.Platform.Power = "" }, "the idle sleeper needs a power model with states"},
		"no states":        {func(s *RunSpec) { s.Platform.Power = "95:190.74" }, "the idle sleeper needs a power model with states"},
		"bad timeout":      {func(s *RunSpec) { s.Policy.Sleep = "-5" }, "--sleep-after \"-5\": the timeout -5 s"},
		"partitions":       {func(s *RunSpec) { s.Platform.Partitions = []string{"a:50:default", "b:50"} }, "does not go with partitions"},
		"nodes":            {func(s *RunSpec) { s.Platform.Nodes = []string{"n[1-4]:cores=4"} }, "does not go with --nodes"},
		"estimate predict": {func(s *RunSpec) { s.Workload.Estimate = workload.EstimatePredict }, "does not go with --estimate predict"},
	} {
		s := base()
		c.edit(&s)
		err := s.Check()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", name, err, c.want)
		}
	}
	s := base()
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
}
