package experiment

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/internal/testref"
	"github.com/schedlab/schedlab/validate"
)

// Strict FCFS with announced windows against the independent naive
// simulator (internal/testref.FCFSWindows, written from
// docs/availability.md's rules): on 30 random workloads of 150 jobs with
// 1 to 4 windows on random CPU ranges, every job starts at the same time
// on the same CPUs.
func TestFCFSWindowsAgreeWithNaive(t *testing.T) {
	for seed := range uint64(30) {
		r := rand.New(rand.NewPCG(seed, 11))
		procs := 4 + r.IntN(29)
		var sb strings.Builder
		fmt.Fprintf(&sb, "; MaxProcs: %d\n", procs)
		var jobs []testref.Job
		submit := 0.0
		for id := 1; id <= 150; id++ {
			if r.IntN(3) > 0 {
				submit += float64(r.IntN(30))
			}
			cpus := 1 + r.IntN(procs)
			if r.IntN(2) == 0 {
				cpus = 1 + r.IntN(min(procs, 3))
			}
			req := float64(10 * (1 + r.IntN(20)))
			run := float64(r.IntN(int(req) + 1))
			fmt.Fprintf(&sb, "%d %g -1 %g %d -1 -1 %d %g -1 1 1 1 -1 -1 -1 -1 -1\n", id, submit, run, cpus, cpus, req)
			jobs = append(jobs, testref.Job{ID: int64(id), Submit: submit, Duration: run, Estimate: req, Procs: cpus})
		}
		var ws []testref.Window
		var texts []string
		at := float64(r.IntN(200))
		for range 1 + r.IntN(4) {
			lo := r.IntN(procs)
			hi := lo + r.IntN(procs-lo)
			w := testref.Window{Start: at, End: at + float64(1+r.IntN(300)), Lo: lo, Hi: hi}
			ws = append(ws, w)
			texts = append(texts, fmt.Sprintf("%g:%g:%d-%d", w.Start, w.End, w.Lo, w.Hi))
			at = w.End + float64(r.IntN(400))
		}
		tr := writeSWF(t, sb.String())
		out := filepath.Join(t.TempDir(), "out")
		if _, err := (RunSpec{Workload: WorkloadSpec{Trace: tr}, Platform: PlatformSpec{Avail: AvailSpec{Reservations: texts}}, Policy: PolicySpec{Name: "fcfs"}, Outputs: OutputSpec{Dir: out, Check: true}}).Run(); err != nil {
			t.Fatalf("seed %d %v: %v", seed, texts, err)
		}
		wantStart, wantCPUs := testref.FCFSWindows(jobs, procs, ws)
		rows := readRows(t, filepath.Join(out, "jobs.csv"))
		col := colIndex(rows[0])
		got := map[string][]string{}
		for _, row := range rows[1:] {
			got[row[0]] = row
		}
		for i, j := range jobs {
			row := got[fmt.Sprint(j.ID)]
			ivs, err := validate.ParseResources(row[col["allocated_resources"]])
			if err != nil {
				t.Fatal(err)
			}
			var ids []int
			for _, iv := range ivs {
				for c := iv.Lo; c <= iv.Hi; c++ {
					ids = append(ids, c)
				}
			}
			if row[col["starting_time"]] != fmt.Sprint(wantStart[i]) || fmt.Sprint(ids) != fmt.Sprint(wantCPUs[i]) {
				t.Fatalf("seed %d, windows %v: job %d starts at %s on %v, the naive simulator says %v on %v",
					seed, texts, j.ID, row[col["starting_time"]], ids, wantStart[i], wantCPUs[i])
			}
		}
	}
}
