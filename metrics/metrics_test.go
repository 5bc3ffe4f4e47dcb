package metrics

import (
	"bytes"
	"math"
	"reflect"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
)

func rec(id job.ID, submit, start, end float64, procs int, req float64, st job.FinalState, why job.StartReason) *engine.Record {
	return &engine.Record{Job: &actual.Job{ID: id, Submit: submit, Procs: procs, Request: req}, Start: start, End: end, State: st, Reason: why}
}

// Three jobs on a 4-processor machine, worked by hand:
//
//	job  submit start end procs  wait resp exec  sld        bsld (tau 10)
//	 1      0     0   20    2      0    20   20   1          max(1, 20/20)=1
//	 2      5    10   15    4      5    10    5   2          max(1, 10/10)=1
//	 3     10    20   20    1     10    10    0   undefined  max(1, 10/10)=1
//
// mean wait 5, max wait 10, mean response 40/3, mean slowdown (1+2)/2 = 1.5
// (job 3 has zero length), bounded slowdown 1; work = 2*20 + 4*5 = 60
// processor-seconds over 4 processors x (20 - 0) s: utilization 0.75;
// makespan 20.
func TestSummaryHandWorked(t *testing.T) {
	s := NewSummary(4, 10)
	recs := []*engine.Record{
		rec(1, 0, 0, 20, 2, 30, job.Completed, job.Immediate),
		rec(2, 5, 10, 15, 4, -1, job.WalltimeReached, job.Reserved),
		rec(3, 10, 20, 20, 1, 5, job.Completed, job.Backfilled),
	}
	for _, r := range recs {
		s.JobSubmitted(r.Job.Submit, r.Job)
	}
	s.JobFinished(20, recs[0])
	s.JobKilled(15, recs[1])
	s.JobFinished(20, recs[2])
	r := s.Result()
	want := Result{Jobs: 3, Killed: 1, MeanWait: 5, MaxWait: 10, MeanResponse: 40.0 / 3, MaxResponse: 20,
		MeanSlowdown: 1.5, ZeroLengthJobs: 1, MeanBoundedSlowdown: 1, Tau: 10, Utilization: 0.75, Makespan: 20, Procs: 4}
	got := r
	got.StartReasons = nil
	if math.Abs(got.MeanResponse-want.MeanResponse) > 1e-12 {
		t.Errorf("mean response %v, want %v", got.MeanResponse, want.MeanResponse)
	}
	got.MeanResponse = want.MeanResponse
	if !reflect.DeepEqual(got, want) {
		t.Errorf("summary\n got %+v\nwant %+v", got, want)
	}
	if r.StartReasons["immediate"] != 1 || r.StartReasons["backfilled"] != 1 || r.StartReasons["reserved"] != 1 {
		t.Errorf("start reasons %v", r.StartReasons)
	}
}

func TestJobsCSVRows(t *testing.T) {
	var b bytes.Buffer
	w := NewJobsCSV(&b)
	r1 := rec(1, 0, 0, 20, 2, 30, job.Completed, job.Immediate)
	r1.CPUs = platform.Runs{0, 1}
	r2 := rec(2, 5, 10, 15.5, 4, -1, job.WalltimeReached, job.Reserved)
	r2.CPUs = platform.Runs{2, 4, 7, 7}
	r3 := rec(3, 10, 20, 20, 1, 5, job.Completed, job.Backfilled)
	r3.CPUs = platform.Runs{5, 5}
	// Job 1 from a trace with user 12, group 3, partition 2; job 2 with
	// only its user known; job 3 synthetic (all unknown: empty).
	r1.Job.User, r1.Job.Group, r1.Job.Partition = 12, 3, 2
	r2.Job.User, r2.Job.Group, r2.Job.Partition = 0, -1, -1
	r3.Job.User, r3.Job.Group, r3.Job.Partition = -1, -1, -1
	w.JobFinished(20, r1)
	w.JobKilled(15, r2)
	w.JobFinished(20, r3)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	want := JobsHeader +
		"1,0,2,30,0,20,20,0,20,1,0-1,COMPLETED_SUCCESSFULLY,immediate,w0,delay,1,-1,,12,3,2\n" +
		"2,5,4,,10,5.5,15.5,5,10.5,1.9090909090909092,2-4 7,COMPLETED_WALLTIME_REACHED,reserved,w0,delay,0,-1,,0,,\n" +
		"3,10,1,5,20,0,20,10,10,,5,COMPLETED_SUCCESSFULLY,backfilled,w0,delay,1,-1,,,,\n"
	if got := b.String(); got != want {
		t.Errorf("jobs.csv\n got %q\nwant %q", got, want)
	}
}

