package sweep

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scenario"
)

func notesOf(t *testing.T, src string) []string {
	t.Helper()
	pts, err := scenario.Parse("n.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Sweep(pts, t.TempDir(), 1, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	return Notes(pts, res, Compare(pts, res))
}

func TestSweepNotes(t *testing.T) {
	poisson := "model: cluster\nstop: {completed: 300}\nplatform: {procs: 2}\nworkload: {mean_interarrival: 0.6}\n"
	for _, tc := range []struct{ name, src, want string }{
		// One-CPU jobs with exact estimates: EASY and FCFS make the same
		// schedule, so every paired difference is exactly 0.
		{"identical", poisson + "replications: 3\npolicy: {queue: [fcfs, easy]}\n", "every compared point gave exactly the same results"},
		{"one replication", poisson + "policy: {queue: easy, order: [fcfs, sjf]}\n", "every point has 1 replication"},
		{"one point", poisson + "replications: 2\npolicy: {queue: fcfs}\n", "the sweep has one point"},
		{"no policy axis", poisson + "replications: 2\nseed: [1, 2]\npolicy: {queue: fcfs}\n", "no policy setting is swept"},
		{"differences", poisson + "replications: 3\npolicy: {queue: easy, order: [fcfs, sjf]}\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			notes := notesOf(t, tc.src)
			if tc.want == "" {
				if len(notes) != 0 {
					t.Fatalf("notes %q, want none", notes)
				}
				return
			}
			if len(notes) == 0 || !strings.Contains(strings.Join(notes, "\n"), tc.want) {
				t.Fatalf("notes %q, want one saying %q", notes, tc.want)
			}
		})
	}
}
