package main

// mutation replaces Old (which must occur exactly once) by New in File.
type mutation struct {
	Name     string
	File     string // from the repository root
	Old, New string
	What     string // the bug it plants, for people
}

// mutations are plausible bugs in the core logic, each a one-line change.
var mutations = []mutation{
	{
		Name: "easy-shadow-time",
		File: "policy/backfill/easyfast.go",
		Old:  "t < r.s && r.s < end && r.fAt",
		New:  "t < r.s && r.s <= end && r.fAt",
		What: "EASY: a job ending exactly at the shadow time counts as overlapping the head's reservation",
	},
	{
		Name: "easy-extra-procs",
		File: "policy/backfill/easyfast.go",
		Old:  "r.fAt-z.reserved(r.s) < procs",
		New:  "r.fAt < procs",
		What: "EASY: the extra processors forget the head's own processors at the shadow time",
	},
	{
		Name: "conservative-profile-move",
		File: "freeprofile/profile.go",
		Old:  "p.add(s1, s0, -procs)",
		New:  "p.add(s1, e1, -procs)",
		What: "profile: moving a reservation earlier takes the whole new span, counting the overlap twice",
	},
	{
		Name: "jrb-rank-formula",
		File: "policy/rank/rank.go",
		Old:  "return r.Const + r.CPU*cpu + r.Mem*mb + r.Speed*speed",
		New:  "return r.Const + r.CPU*cpu + r.Mem*memKB + r.Speed*speed",
		What: "JRB: the original and linear ranks read memory in KB instead of MB",
	},
	{
		Name: "matrix-window",
		File: "policy/matrix/matrix.go",
		Old:  "if mx <= n {",
		New:  "if mx <= n+1 {",
		What: "matrix: a window stops growing when its largest job has one thread more than n",
	},
	{
		Name: "matrix-start-reason",
		File: "policy/matrix/matrix.go",
		Old:  "backfilled: m.pm[p] > r+1",
		New:  "backfilled: m.pm[p] > r",
		What: "matrix: a thread counts as backfilled when an earlier job of its window has exactly as many rows left",
	},
	{
		Name: "egedf-gap",
		File: "policy/plan/schedule.go",
		Old:  "\t\tif e > horizon {",
		New:  "\t\tif s > horizon {",
		What: "EG-EDF: a gap only has to start, not end, by the machine's makespan",
	},
	{
		Name: "egedf-weight",
		File: "policy/plan/schedule.go",
		Old:  "float64(ndNew-ndOld)/float64(max(ndOld, 1))",
		New:  "float64(ndNew-ndOld)/float64(max(ndNew, 1))",
		What: "EG-EDF/tabu: the weight divides the nondelayed gain by the new count instead of the old",
	},
	{
		Name: "ci-degrees-of-freedom",
		File: "stats/ci.go",
		Old:  "StudentTQuantile((1+level)/2, n-1)",
		New:  "StudentTQuantile((1+level)/2, n)",
		What: "statistics: the confidence interval uses n degrees of freedom instead of n-1",
	},
	{
		Name: "gang-split-order",
		File: "policy/gang/gang.go",
		Old:  "return b.n - a.n",
		New:  "return a.n - b.n",
		What: "gangs, approach 2: a split gang fills the site with the fewest idle processors first",
	},
	{
		Name: "fcfs-fit",
		File: "policy/backfill/fcfs.go",
		Old:  "f.w.q[n].Procs <= free",
		New:  "f.w.q[n].Procs < free",
		What: "FCFS (one machine): the head waits when it needs exactly the free processors",
	},
	{
		Name: "easy-reservation-window",
		File: "policy/backfill/easyfast.go",
		Old:  "r.s < end && r.fAt-z.reserved(r.s) < procs",
		New:  "r.e < end && r.fAt-z.reserved(r.s) < procs",
		What: "EASY: a backfill candidate is checked against a reservation only when the reservation also ends inside the candidate's run (so a long candidate may take the head's processors)",
	},
	{
		Name: "fcfs-free-count",
		File: "policy/backfill/fcfs.go",
		Old:  "free -= e.Procs",
		New:  "free = v.Free(0) - e.Procs",
		What: "FCFS (one machine): after a start the free count is read again from the view, which does not count the pass's own starts",
	},
	{
		Name: "conservative-start-alloc",
		File: "policy/backfill/planner.go",
		Old:  "p.profs[m].Alloc(now, end, e.Procs)",
		New:  "p.profs[m].Alloc(now, end, e.Procs-1)",
		What: "conservative (and depth K): a job that starts takes one processor less than it asks for in the profile",
	},
}
