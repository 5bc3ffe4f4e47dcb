package slurmconf

import (
	"slices"
	"strings"
	"testing"
)

// The site file on a pool of CPUs: 64 cpu nodes of 32 CPUs (0-2047), 8
// gpu nodes of 32 (2048-2303), 2 of 40 (2304-2383), big01 of 32
// (2384-2415).
func TestCPUPool(t *testing.T) {
	c, err := ReadFile("testdata/site.conf")
	if err != nil {
		t.Fatal(err)
	}
	p := c.CPUPool()
	if p.Procs != 2416 {
		t.Fatalf("procs %d, want 2416", p.Procs)
	}
	want := []string{
		"batch:0-2047:maxtime=172800:default",
		"gpu:2048-2383:maxtime=86400", // AllowQos names: a trace's QOS are numbers
		"all:0-2415",                  // AllowAccounts names
	}
	if !slices.Equal(p.Partitions, want) {
		t.Fatalf("partitions\n%q\nwant\n%q", p.Partitions, want)
	}
	notes := strings.Join(p.Notes, "\n")
	for _, s := range []string{"75 nodes become CPUs 0-2415", "partition batch (testdata/site.conf:32): not on the pool of CPUs: PriorityTier=1, MaxNodes=32, DefaultTime",
		"partition all (testdata/site.conf:34): not on the pool of CPUs: AllowAccounts=admin (names; a trace's are numbers), OverSubscribe=EXCLUSIVE",
		"AllowQos=normal,high (names; a trace's are numbers)"} {
		if !strings.Contains(notes, s) {
			t.Errorf("notes lack %q:\n%s", s, notes)
		}
	}
}

// MaxTime=0 is left out and said (it was a --partition maxtime=0 that
// the partition parser refused).
func TestCPUPoolMaxTimeZero(t *testing.T) {
	c, err := Read(strings.NewReader("NodeName=n[1-4] CPUs=8\nPartitionName=p Nodes=ALL MaxTime=0 Default=YES\n"), "z.conf")
	if err != nil {
		t.Fatal(err)
	}
	p := c.CPUPool()
	if want := []string{"p:0-31:default"}; !slices.Equal(p.Partitions, want) {
		t.Fatalf("partitions %q, want %q", p.Partitions, want)
	}
	if notes := strings.Join(p.Notes, "\n"); !strings.Contains(notes, "partition p (z.conf:2): not on the pool of CPUs: MaxTime=0") {
		t.Errorf("notes lack MaxTime=0:\n%s", notes)
	}
}
