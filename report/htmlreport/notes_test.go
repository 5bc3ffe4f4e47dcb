package htmlreport

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The sweep page says why its comparisons say nothing, from the two
// tables alone.
func TestSweepPageNotes(t *testing.T) {
	const head = "point,key,labels,metric,mean,ci_low,ci_high,n\n"
	two := func(n string) string {
		return head + "0,k0,policy.queue=fcfs,mean_wait,5,4,6," + n + "\n" + "1,k1,policy.queue=easy,mean_wait,5,4,6," + n + "\n"
	}
	const cmpHead = "axis,baseline,value,context,metric,diff,ci_low,ci_high,n\n"
	for _, tc := range []struct{ name, summary, cmp, want string }{
		{"one replication", head + "0,k0,policy.queue=fcfs,mean_wait,5,,,1\n1,k1,policy.queue=easy,mean_wait,4,,,1\n", cmpHead, "every point has 1 replication"},
		{"one point", head + "0,k0,,mean_wait,5,4,6,3\n", cmpHead, "the sweep has one point"},
		{"no policy axis", head + "0,k0,seed=1,mean_wait,5,4,6,3\n1,k1,seed=2,mean_wait,4,3,5,3\n", cmpHead, "no policy setting is swept"},
		{"identical", two("3"), cmpHead + "policy.queue,fcfs,easy,,mean_wait,0,0,0,3\n", "Every compared point gave exactly the same results"},
		{"different", two("3"), cmpHead + "policy.queue,fcfs,easy,,mean_wait,-1,-2,0,3\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "summary.csv"), tc.summary)
			write(t, filepath.Join(dir, "comparisons.csv"), tc.cmp)
			out, err := Write(dir)
			if err != nil {
				t.Fatal(err)
			}
			page, _ := os.ReadFile(out[0])
			warn := strings.Contains(string(page), `<p class="warn">`)
			if tc.want == "" {
				if warn {
					t.Fatal("a note on a sweep whose comparisons differ")
				}
				return
			}
			if !strings.Contains(string(page), tc.want) {
				t.Fatalf("page lacks the note %q", tc.want)
			}
		})
	}
}
