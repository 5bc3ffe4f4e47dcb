package experiment

import (
	"io"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
)

type nJobs struct{ n, i int }

func (s *nJobs) Next() (actual.Job, error) {
	if s.i == s.n {
		return actual.Job{}, io.EOF
	}
	s.i++
	return actual.Job{ID: job.ID(s.i), Submit: float64(s.i), Runtime: 1, Procs: 1}, nil
}

// --check's recorder refuses the job beyond its limit with an error
// naming the limit, having kept exactly limit jobs; up to the limit it
// passes every job on.
func TestCheckJobLimit(t *testing.T) {
	r := &recordingSource{src: &nJobs{n: 5}, limit: 3}
	var err error
	got := 0
	for err == nil {
		if _, err = r.Next(); err == nil {
			got++
		}
	}
	if got != 3 || len(r.jobs) != 3 || !strings.Contains(err.Error(), "--check holds every job in memory and is limited to 3 jobs") {
		t.Errorf("passed %d, kept %d, err %v", got, len(r.jobs), err)
	}
	r = &recordingSource{src: &nJobs{n: 3}, limit: 3}
	for err = nil; err == nil; _, err = r.Next() {
	}
	if err != io.EOF || len(r.jobs) != 3 {
		t.Errorf("at the limit: kept %d, err %v", len(r.jobs), err)
	}
}
