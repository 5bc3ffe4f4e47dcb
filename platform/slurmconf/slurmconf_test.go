package slurmconf

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/platform/nodes"
)

// The site file read field by field, each value worked out from the
// lines by hand.
func TestReadSite(t *testing.T) {
	c, err := ReadFile("testdata/site.conf")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Groups) != 4 || c.Nodes.Len() != 64+8+2+1 {
		t.Fatalf("%d groups, %d nodes; want 4, 75", len(c.Groups), c.Nodes.Len())
	}
	cpu := c.Groups[0]
	if cpu.Sockets != 2 || cpu.CoresPerSocket != 16 || cpu.ThreadsPerCore != 1 || cpu.MemMB != 192000 || cpu.Weight != 10 ||
		!slices.Equal(cpu.Features, []string{"cpu", "ib"}) || cpu.Names[0] != "cpu001" || cpu.Names[63] != "cpu064" {
		t.Fatalf("cpu group: %+v", cpu)
	}
	gpu := c.Groups[1]
	if gpu.MemMB != 512000 || gpu.Weight != 50 || !slices.Equal(gpu.GRES, []nodes.GRES{{Name: "gpu", Type: "a100", Count: 4}}) ||
		!slices.Equal(gpu.Features, []string{"a100", "gpu", "ib"}) {
		t.Fatalf("gpu group (a continued line): %+v", gpu)
	}
	v100 := c.Groups[2]
	// gpu:v100:2(S:0-1),gpu:v100:2: one kind in two entries, 4 units;
	// CPUs=40 = 2 x 20 x 1, no warning; Weight defaults to 1.
	if v100.CoresPerSocket != 20 || !slices.Equal(v100.GRES, []nodes.GRES{{Name: "gpu", Type: "v100", Count: 4}}) || v100.Weight != 1 ||
		!slices.Equal(v100.Features, []string{"gpu", "v100"}) {
		t.Fatalf("v100 group: %+v", v100)
	}
	big := c.Groups[3]
	if big.Sockets != 2 || big.CoresPerSocket != 16 || big.MemMB != 2048000 {
		// DEFAULT's Sockets and CoresPerSocket apply; CPUs=96 differs
		// from 2 x 16 x 1: a warning, the node has 32 CPUs.
		t.Fatalf("big group: %+v", big)
	}
	if c.SchedulerType != "sched/backfill" || c.SelectType != "select/cons_tres" ||
		!slices.Equal(c.SelectTypeParams, []Param{{Key: "CR_Core_Memory", Flag: true}}) {
		t.Fatalf("scheduler: %q %q %v", c.SchedulerType, c.SelectType, c.SelectTypeParams)
	}
	want := []Param{{"bf_window", "2880", false}, {"bf_interval", "30", false}, {"bf_max_job_test", "500", false}, {"bf_continue", "", true}, {"default_queue_depth", "100", false}, {"bf_resolution", "60", false}}
	if !slices.Equal(c.SchedulerParameters, want) {
		t.Fatalf("SchedulerParameters %v", c.SchedulerParameters)
	}
	if c.Priority["PriorityWeightFairshare"] != "10000" || c.Priority["PriorityMaxAge"] != "7-0" || c.Priority["PriorityType"] != "priority/multifactor" {
		t.Fatalf("Priority %v", c.Priority)
	}
	if c.PreemptType != "preempt/qos" || c.PreemptMode != "REQUEUE" || !slices.Equal(c.GresTypes, []string{"gpu"}) {
		t.Fatalf("preempt %q %q, gres types %v", c.PreemptType, c.PreemptMode, c.GresTypes)
	}
	if len(c.Partitions) != 3 {
		t.Fatalf("%d partitions", len(c.Partitions))
	}
	b, g, all := c.Partitions[0], c.Partitions[1], c.Partitions[2]
	if b.Name != "batch" || !b.Default || b.DefaultTime != 3600 || b.MaxTime != 2*86400 || b.PriorityTier != 1 || b.MaxNodes != 32 || len(b.Nodes) != 64 || b.Nodes[0] != "cpu001" {
		t.Fatalf("batch: %+v", b)
	}
	if g.MaxTime != 86400 || g.PriorityTier != 2 || !slices.Equal(g.AllowQos, []string{"normal", "high"}) || len(g.Nodes) != 10 ||
		!slices.Equal(g.TRESBillingWeights, []Param{{"CPU", "1.0", false}, {"Mem", "0.25G", false}, {"GRES/gpu", "8.0", false}}) {
		t.Fatalf("gpu: %+v", g)
	}
	if !math.IsInf(all.MaxTime, 1) || all.OverSubscribe != "EXCLUSIVE" || len(all.Nodes) != 75 || !slices.Equal(all.AllowAccounts, []string{"admin"}) || all.DefaultTime != -1 {
		t.Fatalf("all: %+v", all)
	}
	// Every key not read is listed, with its line.
	var got []string
	for _, w := range c.Warnings {
		got = append(got, w.Key+"@"+strings.TrimPrefix(w.File, "testdata/")+":"+strconv.Itoa(w.Line)+" "+w.Msg)
	}
	wantW := []string{
		"ClusterName@site.conf:2 no effect on scheduling (ignored)",
		"SlurmctldHost@site.conf:3 no effect on scheduling (ignored)",
		"SlurmctldPort@site.conf:4 no effect on scheduling (ignored)",
		"AuthType@site.conf:5 no effect on scheduling (ignored)",
		"StateSaveLocation@site.conf:6 no effect on scheduling (ignored)",
		"TopologyPlugin@site.conf:23 not modelled",
		"MaxJobCount@site.conf:24 not modelled",
		"NodeAddr@site.conf:27 no effect on scheduling (ignored)",
		"CoreSpecCount@site.conf:30 not modelled",
		"CPUs@site.conf:30 CPUs=96 differs from Sockets x CoresPerSocket x ThreadsPerCore = 32: the node has 32 CPUs here",
		"Hidden@site.conf:34 no effect on scheduling (ignored)",
		"DefMemPerCPU@site.conf:34 not modelled",
	}
	if !slices.Equal(got, wantW) {
		t.Fatalf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantW, "\n"))
	}
}

