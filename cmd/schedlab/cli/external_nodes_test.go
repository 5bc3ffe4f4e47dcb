package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// extNodesTable is a job table of four jobs for 2 nodes of 4 cores and
// 2 GPUs (n1: cores 0-3, gpu units 0-1; n2: cores 4-7, gpu units 2-3):
//
//	1  t=0   2 tasks, a gpu per node, runs 100 s
//	2  t=0   1 task,  a gpu per node, runs 50 s
//	3  t=10  1 task,  a gpu per node, runs 30 s
//	4  t=20  2 tasks on exactly 2 nodes, no gpu, runs 10 s
const extNodesTable = "# schedlab job table v1\n" +
	"id\tsubmit\truntime\tprocs\treq_time\tnodes\ttasks\tgres_per_node\n" +
	"1\t0\t100\t2\t100\t0\t2\tgpu:1\n" +
	"2\t0\t50\t1\t50\t0\t1\tgpu:1\n" +
	"3\t10\t30\t1\t30\t0\t1\tgpu:1\n" +
	"4\t20\t10\t2\t10\t2\t2\t\n"

// extNodesScript is a decision process that logs every request to LOG
// and answers the k-th with the k-th line of REPLIES.
const extNodesScript = `n=0
while IFS= read -r line; do
  printf '%s\n' "$line" >> "$LOG"
  case "$line" in *SIMULATION_ENDS*) exit 0;; esac
  n=$((n+1))
  sed -n "${n}p" "$REPLIES"
done
`