// SetNames adds user_name and group_name last: each job's names by its
// ids, empty for an id without a name or unknown (-1); a name with a
// comma or a quote is quoted as CSV quotes it.
func TestJobsCSVNames(t *testing.T) {
	var b bytes.Buffer
	w := NewJobsCSVAttempts(&b, nil)
	w.SetNames(map[int32]string{1: "alice", 2: `o"neil, jr`}, map[int32]string{1: "physics"})
	for i, ug := range [][2]int32{{1, 1}, {2, 7}, {-1, -1}} {
		r := rec(job.ID(i+1), 0, 0, 10, 1, 10, job.Completed, job.Immediate)
		r.CPUs = platform.Runs{0, 0}
		r.Job.User, r.Job.Group, r.Job.Partition = ug[0], ug[1], -1
		w.JobFinished(10, r)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	want := JobsHeader[:len(JobsHeader)-1] + ",attempts,user_name,group_name\n" +
		"1,0,1,10,0,10,10,0,10,1,0,COMPLETED_SUCCESSFULLY,immediate,w0,delay,1,-1,,1,1,,1,alice,physics\n" +
		"2,0,1,10,0,10,10,0,10,1,0,COMPLETED_SUCCESSFULLY,immediate,w0,delay,1,-1,,2,7,,1,\"o\"\"neil, jr\",\n" +
		"3,0,1,10,0,10,10,0,10,1,0,COMPLETED_SUCCESSFULLY,immediate,w0,delay,1,-1,,,,,1,,\n"
	if got := b.String(); got != want {
		t.Errorf("jobs.csv\n got %q\nwant %q", got, want)
	}
}

// A warm-up of one job: job 1 (ends at 20) is left out; the span for
// utilization starts at its end. Job 2 (2 procs, 10 s, submit 15, start 20,
// end 30): wait 5, response 15; utilization 2*10 / (4 * (30 - 20)) = 0.5.
func TestSummaryWarmup(t *testing.T) {
	s := NewSummary(4, 10)
	s.Skip(1)
	r1 := rec(1, 0, 0, 20, 4, -1, job.Completed, job.Immediate)
	r2 := rec(2, 15, 20, 30, 2, -1, job.Completed, job.Reserved)
	s.JobSubmitted(0, r1.Job)
	s.JobSubmitted(15, r2.Job)
	s.JobFinished(20, r1)
	s.JobFinished(30, r2)
	got := s.Result()
	if got.Jobs != 1 || got.MeanWait != 5 || got.MeanResponse != 15 || got.Utilization != 0.5 {
		t.Fatalf("after warm-up: jobs %d wait %v response %v utilization %v; want 1, 5, 15, 0.5", got.Jobs, got.MeanWait, got.MeanResponse, got.Utilization)
	}
}

// With tau 0 (the synthetic models) a zero-length job has no bounded
// slowdown: it is left out of the mean, as of the mean slowdown, instead
// of making it NaN (0/0) or +Inf (x/0).
//
//	job  submit start end  resp exec  bsld (tau 0)
//	 1      0     0    4     4    4   max(1, 4/4) = 1
//	 2      0     4    4     4    0   undefined
//	 3      0     4   10    10    6   max(1, 10/6) = 5/3
func TestSummaryZeroLengthTauZero(t *testing.T) {
	s := NewSummary(1, 0)
	for _, r := range []*engine.Record{
		rec(1, 0, 0, 4, 1, -1, job.Completed, job.Immediate),
		rec(2, 0, 4, 4, 1, -1, job.Completed, job.Reserved),
		rec(3, 0, 4, 10, 1, -1, job.Completed, job.Reserved),
	} {
		s.JobSubmitted(0, r.Job)
		s.JobFinished(r.End, r)
	}
	r := s.Result()
	if want := 4.0 / 3; math.Abs(r.MeanBoundedSlowdown-want) > 1e-12 || r.ZeroLengthJobs != 1 {
		t.Errorf("mean bounded slowdown %v, zero-length jobs %d; want %v, 1", r.MeanBoundedSlowdown, r.ZeroLengthJobs, want)
	}
	var b bytes.Buffer
	if err := WriteJSON(&b, r); err != nil {
		t.Errorf("summary.json: %v", err)
	}
}
