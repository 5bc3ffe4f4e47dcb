package htmlreport

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
)

// Window restricts a run or comparison page to the jobs submitted in
// [From, To) (Options.Window): `schedlab report --from WHEN --to WHEN`.
// The page then shows those jobs only, and recomputes from their rows of
// jobs.csv what it shows of them: the headline (mean wait, mean
// response, mean bounded slowdown, longest wait, utilization, first
// submission to last end, by the simulator's formulas), the Gantt
// charts, the utilization and queue over time, the distributions and a
// comparison's per-job differences. The summary table (summary.json)
// stays the whole run's. Jobs submitted before the window that were
// still waiting or running in it are not counted nor drawn: the window
// selects jobs, as `schedlab run --from --to` does, but their schedule
// is the whole run's (they started on a machine that earlier jobs
// occupied).
type Window struct {
	From, To float64 // seconds of the trace, as jobs.csv's submission_time; ±Inf: no bound
	Text     string  // how the page names it, e.g. "from 1996-10-01 00:00:00 CET to the end"
}

// within keeps the jobs of j submitted in [from, to), in file order.
func (j *runJobs) within(from, to float64) *runJobs {
	out := &runJobs{header: j.header, maxCPU: j.maxCPU, text: map[string][]string{}, textCols: j.textCols, ivOff: []int32{0}}
	for i := range j.id {
		if !(j.submit[i] >= from && j.submit[i] < to) {
			continue
		}
		out.id = append(out.id, j.id[i])
		out.submit = append(out.submit, j.submit[i])
		out.procs = append(out.procs, j.procs[i])
		out.req = append(out.req, j.req[i])
		out.start = append(out.start, j.start[i])
		out.finish = append(out.finish, j.finish[i])
		out.ivLo = append(out.ivLo, j.ivLo[j.ivOff[i]:j.ivOff[i+1]]...)
		out.ivHi = append(out.ivHi, j.ivHi[j.ivOff[i]:j.ivOff[i+1]]...)
		out.ivOff = append(out.ivOff, int32(len(out.ivLo)))
		for _, c := range j.textCols {
			out.text[c] = append(out.text[c], j.text[c][i])
		}
	}
	return out
}

// restrict applies w to a run read from dir: its jobs become the
// window's, and the numbers of the headline are recomputed from them.
// A window without a job is an error.
func (p *runPage) restrict(w *Window, dir string) error {
	all := len(p.jobs.id)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, t := range p.jobs.submit {
		lo, hi = math.Min(lo, t), math.Max(hi, t)
	}
	p.jobs = p.jobs.within(w.From, w.To)
	j := p.jobs
	if len(j.id) == 0 {
		return fmt.Errorf("%s: no job was submitted %s (%d jobs in the run, submitted from %s s to %s s)",
			filepath.Join(dir, "jobs.csv"), w.Text, all, fmtSec(lo), fmtSec(hi))
	}
	p.window, p.windowAll = w, all
	p.nums = windowNums(p.nums, j, p.tau, p.procs)
	return nil
}

// windowNums is nums with the headline's numbers recomputed over the
// jobs of j as metrics.Summary computes them: wait = start - submission,
// response = finish - submission, bounded slowdown max(1, response /
// max(finish - start, tau)) (left out when that divisor is 0),
// utilization = the sum of CPUs x (finish - start) / (procs x (last
// finish - first submission)).
func windowNums(nums map[string]float64, j *runJobs, tau float64, procs int) map[string]float64 {
	out := map[string]float64{}
	for k, v := range nums {
		out[k] = v
	}
	var sumW, sumR, sumB, maxW, work float64
	nb := 0
	first, last := math.Inf(1), math.Inf(-1)
	for i := range j.id {
		w, r, ex := j.start[i]-j.submit[i], j.finish[i]-j.submit[i], j.finish[i]-j.start[i]
		sumW += w
		sumR += r
		maxW = math.Max(maxW, w)
		if d := math.Max(ex, tau); d > 0 {
			sumB += math.Max(1, r/d)
			nb++
		}
		work += j.procs[i] * ex
		first, last = math.Min(first, j.submit[i]), math.Max(last, j.finish[i])
	}
	n := float64(len(j.id))
	out["jobs"] = n
	out["mean_wait"], out["mean_response"], out["max_wait"] = sumW/n, sumR/n, maxW
	delete(out, "mean_bounded_slowdown")
	if nb > 0 {
		out["mean_bounded_slowdown"] = sumB / float64(nb)
	}
	out["first_submit"], out["makespan"] = first, last
	delete(out, "utilization")
	if span := last - first; span > 0 && procs > 0 {
		out["utilization"] = work / (float64(procs) * span)
	}
	return out
}

// fmtSec writes seconds as an integer when whole.
func fmtSec(s float64) string { return strconv.FormatFloat(s, 'f', -1, 64) }

// WindowNote is the page's sentence on its window ("" without one).
func (p *runPage) WindowNote() string {
	if p.window == nil {
		return ""
	}
	return fmt.Sprintf("Window: the jobs submitted %s, %s of the run's %s jobs. The headline, the charts and the distributions are of these jobs only, "+
		"recomputed from jobs.csv; jobs submitted before the window that were still waiting or running in it are not counted nor drawn. "+
		"The summary table is the whole run's (summary.json).", p.window.Text, thousands(int64(len(p.jobs.id))), thousands(int64(p.windowAll)))
}
