package sweep

import (
	"bytes"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/scenario"
	"github.com/schedlab/schedlab/validate"
)

type noProgress struct{}

func (noProgress) Add(int) {}

const heteroScenario = `
model: hetero
seed: 7
replications: 2
stop: {completed: 300}
platform: {machines: 20, cpus_max: 8}
workload:
  mean_interarrival: [2, 5]
  deadline: [factor, alea]
policy:
  queue: [fcfs, easy, flexible, eg-edf, tabu]
`

func heteroSummary(t *testing.T, workers int) []byte {
	t.Helper()
	pts, err := scenario.Parse("h.yaml", []byte(heteroScenario))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Sweep(pts, "", workers, noProgress{}, false)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteSummaryCSV(&b, pts, res); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A hetero sweep gives the same summary.csv every time, whatever the
// number of workers, and reports the model's metrics (no timings).
func TestHeteroSweepDeterministic(t *testing.T) {
	a, b := heteroSummary(t, 1), heteroSummary(t, 4)
	if !bytes.Equal(a, b) {
		t.Fatalf("two runs differ:\n%s\n---\n%s", a, b)
	}
	text := string(a)
	for _, m := range modelMetrics(t, registry.ModelHetero) {
		if !strings.Contains(text, ","+m+",") {
			t.Errorf("summary.csv lacks metric %s", m)
		}
	}
	if strings.Contains(text, "decision") {
		t.Error("summary.csv holds a decision time (wall clock)")
	}
	if !strings.Contains(text, "hetero_queue=tabu_ia=5_dl=alea_machines=20_cpus=1-8_speed=200-600_stop=300_warmup=0_seed=7_reps=2") {
		t.Errorf("no expected key in:\n%s", text)
	}
}

// sweep --records on the hetero model: every record names its machine,
// whose speed is the platform file's, and its CPUs lie in that machine's
// range of global ids; the execution time is the job's Estimated scaled by
// BM_est / speed (the generator's jobs run exactly their Estimated).
func TestHeteroRecords(t *testing.T) {
	src := "model: hetero\nseed: 5\nreplications: 2\nstop: {completed: 150}\nplatform: {machines: 6, cpus_min: 8, cpus_max: 16}\n" +
		"workload: {mean_interarrival: 3}\npolicy: {queue: [easy, tabu]}\n"
	pts, err := scenario.Parse("h.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := Sweep(pts, dir, 2, noProgress{}, true); err != nil {
		t.Fatal(err)
	}
	recs, _ := filepath.Glob(filepath.Join(dir, "records", "*-r?.csv"))
	if len(recs) != 4 {
		t.Fatalf("%d record files: %v", len(recs), recs)
	}
	for _, path := range recs {
		jobs := readCSV(t, path)
		plat := readCSV(t, strings.TrimSuffix(path, ".csv")+".platform.csv")
		if got := strings.Join(plat[0], ","); got+"\n" != metrics.PlatformHeader {
			t.Fatalf("platform header %q", got)
		}
		col := map[string]int{}
		for i, c := range jobs[0] {
			col[c] = i
		}
		if len(jobs) != 151 {
			t.Errorf("%s: %d rows, want 150 jobs", path, len(jobs)-1)
		}
		for _, row := range jobs[1:] {
			m, _ := strconv.Atoi(row[col["machine"]])
			if m < 0 || m+1 >= len(plat) {
				t.Fatalf("%s: job %s on machine %d of %d", path, row[0], m, len(plat)-1)
			}
			first, _ := strconv.Atoi(plat[m+1][1])
			cpus, _ := strconv.Atoi(plat[m+1][2])
			if row[col["speed"]] != plat[m+1][3] {
				t.Errorf("%s: job %s speed %s, machine %d has %s", path, row[0], row[col["speed"]], m, plat[m+1][3])
			}
			ivs, err := validate.ParseResources(row[col["allocated_resources"]])
			if err != nil {
				t.Fatal(err)
			}
			n, _ := strconv.Atoi(row[col["requested_number_of_resources"]])
			count := 0
			for _, iv := range ivs {
				count += iv.Len()
				if iv.Lo < first || iv.Hi >= first+cpus {
					t.Errorf("%s: job %s CPUs %s outside machine %d [%d,%d)", path, row[0], row[col["allocated_resources"]], m, first, first+cpus)
				}
			}
			if count != n {
				t.Errorf("%s: job %s holds %d CPUs, asked for %d", path, row[0], count, n)
			}
			// Estimated (an integer in 500..3000 s at BM_est) = execution
			// time x speed / BM_est.
			ex, _ := strconv.ParseFloat(row[col["execution_time"]], 64)
			sp, _ := strconv.ParseFloat(row[col["speed"]], 64)
			bm, _ := strconv.ParseFloat(row[col["bm_est"]], 64)
			if est := ex * sp / bm; math.Abs(est-math.Round(est)) > 1e-6 || est < 499.5 || est > 3000.5 {
				t.Errorf("%s: job %s: execution %g x speed %g / BM_est %g = %g, not an Estimated of the generator", path, row[0], ex, sp, bm, est)
			}
		}
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}
