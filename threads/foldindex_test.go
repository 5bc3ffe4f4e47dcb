package threads

import (
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/job"
)

// foldIndex holds exactly what a map would, whatever the order of IDs:
// mostly ascending with jobs living long or short, out of order, far
// ahead (beyond the slack), and IDs reused after they left.
func TestFoldIndexMatchesMap(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		r := rand.New(rand.NewPCG(seed, 3))
		var x foldIndex
		want := map[job.ID]*folded{}
		var live []job.ID
		next := job.ID(r.IntN(10))
		for step := range 20000 {
			if len(live) > 0 && r.IntN(2) == 0 {
				// end a live job: usually an old one, sometimes any
				k := r.IntN(len(live))
				if r.IntN(4) > 0 {
					k = r.IntN(min(len(live), 3))
				}
				id := live[k]
				live = append(live[:k], live[k+1:]...)
				x.del(id, want[id])
				delete(want, id)
			} else {
				var id job.ID
				switch r.IntN(20) {
				case 0:
					id = next - job.ID(r.IntN(50)) // behind, maybe reused
				case 1:
					id = next + foldSlack*job.ID(1+r.IntN(3)) // far ahead
				default:
					next += job.ID(1 + r.IntN(3))
					id = next
				}
				if id < 0 || want[id] != nil {
					continue
				}
				e := &folded{}
				x.put(id, e)
				want[id] = e
				live = append(live, id)
			}
			if step%251 == 0 {
				for id := next - 100; id <= next+3*foldSlack+10; id++ {
					if got := x.get(id); got != want[id] {
						t.Fatalf("seed %d step %d: get(%d) = %p, want %p", seed, step, id, got, want[id])
					}
				}
			}
		}
		for id, e := range want {
			if x.get(id) != e {
				t.Fatalf("seed %d: get(%d) lost", seed, id)
			}
		}
	}
}
