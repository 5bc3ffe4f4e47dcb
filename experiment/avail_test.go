package experiment

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/schedlab/schedlab/validate"
)

// On KTH (100 CPUs) under EASY and conservative backfilling, with CPUs
// 0-49 down over [2,000,000, 2,500,000) (an events file) and the whole
// machine in maintenance over [5,000,000, 5,086,400) (a reservation),
// killing or requeuing the jobs the failure hits: the independent
// checker passes (--check: with the unavailable spans), no job holds a
// CPU across the maintenance window, none runs on a down CPU, and the
// features did something (jobs hit, jobs held back to the window's end,
// jobs run on the other half during the failure).
func TestKTHUnavailable(t *testing.T) {
	if testing.Short() {
		t.Skip("whole-trace runs")
	}
	dir := t.TempDir()
	ev := halfDownEvents(t, dir)
	const downFrom, downTo, mFrom, mTo = 2_000_000, 2_500_000, 5_000_000, 5_086_400
	for _, pol := range []string{"easy", "conservative"} {
		for _, onFail := range []string{"kill", "requeue"} {
			out := filepath.Join(dir, pol+"-"+onFail)
			res, err := (RunSpec{Workload: WorkloadSpec{Trace: "KTH-SP2-1996-2.1-cln.swf.gz"}, Platform: PlatformSpec{Avail: AvailSpec{Reservations: []string{"5000000:5086400:100"}, Events: ev, OnFailure: onFail}}, Policy: PolicySpec{Name: pol}, Outputs: OutputSpec{Dir: out, Check: true}}).Run()
			if err != nil {
				t.Fatalf("%s %s: %v", pol, onFail, err)
			}
			a := res.Run.Availability
			if a == nil || a.ReservedSpans != 1 || a.DownSpans != 1 || a.DownCPUTime != 50*500_000 || a.ReservedCPUTime != 100*86_400 {
				t.Errorf("%s %s: availability %+v", pol, onFail, a)
			}
			f, err := os.Open(filepath.Join(out, "jobs.csv"))
			if err != nil {
				t.Fatal(err)
			}
			recs, err := validate.ReadJobsCSV(f, "jobs.csv")
			f.Seek(0, 0)
			rows, _ := csv.NewReader(f).ReadAll()
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != 27992 {
				t.Errorf("%s %s: %d records, want every job once (27992)", pol, onFail, len(recs))
			}
			atEnd, onUpHalf, killed, twice := 0, 0, 0, 0
			for i, r := range recs {
				if r.Start < mTo && r.Finish > mFrom && r.Finish > r.Start {
					t.Errorf("%s %s: job %d runs [%g, %g) across the maintenance window", pol, onFail, r.ID, r.Start, r.Finish)
				}
				low := len(r.CPUs) > 0 && r.CPUs[0].Lo <= 49
				if low && r.Start < downTo && r.Finish > downFrom && r.Finish > r.Start {
					t.Errorf("%s %s: job %d holds CPU %d over [%g, %g) while CPUs 0-49 are down", pol, onFail, r.ID, r.CPUs[0].Lo, r.Start, r.Finish)
				}
				if r.Start == mTo && r.Submit < mTo {
					atEnd++
				}
				if r.Start >= downFrom && r.Start < downTo {
					onUpHalf++
				}
				if r.State == validate.StateKilled {
					killed++
				}
				if n, _ := strconv.Atoi(rows[i+1][len(rows[i+1])-1]); n == 2 {
					twice++
				}
			}
			if atEnd == 0 || onUpHalf == 0 {
				t.Errorf("%s %s: %d jobs started as the window ended, %d during the failure: the test shows nothing", pol, onFail, atEnd, onUpHalf)
			}
			wantKilled, wantTwice := 2, 0
			if onFail == "requeue" {
				wantKilled, wantTwice = 0, 2
			}
			if killed != wantKilled || twice != wantTwice || res.KilledByFailure != int64(wantKilled) || a.Interrupted != 2 {
				t.Errorf("%s %s: %d killed, %d run twice, summary %d killed, %d runs cut; want %d killed, %d twice",
					pol, onFail, killed, twice, res.KilledByFailure, a.Interrupted, wantKilled, wantTwice)
			}
			t.Logf("%s %s: mean wait %.1f, %d jobs started at the window's end, %d during the failure", pol, onFail, res.MeanWait, atEnd, onUpHalf)
		}
	}
}

