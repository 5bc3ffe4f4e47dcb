package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"time"
)

// fakePolicy is a decision process for the external policy's tests
// (testscript command fakepolicy MODE). It speaks the protocol of
// docs/protocol.md on its standard input and output:
//
//	fcfs     strict FCFS from the events alone; with view=full it also
//	         checks, at every request, that the view's queue, running
//	         jobs and free CPUs agree with what the events imply
//	toomany  starts every waiting job at once (one does not fit)
//	unknown  starts job 999999 at the first request
//	twice    starts the first job at the first request and again later
//	badjson  replies with a line cut short
//	exit     exits with status 3 at the second request
//	hang     stops replying at the second request
//	garbage  writes a line of text at the second request
//	reject   rejects the first job (not supported yet)
//	idle     starts nothing (a trivial policy, for timing)
//	later    strict FCFS at multiples of 1000 s only, asking to be
//	         called at the next one (CALL_ME_LATER) in between
//	early    asks to be called at the current time (an error)
//	firstfit each waiting job in queue order on the first machine with
//	         enough free CPUs (needs view=full: the hetero model)
//
// It exits 0 at SIMULATION_ENDS or at the end of its input.
func fakePolicy(args []string) int {
	if len(args) != 1 {
		fmt.Fprintln(os.Stderr, "usage: fakepolicy MODE")
		return 2
	}
	mode := args[0]
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	type fjob struct {
		ID      int64   `json:"id"`
		Subtime float64 `json:"subtime"`
		Res     int     `json:"res"`
	}
	type frun struct {
		ID  int64 `json:"id"`
		Res int   `json:"res"`
	}
	var msg struct {
		Now    float64 `json:"now"`
		Events []struct {
			Type string `json:"type"`
			Data struct {
				JobID     int64  `json:"job_id"`
				Job       fjob   `json:"job"`
				View      string `json:"view"`
				Resources int    `json:"nb_resources"`
			} `json:"data"`
		} `json:"events"`
		View struct {
			Free    []int  `json:"free"`
			Queue   []fjob `json:"queue"`
			Running []frun `json:"running"`
		} `json:"view"`
	}
	var queue []fjob
	running := map[int64]int{}
	free, full, n := 0, false, 0
	var first int64 = -1
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return 0
		}
		msg.Events, msg.View.Queue, msg.View.Running = nil, nil, nil
		if err := json.Unmarshal(line, &msg); err != nil {
			fmt.Fprintln(os.Stderr, "fakepolicy:", err)
			return 1
		}
		n++
		for _, e := range msg.Events {
			switch e.Type {
			case "SIMULATION_BEGINS":
				free, full = e.Data.Resources, e.Data.View == "full"
			case "SIMULATION_ENDS":
				return 0
			case "JOB_SUBMITTED":
				queue = append(queue, e.Data.Job)
				if first < 0 {
					first = e.Data.Job.ID
				}
			case "JOB_COMPLETED":
				free += running[e.Data.JobID]
				delete(running, e.Data.JobID)
			}
		}
		if full && mode == "fcfs" {
			ids := func(js []fjob) (out []int64) {
				for _, j := range js {
					out = append(out, j.ID)
				}
				return out
			}
			var runs []int64
			for id := range running {
				runs = append(runs, id)
			}
			slices.Sort(runs)
			var vruns []int64
			for _, r := range msg.View.Running {
				vruns = append(vruns, r.ID)
			}
			if !slices.Equal(ids(queue), ids(msg.View.Queue)) || !slices.Equal(runs, vruns) || msg.View.Free[0] != free {
				fmt.Fprintf(os.Stderr, "fakepolicy: at t=%g the view (queue %v, running %v, free %d) is not what the events say (%v, %v, %d)\n",
					msg.Now, ids(msg.View.Queue), vruns, msg.View.Free[0], ids(queue), runs, free)
				return 1
			}
		}
		var starts []string
		start := func(id int64, extra string) {
			starts = append(starts, fmt.Sprintf(`{"timestamp":%g,"type":"EXECUTE_JOB","data":{"job_id":%d%s}}`, msg.Now, id, extra))
		}
		// startFCFS starts the queue's head while it fits.
		startFCFS := func() {
			k := 0
			for k < len(queue) && queue[k].Res <= free {
				free -= queue[k].Res
				running[queue[k].ID] = queue[k].Res
				start(queue[k].ID, "")
				k++
			}
			queue = queue[k:]
		}
		switch mode {
		case "fcfs":
			startFCFS()
		case "toomany":
			for _, j := range queue {
				start(j.ID, "")
			}
			queue = nil
		case "unknown":
			start(999999, "")
		case "twice":
			if n == 1 || n == 2 {
				start(first, "")
			}
		case "badjson":
			fmt.Fprintf(out, "{\"now\":%g,\"events\":[{\"type\":\"EXECUTE_JOB\"\n", msg.Now)
			out.Flush()
			continue
		case "exit":
			if n == 2 {
				fmt.Fprintln(os.Stderr, "fakepolicy: giving up")
				return 3
			}
		case "hang":
			if n == 2 {
				time.Sleep(time.Hour)
			}
		case "garbage":
			if n == 2 {
				fmt.Fprintln(out, "debug: the queue has", len(queue), "jobs")
				out.Flush()
				continue
			}
		case "reject":
			// FCFS that rejects the jobs of more than 2 CPUs on arrival
			kept := queue[:0]
			for _, j := range queue {
				if j.Res > 2 {
					starts = append(starts, fmt.Sprintf(`{"timestamp":%g,"type":"REJECT_JOB","data":{"job_id":%d}}`, msg.Now, j.ID))
				} else {
					kept = append(kept, j)
				}
			}
			queue = kept
			startFCFS()
		case "rejectstarted":
			startFCFS()
			if n == 2 {
				starts = append(starts, fmt.Sprintf(`{"type":"REJECT_JOB","data":{"job_id":%d}}`, first))
			}
		case "later", "early":
			if mode == "early" {
				starts = append(starts, fmt.Sprintf(`{"type":"CALL_ME_LATER","data":{"timestamp":%g}}`, msg.Now))
				break
			}
			if math.Mod(msg.Now, 1000) != 0 {
				starts = append(starts, fmt.Sprintf(`{"type":"CALL_ME_LATER","data":{"timestamp":%g}}`, (math.Floor(msg.Now/1000)+1)*1000))
				break
			}
			startFCFS()
		case "firstfit":
			fr := append([]int(nil), msg.View.Free...)
			for _, j := range msg.View.Queue {
				for m := range fr {
					if j.Res <= fr[m] {
						fr[m] -= j.Res
						start(j.ID, fmt.Sprintf(`,"machine":%d`, m))
						break
					}
				}
			}
		case "idle":
		default:
			fmt.Fprintln(os.Stderr, "fakepolicy: unknown mode", mode)
			return 2
		}
		fmt.Fprintf(out, `{"now":%g,"events":[`, msg.Now)
		for k, s := range starts {
			if k > 0 {
				out.WriteByte(',')
			}
			out.WriteString(s)
		}
		out.WriteString("]}\n")
		out.Flush()
	}
}
