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
	want := []string{ // by PriorityTier: gpu 2, batch 1, all 0 (the file has batch, gpu, all)
		"gpu:2048-2383:maxtime=86400", // AllowQos names: a trace's QOS are numbers
		"batch:0-2047:maxtime=172800:default",
		"all:0-2415", // AllowAccounts names
	}
	if !slices.Equal(p.Partitions, want) {
		t.Fatalf("partitions\n%q\nwant\n%q", p.Partitions, want)
	}
	notes := strings.Join(p.Notes, "\n")
	for _, s := range []string{"75 nodes become CPUs 0-2415", "partition batch (testdata/site.conf:32): not on the pool of CPUs: MaxNodes=32, DefaultTime",
		"partitions served by PriorityTier, highest first, not in the file's order: gpu (PriorityTier=2), batch (PriorityTier=1), all (PriorityTier=0)",
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

// ByTier: PriorityTier highest first, a tier's partitions in the file's
// order; no note when that is the file's order.
func TestByTier(t *testing.T) {
	names := func(ps []Partition) string {
		var s []string
		for _, p := range ps {
			s = append(s, p.Name)
		}
		return strings.Join(s, " ")
	}
	c, err := Read(strings.NewReader("NodeName=n[1-4] CPUs=8\nPartitionName=a Nodes=n1 PriorityTier=1\nPartitionName=b Nodes=n2 PriorityTier=3\n"+
		"PartitionName=c Nodes=n3 PriorityTier=1\nPartitionName=d Nodes=n4 PriorityTier=3\nPartitionName=e Nodes=n4\n"), "t.conf")
	if err != nil {
		t.Fatal(err)
	}
	ps, note := c.ByTier()
	if got := names(ps); got != "b d a c e" {
		t.Errorf("order %s, want b d a c e", got)
	}
	if !strings.Contains(note, "b (PriorityTier=3), d (PriorityTier=3), a (PriorityTier=1), c (PriorityTier=1), e (PriorityTier=0)") {
		t.Errorf("note %q", note)
	}
	if names(c.Partitions) != "a b c d e" {
		t.Errorf("the configuration's own order changed: %s", names(c.Partitions))
	}
	c, err = Read(strings.NewReader("NodeName=n[1-2] CPUs=8\nPartitionName=a Nodes=n1 PriorityTier=2\nPartitionName=b Nodes=n2 PriorityTier=2\n"), "t.conf")
	if err != nil {
		t.Fatal(err)
	}
	if ps, note := c.ByTier(); names(ps) != "a b" || note != "" {
		t.Errorf("equal tiers: %s, note %q", names(ps), note)
	}
}