// halfDownEvents writes dir/events.jsonl: KTH's CPUs 0-49 down over
// [2,000,000, 2,500,000), and returns its path.
func halfDownEvents(t *testing.T, dir string) string {
	t.Helper()
	ev := filepath.Join(dir, "events.jsonl")
	if err := os.WriteFile(ev, []byte(`{"timestamp": 2000000, "type": "machine_unavailable", "resources": "0-49"}
{"timestamp": 2500000, "type": "machine_available", "resources": "0-49"}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	return ev
}

// A reservation given with dates is the one given in seconds: KTH-SP2's
// time 0 is 843480031 (1996-09-23 12:00:31 UTC) and its zone
// Europe/Stockholm, so 1996-10-01T00:00:00 (CEST: 1996-09-30 22:00 UTC,
// 844120800) is 640769 s and 06:00 is 662369 s: the two runs' jobs.csv
// are byte-identical.
func TestReservationDates(t *testing.T) {
	// 1996-09-30T22:00:00Z = 844120800; minus the trace's start 843480031.
	const start = 844120800 - 843480031
	if start != 640769 {
		t.Fatalf("hand-worked start %d", start)
	}
	dir := t.TempDir()
	var got [2][]byte
	for i, r := range []string{"1996-10-01T00:00:00:1996-10-01T06:00:00:50", "640769:662369:50"} {
		out := filepath.Join(dir, strconv.Itoa(i))
		res, err := (RunSpec{Workload: WorkloadSpec{Trace: "KTH-SP2-1996-2.1-cln.swf.gz", First: 3000}, Platform: PlatformSpec{Avail: AvailSpec{Reservations: []string{r}}}, Policy: PolicySpec{Name: "easy"}, Outputs: OutputSpec{Dir: out}}).Run()
		if err != nil {
			t.Fatalf("%s: %v", r, err)
		}
		if a := res.Run.Availability; a == nil || a.ReservedCPUTime != 50*21600 {
			t.Errorf("%s: availability %+v", r, a)
		}
		if got[i], err = os.ReadFile(filepath.Join(out, "jobs.csv")); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(got[0], got[1]) {
		t.Error("jobs.csv differs between the dates and the seconds")
	}
}

// An events file may give its timestamps as dates in the trace's zone,
// as --reservation does: on KTH-SP2, 1996-10-01T00:00:00 is 640769 s and
// 06:00 is 662369 s (TestReservationDates works them out); an outage of
// CPUs 0-49 between them gives the jobs.csv of the file in seconds, byte
// for byte, with 50 x 21600 CPU-seconds down.
func TestEventsDates(t *testing.T) {
	dir := t.TempDir()
	var got [2][]byte
	for i, ts := range [][2]string{{`"1996-10-01T00:00:00"`, `"1996-10-01 06:00"`}, {"640769", "662369"}} {
		ev := filepath.Join(dir, strconv.Itoa(i)+".jsonl")
		body := `{"timestamp": ` + ts[0] + `, "type": "machine_unavailable", "resources": "0-49"}
{"timestamp": ` + ts[1] + `, "type": "machine_available", "resources": "0-49"}
`
		if err := os.WriteFile(ev, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, strconv.Itoa(i))
		res, err := (RunSpec{Workload: WorkloadSpec{Trace: "KTH-SP2-1996-2.1-cln.swf.gz", First: 3000}, Platform: PlatformSpec{Avail: AvailSpec{Events: ev}}, Policy: PolicySpec{Name: "easy"}, Outputs: OutputSpec{Dir: out}}).Run()
		if err != nil {
			t.Fatalf("%s: %v", ts, err)
		}
		if a := res.Run.Availability; a == nil || a.DownCPUTime != 50*21600 {
			t.Errorf("%s: availability %+v", ts, a)
		}
		if got[i], err = os.ReadFile(filepath.Join(out, "jobs.csv")); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(got[0], got[1]) {
		t.Error("jobs.csv differs between the dates and the seconds")
	}
}
