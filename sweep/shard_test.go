package sweep

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scenario"
)

// shardScenario is a small sweep: 2 x 2 points of 3 replications (12
// units) that runs in milliseconds.
const shardScenario = `model: grid
seed: 7
replications: 3
stop: {completed: 300}
platform: {sites: 2, procs_per_site: 4}
workload: {mean_interarrival: 0.2}
policy:
  grid: [random, deferred]
  allocation_interval: 0.5
  local: [sq, random]
`

func shardPoints(t *testing.T, text string) []scenario.Point {
	t.Helper()
	points, err := scenario.Parse("s.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return points
}

func TestParseShard(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Shard
		err  string
	}{
		{"0/4", Shard{0, 4}, ""},
		{"3/4", Shard{3, 4}, ""},
		{"0/1", Shard{0, 1}, ""},
		{"3/3", Shard{}, "shard 3 of 3: want 0 <= I < N, here 0..2"},
		{"0/0", Shard{}, "0 shards: want 1..10000"},
		{"-1/2", Shard{}, "shard -1 of 2"},
		{"0/10001", Shard{}, "10001 shards: want 1..10000"},
		{"a/2", Shard{}, "want I/N with whole numbers"},
		{"1", Shard{}, "want I/N, e.g. 0/4"},
		{"1/2/3", Shard{}, "want I/N with whole numbers"},
	} {
		got, err := ParseShard(c.in)
		if c.err == "" {
			if err != nil || got != c.want {
				t.Errorf("%q: %v, %v; want %v", c.in, got, err, c.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.err)
		}
	}
}

// Every unit belongs to exactly one shard, and Size counts a shard's
// units.
func TestShardPartition(t *testing.T) {
	for total := 0; total <= 30; total++ {
		for n := 1; n <= 9; n++ {
			seen := make([]int, total)
			for i := 0; i < n; i++ {
				sh := Shard{i, n}
				size := 0
				for u := 0; u < total; u++ {
					if sh.Owns(u) {
						seen[u]++
						size++
					}
				}
				if sh.Size(total) != size {
					t.Errorf("total %d, shard %v: Size %d, owns %d", total, sh, sh.Size(total), size)
				}
			}
			for u, k := range seen {
				if k != 1 {
					t.Errorf("total %d, %d shards: unit %d in %d shards", total, n, u, k)
				}
			}
		}
	}
}

// Units are numbered point by point, replication by replication.
func TestUnits(t *testing.T) {
	points := []scenario.Point{{Index: 0}, {Index: 1}, {Index: 2}}
	for i, r := range []int{3, 1, 2} {
		points[i].Scenario.Replications = r
	}
	us := NewUnits(points)
	if us.Total() != 6 {
		t.Fatalf("total %d, want 6", us.Total())
	}
	want := [][2]int{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {2, 0}, {2, 1}}
	for u, w := range want {
		p, rep := us.Locate(u)
		if p != w[0] || rep != w[1] || us.Unit(p, rep) != u {
			t.Errorf("unit %d: point %d replication %d (Unit %d), want %v", u, p, rep, us.Unit(p, rep), w)
		}
	}
}

// The shards of a sweep run every unit exactly once; run again, they
// run nothing; a removed unit file is run again by its shard only.
func TestRunShard(t *testing.T) {
	points := shardPoints(t, shardScenario)
	us := NewUnits(points)
	for _, n := range []int{1, 2, 3, 5, 13} {
		dir := t.TempDir()
		ran := 0
		for i := 0; i < n; i++ {
			st, err := RunShard(points, dir, Shard{i, n}, 2, nil, false)
			if err != nil {
				t.Fatal(err)
			}
			if st.Units != (Shard{i, n}).Size(us.Total()) || st.Reused != 0 {
				t.Errorf("%d shards, shard %d: %+v", n, i, st)
			}
			ran += st.Ran
		}
		ents, _ := os.ReadDir(UnitsDir(dir))
		if ran != us.Total() || len(ents) != us.Total() {
			t.Errorf("%d shards: ran %d units, %d files; want %d", n, ran, len(ents), us.Total())
		}
		for _, e := range ents {
			if _, ok := UnitOfFile(points, us, e.Name()); !ok {
				t.Errorf("%s: not a unit file", e.Name())
			}
		}
		os.Remove(filepath.Join(UnitsDir(dir), ents[4].Name()))
		u, _ := UnitOfFile(points, us, ents[4].Name())
		for i := 0; i < n; i++ {
			st, err := RunShard(points, dir, Shard{i, n}, 2, nil, false)
			if err != nil {
				t.Fatal(err)
			}
			want := 0
			if i == u%n {
				want = 1
			}
			if st.Ran != want || st.Reused != st.Units-want {
				t.Errorf("%d shards, shard %d after removing unit %d: %+v", n, i, u, st)
			}
		}
	}
}

func TestUnitOfFile(t *testing.T) {
	points := shardPoints(t, shardScenario)
	us := NewUnits(points)
	key1 := points[1].Scenario.Key()
	for _, c := range []struct {
		name string
		unit int // -1: not a unit file
	}{
		{"0001-" + key1 + "-r2.json", 5},
		{"0001-" + key1 + "-r2.csv", 5},
		{".0001-" + key1 + "-r0.json.tmp-123", 3},
		{"0001-" + key1 + "-r3.json", -1},  // replication out of range
		{"0002-" + key1 + "-r0.json", -1},  // another point's key
		{"1-" + key1 + "-r0.json", -1},     // not how we write the number
		{"0001-" + key1 + "-r0.txt", -1},   // extension
		{".0001-" + key1 + "-r0.json", -1}, // hidden, not a temporary file
		{"0009-" + key1 + "-r0.json", -1},  // no such point
		{"0001-" + key1 + "x-r0.json", -1}, // another key
		{"0001-" + key1 + "-r-1.json", -1}, // negative replication
		{"0001-" + key1 + "-r01.json", -1}, // not how we write the replication
		{"0001-" + key1 + ".json", -1},     // a point file
		{"manifest.json", -1},
	} {
		u, ok := UnitOfFile(points, us, c.name)
		if ok != (c.unit >= 0) || ok && u != c.unit {
			t.Errorf("%s: unit %d, %v; want %d", c.name, u, ok, c.unit)
		}
	}
}
