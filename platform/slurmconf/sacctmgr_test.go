package slurmconf

import (
	"math"
	"slices"
	"strings"
	"testing"
)

const dump = `# sacctmgr dump lab
Cluster - 'lab':Fairshare=1:QOS='normal'
Parent - 'root'
User - 'root':DefaultAccount='root':AdminLevel='Administrator':Fairshare=1
Account - 'physics':Description='physics: theory':Organization='uni':Fairshare=40
Account - 'chem':Fairshare=60:GrpTRES=cpu=128
Parent - 'physics'
User - 'alice':DefaultAccount='physics':Fairshare=1:QOS='normal,high'
User - 'bob':Fairshare=parent
Parent - 'chem'
User - 'carol':Fairshare=3:MaxJobs=10
`

func TestReadDump(t *testing.T) {
	a, err := ReadDump(strings.NewReader(dump), "lab.cfg")
	if err != nil {
		t.Fatal(err)
	}
	if a.Cluster != "lab" || a.Options["QOS"] != "normal" {
		t.Fatalf("cluster %q %v", a.Cluster, a.Options)
	}
	if len(a.Accounts) != 3 || a.Accounts[1].Name != "physics" || a.Accounts[1].Parent != "root" || a.Accounts[1].Fairshare != 40 ||
		a.Accounts[1].Options["Description"] != "physics: theory" || a.Accounts[2].Options["GrpTRES"] != "cpu=128" {
		t.Fatalf("accounts %+v", a.Accounts)
	}
	if len(a.Users) != 4 {
		t.Fatalf("users %+v", a.Users)
	}
	alice, bob, carol := a.Users[1], a.Users[2], a.Users[3]
	if alice.Account != "physics" || alice.DefaultAccount != "physics" || !slices.Equal(alice.QOS, []string{"normal", "high"}) {
		t.Fatalf("alice %+v", alice)
	}
	if bob.Fairshare != -1 || bob.Account != "physics" || carol.Account != "chem" || carol.Fairshare != 3 || carol.Options["MaxJobs"] != "10" {
		t.Fatalf("bob %+v carol %+v", bob, carol)
	}
	for text, want := range map[string]string{
		"Parent - 'nowhere'\n":           "f:1: Parent: account nowhere is not defined before it",
		"Account - 'a'\nAccount - 'a'\n": "f:2: Account: account a is defined twice",
		"Account - 'a':Fairshare=lots\n": "f:1: Fairshare: \"lots\"",
		"Account - 'a:Fairshare=1\n":     "a quote is not closed",
		"Thing - 'a'\n":                  "not Cluster, Parent, Account or User",
		"User alice\n":                   "f:1: want",
	} {
		if _, err := ReadDump(strings.NewReader(text), "f"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
}

const qos = `Name|Priority|MaxJobsPU|MaxSubmitPU|MaxWall|MaxTRESPU|GrpTRES|Preempt|PreemptMode
normal|0|||||||cluster
high|100|4|10|1-00:00:00|cpu=64,gres/gpu=4|cpu=512|normal|requeue
`

func TestReadQOS(t *testing.T) {
	qs, err := ReadQOS(strings.NewReader(qos), "qos.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 2 {
		t.Fatalf("%d QOS", len(qs))
	}
	n, h := qs[0], qs[1]
	if n.Name != "normal" || n.Priority != 0 || n.MaxJobsPerUser != -1 || !math.IsInf(n.MaxWall, 1) || n.PreemptMode != "cluster" {
		t.Fatalf("normal %+v", n)
	}
	if h.Priority != 100 || h.MaxJobsPerUser != 4 || h.MaxSubmitJobs != 10 || h.MaxWall != 86400 ||
		!slices.Equal(h.MaxTRESPerUser, []Param{{"cpu", "64", false}, {"gres/gpu", "4", false}}) ||
		!slices.Equal(h.GrpTRES, []Param{{"cpu", "512", false}}) || !slices.Equal(h.Preempt, []string{"normal"}) || h.PreemptMode != "requeue" {
		t.Fatalf("high %+v", h)
	}
	for text, want := range map[string]string{
		"":                       "empty",
		"Priority\n1\n":          "no Name column",
		"Name|Priority\nx|-3\n":  "q:2: Priority: \"-3\"",
		"Name|MaxWall\nx|soon\n": "q:2: MaxWall:",
		"Name\n|\n":              "q:2: Name: empty",
	} {
		if _, err := ReadQOS(strings.NewReader(text), "q"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
}

// The QOS table as the slurm policy's options: high (number 1 in the
// trace) keeps MaxJobsPU 4, MaxSubmitPU 10, MaxTRESPU cpu=64, GrpTRES
// cpu=512, MaxTRESPU gres/gpu=4 and MaxWall one day, its Priority 100,
// and preempts normal (qos_preempt 1:0), its own PreemptMode noted; normal (0) has no limit and no priority; a QOS
// the trace does not name is left out, and said.
func TestQOSPolicy(t *testing.T) {
	qs, err := ReadQOS(strings.NewReader(qos+"debug|5|0||||||\n"), "qos.txt")
	if err != nil {
		t.Fatal(err)
	}
	num := map[string]int32{"normal": 0, "high": 1, "debug": 2}
	p := QOSPolicy(qs, func(s string) (int32, bool) { n, ok := num[s]; return n, ok })
	if got, want := p.Options["qos_limits"], "1:maxjobspu=4:maxsubmitpu=10:maxcpuspu=64:maxgpuspu=4:grpcpus=512:maxwall=86400"; got != want {
		t.Errorf("qos_limits %q, want %q", got, want)
	}
	if got, want := p.Options["qos_priority"], "1:100,2:5"; got != want {
		t.Errorf("qos_priority %q, want %q", got, want)
	}
	if got, want := p.Options["qos_preempt"], "1:0"; got != want {
		t.Errorf("qos_preempt %q, want %q", got, want)
	}
	notes := strings.Join(p.Notes, "\n")
	for _, s := range []string{
		"QOS high (line 3): PreemptMode requeue: a QOS's own mode is not modelled",
		"QOS debug (line 4): MaxJobsPU=0 (no job of the QOS could run): left out"} {
		if !strings.Contains(notes, s) {
			t.Errorf("notes lack %q:\n%s", s, notes)
		}
	}
	delete(num, "debug")
	p = QOSPolicy(qs, func(s string) (int32, bool) { n, ok := num[s]; return n, ok })
	if notes := strings.Join(p.Notes, "\n"); !strings.Contains(notes, "QOS debug: not among the trace's QOS") {
		t.Errorf("notes:\n%s", notes)
	}
	if got := p.Options["qos_priority"]; got != "1:100" {
		t.Errorf("qos_priority %q", got)
	}
}

// The TRES of MaxTRESPU and GrpTRES: cpu, mem (MB, or sacctmgr's units)
// and gres/gpu become qos_limits; node, billing, typed GPUs and a
// malformed size are left out, and said.
func TestQOSPolicyTRES(t *testing.T) {
	qs, err := ReadQOS(strings.NewReader("Name|MaxTRESPU|GrpTRES\n"+
		"a|mem=2G,gres/gpu=2,node=4|cpu=16,mem=1T,gres/gpu:a100=1,billing=9\nb|mem=1536K|mem=lots\n"), "qos.txt")
	if err != nil {
		t.Fatal(err)
	}
	p := QOSPolicy(qs, func(s string) (int32, bool) { return map[string]int32{"a": 1, "b": 2}[s], true })
	if got, want := p.Options["qos_limits"], "1:maxmempu=2048:maxgpuspu=2:grpcpus=16:grpmem=1048576,2:maxmempu=2"; got != want {
		t.Errorf("qos_limits %q, want %q", got, want)
	}
	notes := strings.Join(p.Notes, "\n")
	for _, s := range []string{"QOS a (line 2): MaxTRESPU node: only cpu, mem and gres/gpu are modelled: left out",
		"QOS a (line 2): GrpTRES gres/gpu:a100: only cpu, mem and gres/gpu are modelled: left out",
		"QOS a (line 2): GrpTRES billing: only cpu, mem and gres/gpu are modelled",
		"QOS b (line 3): GrpTRES mem=lots is not a size (MB, or with K, M, G, T, P): left out"} {
		if !strings.Contains(notes, s) {
			t.Errorf("notes lack %q:\n%s", s, notes)
		}
	}
}