// extNodes writes the table, the script and the replies into a new
// folder and returns the folder and the --command to run.
func extNodes(t *testing.T, replies ...string) (dir, command string) {
	dir = t.TempDir()
	for name, text := range map[string]string{"t.jobs": extNodesTable, "p.sh": extNodesScript, "replies": strings.Join(replies, "\n") + "\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, "LOG=" + filepath.Join(dir, "log") + " REPLIES=" + filepath.Join(dir, "replies") + " sh " + filepath.Join(dir, "p.sh")
}

var extNodesPlatform = []string{"--nodes", "n[1-2]:cores=4:gres=gpu=2"}

// An external decision process on nodes (docs/protocol.md, "On a
// platform of nodes"): three requests (t=0, 10, 20; no job waits later),
// each start worked out by hand.
//
//   - t=0, job 1 names n2 with its 2 tasks: the lowest free cores of n2,
//     4-5, and its lowest free gpu, unit 2.
//   - t=0, job 2 names nothing: the engine's rule, first fit: n1, core
//     0, gpu 0.
//   - t=10, job 3 names n2 and a count of 1 gpu: core 6, gpu 3 (unit 2
//     is job 1's).
//   - t=20, job 4 names n1 with its core 3 and n2 with the lowest free:
//     cores 3 and 7, nodes n[1-2], no gres.
func TestExternalOnNodes(t *testing.T) {
	dir, cmd := extNodes(t,
		`{"now":0,"events":[{"type":"EXECUTE_JOB","data":{"job_id":1,"nodes":[{"node":"n2","tasks":2}]}},{"type":"EXECUTE_JOB","data":{"job_id":2}}]}`,
		`{"events":[{"type":"EXECUTE_JOB","data":{"job_id":3,"nodes":[{"node":"n2","gres":{"gpu":1}}]}}]}`,
		`{"events":[{"type":"EXECUTE_JOB","data":{"job_id":4,"nodes":[{"node":"n1","tasks":1,"cores":"3"},{"node":"n2","tasks":1}]}}]}`)
	out := filepath.Join(dir, "out")
	args := append([]string{"run", "--trace", filepath.Join(dir, "t.jobs"), "--policy", "external", "--command", cmd, "--check", "--out", out}, extNodesPlatform...)
	stdout, stderr := run(t, 0, args...)
	if !strings.Contains(stdout, "check: schedule valid") {
		t.Errorf("no check line: %s\n%s", stdout, stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, "jobs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	col := map[string]int{}
	for i, h := range strings.Split(lines[0], ",") {
		col[h] = i
	}
	got := map[string]string{}
	for _, l := range lines[1:] {
		l = strings.ReplaceAll(l, `"n[1-2]"`, "n[1-2]") // no comma inside: never quoted
		f := strings.Split(l, ",")
		got[f[col["job_id"]]] = strings.Join([]string{f[col["starting_time"]], f[col["allocated_resources"]], f[col["allocated_nodes"]], f[col["allocated_gres"]]}, ",")
	}
	want := map[string]string{
		"1": "0,4-5,n2,gpu=2",
		"2": "0,0,n1,gpu=0",
		"3": "10,6,n2,gpu=3",
		"4": "20,3 7,n[1-2],",
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("job %s: %q, want %q", id, got[id], w)
		}
	}
	log, err := os.ReadFile(filepath.Join(dir, "log"))
	if err != nil {
		t.Fatal(err)
	}
	reqs := strings.Split(strings.TrimSpace(string(log)), "\n")
	if len(reqs) != 4 {
		t.Fatalf("%d messages, want 3 requests and the end:\n%s", len(reqs), log)
	}
	for k, w := range map[int][]string{
		// the platform, the flag, each job's request; before any start
		// every node is free: no node in the view (view full, the
		// default: the queue and the running jobs follow)
		0: {`"protocol":"schedlab-external/1+nodes","platform":"nodes","nb_resources":8`,
			`"node_groups":[{"first_node":0,"names":["n1","n2"],"first_core":0,"cores":4,"sockets":1,"threads":1,"mem":0,"gres":{"gpu":{"count":2,"first_unit":0}},"features":[],"weight":1}]`,
			`"job":{"id":1,"subtime":0,"res":2,"walltime":100,"user":-1,"group":-1,"req":{"tasks":2,"cpus_per_task":1,"gres_per_node":{"gpu":1}}}`,
			`"view":{"free":[8],"nodes":[],"queue":[`},
		// jobs 1 and 2 hold n2's cores 4-5 and gpu 2, n1's core 0 and gpu 0
		1: {`"view":{"free":[5],"nodes":[{"id":0,"cores":3,"mem":0,"jobs":1,"whole":false,"gres":{"gpu":1}},{"id":1,"cores":2,"mem":0,"jobs":1,"whole":false,"gres":{"gpu":1}}],"queue":[`,
			`"running":[{"id":1,"res":2,"machine":0,"starting_time":0,"estimated_finish_time":100,"nodes":[1]},{"id":2,"res":1,"machine":0,"starting_time":0,"estimated_finish_time":50,"nodes":[0]}]`},
		// job 3 took a core and the last gpu of n2: only n2 changed
		2: {`"req":{"tasks":2,"cpus_per_task":1,"nodes":2}`,
			`"view":{"free":[4],"nodes":[{"id":1,"cores":1,"mem":0,"jobs":2,"whole":false,"gres":{"gpu":0}}],"queue":[`},
		3: {`"SIMULATION_ENDS"`},
	} {
		for _, s := range w {
			if !strings.Contains(reqs[k], s) {
				t.Errorf("message %d lacks %s:\n%s", k+1, s, reqs[k])
			}
		}
	}
}

// Bad starts on nodes: the model's errors (naming the policy, the time,
// the job, the node and the resource), or the protocol's.
func TestExternalOnNodesErrors(t *testing.T) {
	first := `{"events":[{"type":"EXECUTE_JOB","data":{"job_id":1,"nodes":["n2"]}},{"type":"EXECUTE_JOB","data":{"job_id":2}}]}`
	for _, c := range []struct{ second, want string }{
		// gpu unit 2 is job 1's
		{`{"events":[{"type":"EXECUTE_JOB","data":{"job_id":3,"nodes":[{"node":"n2","gres":{"gpu":"2"}}]}}]}`,
			"policy external at t=10: start job 3: node n2: gres gpu unit 2 is busy"},
		// n1 has core 0 busy (job 2) and a free gpu: 2 cores named for 1 task
		{`{"events":[{"type":"EXECUTE_JOB","data":{"job_id":3,"nodes":[{"node":"n1","cores":"1-2"}]}}]}`,
			"policy external at t=10: start job 3: the allocation does not satisfy the request ntasks=1 gres=gpu:1: node n1: 2 core(s) for 1 task(s)"},
		// 2 gpus asked on n2, one free: the lowest busy one makes up the count
		{`{"events":[{"type":"EXECUTE_JOB","data":{"job_id":3,"nodes":[{"node":"n2","gres":{"gpu":2}}]}}]}`,
			"policy external at t=10: start job 3: node n2: gres gpu unit 2 is busy"},
		{`{"events":[{"type":"EXECUTE_JOB","data":{"job_id":3,"nodes":["n9"]}}]}`,
			`policy external at t=10: reply event 1 (EXECUTE_JOB): job 3: node "n9": no such node`},
		{`{"events":[{"type":"EXECUTE_JOB","data":{"job_id":3,"alloc":"6"}}]}`,
			`policy external at t=10: reply event 1 (EXECUTE_JOB): job 3: on a platform of nodes a start names its nodes (field "nodes"), not "alloc" or "machine"`},
		{`{"events":[{"type":"EXECUTE_JOB","data":{"job_id":3,"nodes":[{"node":"n1","gres":{"nvme":1}}]}}]}`,
			`policy external at t=10: reply event 1 (EXECUTE_JOB): job 3: node n1: gres "nvme": the platform has no such kind`},
	} {
		dir, cmd := extNodes(t, first, c.second)
		args := append([]string{"run", "--trace", filepath.Join(dir, "t.jobs"), "--policy", "external", "--command", cmd, "--out", filepath.Join(dir, "out")}, extNodesPlatform...)
		_, stderr := run(t, 1, args...)
		if !strings.Contains(stderr, c.want) {
			t.Errorf("reply %s:\n got %s\nwant %s", c.second, stderr, c.want)
		}
		if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
			t.Errorf("reply %s: an output folder was written", c.second)
		}
	}
}

// The exchange on nodes of docs/protocol.md, byte for byte: its replies
// (lines "N< ") played by the script give its requests (lines "N> ").
func TestExternalOnNodesDocExchange(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "protocol.md"))
	if err != nil {
		t.Fatal(err)
	}
	var requests, replies []string
	for _, l := range strings.Split(string(doc), "\n") {
		if r, ok := strings.CutPrefix(l, "N> "); ok {
			requests = append(requests, r)
		} else if r, ok := strings.CutPrefix(l, "N< "); ok {
			replies = append(replies, r)
		}
	}
	if len(requests) != 4 || len(replies) != 3 {
		t.Fatalf("docs/protocol.md: %d requests and %d replies in the exchange on nodes, want 4 and 3", len(requests), len(replies))
	}
	dir, cmd := extNodes(t, replies...)
	args := append([]string{"run", "--trace", filepath.Join(dir, "t.jobs"), "--policy", "external", "--command", cmd, "--set", "view=free", "--no-out"}, extNodesPlatform...)
	run(t, 0, args...)
	log, err := os.ReadFile(filepath.Join(dir, "log"))
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Join(requests, "\n") + "\n"; !bytes.Equal(log, []byte(want)) {
		t.Errorf("the requests:\n%s\nthe documented ones:\n%s", log, want)
	}
}
