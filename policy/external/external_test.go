package external

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
)

// TestMain doubles as a scripted decision process: with
// SCHEDLAB_EXTERNAL_HELPER set it logs every request to the file
// SCHEDLAB_EXTERNAL_LOG and answers with the lines of the file
// SCHEDLAB_EXTERNAL_REPLIES, one per request.
func TestMain(m *testing.M) {
	switch os.Getenv("SCHEDLAB_EXTERNAL_HELPER") {
	case "":
	case "idle":
		os.Exit(idle())
	case "nodesff":
		os.Exit(nodesFF(os.Getenv("SCHEDLAB_NODES_MODE")))
	default:
		os.Exit(scripted())
	}
	os.Exit(m.Run())
}

func scripted() int {
	b, err := os.ReadFile(os.Getenv("SCHEDLAB_EXTERNAL_REPLIES"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	replies := strings.Split(strings.TrimSpace(string(b)), "\n")
	log, err := os.Create(os.Getenv("SCHEDLAB_EXTERNAL_LOG"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer log.Close()
	in := bufio.NewReader(os.Stdin)
	for {
		line, err := in.ReadString('\n')
		if err != nil {
			return 0
		}
		log.WriteString(line)
		if strings.Contains(line, "SIMULATION_ENDS") {
			return 0
		}
		if len(replies) == 0 {
			return 4
		}
		fmt.Println(replies[0])
		replies = replies[1:]
	}
}

type free []int

func (f free) Platform() platform.Platform { return platform.MustCluster(4) }
func (f free) Free(m int) int              { return f[m] }

// The worked exchange of docs/protocol.md, byte for byte: the requests
// this package writes for the calls a strict FCFS run of its tiny.swf
// makes, and the starts it reads from the replies shown there.
func TestExchange(t *testing.T) {
	doc, err := os.ReadFile("../../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	var requests, replies []string
	for _, l := range strings.Split(string(doc), "\n") {
		if r, ok := strings.CutPrefix(l, "> {"); ok {
			requests = append(requests, "{"+r)
		} else if r, ok := strings.CutPrefix(l, "< {"); ok {
			replies = append(replies, "{"+r)
		}
	}
	if len(requests) != 6 || len(replies) != 5 {
		t.Fatalf("docs/protocol.md: %d requests and %d replies in the worked exchange, want 6 and 5", len(requests), len(replies))
	}
	dir := t.TempDir()
	rf, logf := dir+"/replies", dir+"/log"
	if err := os.WriteFile(rf, []byte(strings.Join(replies, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := fmt.Sprintf("SCHEDLAB_EXTERNAL_HELPER=1 SCHEDLAB_EXTERNAL_REPLIES='%s' SCHEDLAB_EXTERNAL_LOG='%s' exec '%s'", rf, logf, exe)
	p := New(platform.MustCluster(4), Options{Command: cmd, Timeout: 10 * time.Second, Full: true})
	threeJobs(t, p)
	log, err := os.ReadFile(logf)
	if err != nil {
		t.Fatal(err)
	}
	sent := strings.Split(strings.TrimSpace(string(log)), "\n")
	if !slices.Equal(sent, requests) {
		for k := range max(len(sent), len(requests)) {
			var a, b string
			if k < len(sent) {
				a = sent[k]
			}
			if k < len(requests) {
				b = requests[k]
			}
			if a != b {
				t.Errorf("request %d:\n sent %s\n doc  %s", k+1, a, b)
			}
		}
	}
}

func TestParseAlloc(t *testing.T) {
	for _, c := range []struct {
		in, want, err string
	}{
		{"0-3 8", "0-3 8", ""},
		{"5", "5", ""},
		{" 0 1 2 ", "0-2", ""},
		{"3-1", "", `"3-1" is not a run a-b with a <= b`},
		{"2 1", "", `"1": runs must be ascending and disjoint`},
		{"a", "", `"a" is not a CPU id or a run a-b`},
		{"-1", "", `"-1" is not a CPU id or a run a-b`},
		{"", "", "no CPU named"},
	} {
		r, err := parseAlloc(c.in)
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("parseAlloc(%q): %v, want error %q", c.in, err, c.err)
		case c.err == "" && (err != nil || r.String() != c.want):
			t.Errorf("parseAlloc(%q) = %v, %v, want %s", c.in, r, err, c.want)
		}
	}
}

// idle decodes every request and starts nothing (BenchmarkExchange).
func idle() int {
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	out := bufio.NewWriter(os.Stdout)
	var msg struct {
		Events []struct {
			Type string `json:"type"`
		} `json:"events"`
	}
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return 0
		}
		msg.Events = nil
		if err := json.Unmarshal(line, &msg); err != nil {
			return 1
		}
		if len(msg.Events) > 0 && msg.Events[0].Type == "SIMULATION_ENDS" {
			return 0
		}
		out.WriteString(`{"events":[]}` + "\n")
		out.Flush()
	}
}

// BenchmarkExchange is the protocol's cost per scheduling instant: one
// request (a job submitted, one completed, the free CPUs; view=free) and
// one empty reply, with a trivial decision process in Go and in Python
// (testdata/idle.py; skipped without python3). docs/performance.md has
// the figures.
func BenchmarkExchange(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	cmds := []struct{ name, cmd string }{{"go", "SCHEDLAB_EXTERNAL_HELPER=idle exec '" + exe + "'"}}
	if py, err := exec.LookPath("python3"); err == nil {
		cmds = append(cmds, struct{ name, cmd string }{"python", "exec '" + py + "' testdata/idle.py"})
	}
	for _, c := range cmds {
		b.Run(c.name, func(b *testing.B) {
			p := New(platform.MustCluster(128), Options{Command: c.cmd, Timeout: 10 * time.Second})
			var plan policy.Plan
			f := free{64}
			p.Submit(0, job.Info{ID: 0, Procs: 4, Estimate: 100})
			p.Schedule(0, f, &plan) // start-up
			if err := p.Err(); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 1; i <= b.N; i++ {
				now := float64(i)
				p.Finish(now, job.ID(i-1))
				p.Submit(now, job.Info{ID: job.ID(i), Submit: now, Procs: 4, Estimate: 3600, User: 7})
				plan.Reset()
				p.Schedule(now, f, &plan)
			}
			b.StopTimer()
			if err := p.Err(); err != nil {
				b.Fatal(err)
			}
			if err := p.Close(); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// threeJobs drives p through the three jobs of the tests on 4 CPUs (job
// 1, 2 CPUs at 0; job 2, 4 CPUs at 1; job 3, 1 CPU at 2; ends at 10, 15,
// 18) with a decision process that starts job 1 at once, job 2 at 10 on
// CPUs 0-3 and job 3 at 15 (asking for a call at 100); it checks the
// starts, that nothing is asked to wake with an empty queue, that the
// last instant (empty queue) is skipped, and closes p.
func threeJobs(t *testing.T, p *Client) {
	t.Helper()
	var plan policy.Plan
	var got []string
	pass := func(now float64, f int) {
		plan.Reset()
		p.Schedule(now, free{f}, &plan)
		if err := p.Err(); err != nil {
			t.Fatal(err)
		}
		for _, s := range plan.Starts {
			got = append(got, fmt.Sprintf("t=%g job %d m%d cpus %v %s", now, s.ID, s.Machine, s.CPUs, s.Reason))
		}
	}
	jobs := []job.Info{
		{ID: 1, Submit: 0, Procs: 2, Estimate: 10, User: 1, Group: 1},
		{ID: 2, Submit: 1, Procs: 4, Estimate: 5, User: 1, Group: 1},
		{ID: 3, Submit: 2, Procs: 1, Estimate: 3, User: 1, Group: 1},
	}
	p.Submit(0, jobs[0])
	pass(0, 4)
	p.Submit(1, jobs[1])
	pass(1, 2)
	p.Submit(2, jobs[2])
	pass(2, 2)
	p.Finish(10, 1)
	pass(10, 4)
	p.Finish(15, 2)
	pass(15, 4)
	if plan.Wake != 0 {
		t.Errorf("wake %g with an empty queue, want 0 (none)", plan.Wake)
	}
	p.Finish(18, 3)
	pass(18, 4) // the queue is empty: no request
	if p.Skipped() != 1 {
		t.Errorf("%d instants skipped, want 1 (t=18)", p.Skipped())
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	want := []string{"t=0 job 1 m0 cpus  immediate", "t=10 job 2 m0 cpus 0-3 reserved", "t=15 job 3 m0 cpus  reserved"}
	if !slices.Equal(got, want) {
		t.Errorf("starts:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
