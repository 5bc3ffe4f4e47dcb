package testref

// FirstFit is greedy first-fit without reservations (hafshejani-2012's
// "backfilling"): "at each instant, walk the queue from the head; every job
// whose processors are at most the actual free processors starts now; a
// job that does not fit is passed over and stays in the queue." A job
// started while one ahead of it (in queue order) still waits is
// "backfilled"; otherwise "immediate" at its submit time, else "reserved".
func FirstFit(jobs []Job, procs int) (starts []float64, reasons []string) {
	s := simulate(jobs, procs, func(s *sim) {
		// Collect first, then start: starting changes s.waiting.
		var run []int
		var why []string
		free := s.free()
		passed := false
		for _, j := range s.waiting {
			if s.jobs[j].Procs <= free {
				free -= s.jobs[j].Procs
				run = append(run, j)
				if passed {
					why = append(why, Backfilled)
				} else {
					why = append(why, s.headReason(j))
				}
			} else {
				passed = true
			}
		}
		for k, j := range run {
			s.start(j, why[k])
		}
	})
	return s.starts, s.reasons
}