func TestDuration(t *testing.T) {
	for in, want := range map[string]float64{
		"60": 3600, "5:30": 330, "1:00:00": 3600, "2-0": 172800, "1-12": 129600, "1-2:30": 95400, "1-00:00:10": 86410,
		"UNLIMITED": math.Inf(1), "infinite": math.Inf(1), "0": 0,
	} {
		if got, err := Duration(in); err != nil || got != want {
			t.Errorf("Duration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "x", "1:2:3:4", "-1", "1-", "1-2:3:4:5", "1.5", "3e2"} {
		if _, err := Duration(bad); err == nil {
			t.Errorf("Duration(%q) accepted", bad)
		}
	}
}

// Malformed lines are errors naming file, line and key.
func TestErrors(t *testing.T) {
	for text, want := range map[string]string{
		"NodeName=n1 CPUs=x":                                   "f.conf:1: CPUs: \"x\": want a whole number",
		"NodeName=n[1-\n":                                      "f.conf:1: NodeName:",
		"NodeName=n1\nPartitionName=p Nodes=n2":                "f.conf:2: Nodes: node n2 is on no NodeName line",
		"NodeName=n1\nPartitionName=p MaxTime=soon":            "f.conf:2: MaxTime: \"soon\" is not a Slurm time",
		"NodeName=n1 Gres=gpu:a:b:1":                           "f.conf:1: Gres: \"gpu:a:b:1\": want NAME[:TYPE][:COUNT]",
		"NodeName=n1\nPartitionName=p\nPartitionName=p":        "f.conf:3: PartitionName: partition p is defined twice (first at f.conf:2)",
		"NodeName=n1\nSchedulerParameters=bf_window=ten":       "f.conf:2: SchedulerParameters: bf_window=ten: not a whole number",
		"NodeName=n1\nPriorityWeightAge=-3":                    "f.conf:2: PriorityWeightAge: \"-3\" is not a whole number",
		"NodeName=n1 Feature=\"a,b":                            "f.conf:1: a double quote is not closed",
		"NodeName=n1 Gres=gpu:99999999999G":                    "f.conf:1: Gres: \"gpu:99999999999G\": count 99999999999G out of range",
		"NodeName=n1 oops":                                     "f.conf:1: oops: not a Key=Value pair",
		"NodeName=n1\nNodeName=n1":                             "f.conf:2: NodeName: node n1 is also on f.conf:1",
		"NodeName=n1\nPartitionName=p OverSubscribe=SOMETIMES": "f.conf:2: OverSubscribe: \"SOMETIMES\": want NO",
		"ClusterName=x":                                        "no NodeName line",
	} {
		_, err := Read(strings.NewReader(text), "f.conf")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want one with %q", text, err, want)
		}
	}
}

func TestIncludeAndBounds(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "nodes.conf"), []byte("NodeName=n[1-4] CPUs=8\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "slurm.conf"), []byte("include nodes.conf\nPartitionName=p Nodes=n[1-2]\n"), 0o644)
	c, err := ReadFile(filepath.Join(dir, "slurm.conf"))
	if err != nil || c.Nodes.Len() != 4 || !slices.Equal(c.Partitions[0].Nodes, []string{"n1", "n2"}) {
		t.Fatalf("include: %v %+v", err, c)
	}
	os.WriteFile(filepath.Join(dir, "loop.conf"), []byte("Include loop.conf\n"), 0o644)
	if _, err := ReadFile(filepath.Join(dir, "loop.conf")); err == nil || !strings.Contains(err.Error(), "MaxIncludeDepth") {
		t.Fatalf("an include loop: %v", err)
	}
	long := "NodeName=n1 Feature=" + strings.Repeat("a", MaxLineLen) + "\n"
	if _, err := Read(strings.NewReader(long), "f.conf"); err == nil || !strings.Contains(err.Error(), "MaxLineLen") {
		t.Fatalf("a long line: %v", err)
	}
}
