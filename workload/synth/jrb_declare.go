package synth

import (
	"fmt"
	"io"

	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/policy/option"
	"github.com/schedlab/schedlab/workload/model"
)

// DeclareJRB is the declaration of the JRB workload for scenario files
// (workload.model: jrb, package workload/model): JRBJobs under
// JRBDefaults with stop.completed jobs (at most MaxJRBJobs), the arrival
// reading and the CPU-speed requirement as options. With a speed
// requirement the cluster is one machine of that speed (model.Built's
// Speed), so that every job fits it, as JRBPlatform has it.
func DeclareJRB() model.Decl {
	return model.Decl{
		Name:    "jrb",
		Summary: "al-najjar-2019's workload, reconstructed from its regression tables (CPUs 1..128, memory per CPU, lognormal runtimes; estimates exact)",
		Options: []option.Decl{
			{Name: "arrival", Key: "workload.arrival", Type: option.Enum, Values: Arrivals(), Default: Arrivals()[0], KeyName: "arrival",
				Doc: "the reading of the arrival model: each creation time a Poisson(10,000 s) draw (poisson-time) or uniform on 0..400,000 s (uniform-time); a Poisson process of mean gap 10 s (poisson-process) or gaps uniform on 0..80 s (uniform-gaps)"},
			{Name: "speed_max", Key: "workload.speed_max", Type: option.Float, Range: option.Between(0, 1e12), Default: "0", KeyName: "speed",
				Doc: "each job's CPU-speed requirement uniform on [0, speed_max] (0: none), on a machine of that speed"},
		},
		New: buildJRB,
	}
}

func buildJRB(env model.Env, v option.Values) (model.Built, error) {
	if env.Jobs < 1 || env.Jobs > MaxJRBJobs {
		return model.Built{}, fmt.Errorf("workload.model jrb: stop.completed %d: want 1..%d jobs (synth.MaxJRBJobs)", env.Jobs, MaxJRBJobs)
	}
	a, err := ParseArrival(v.Text("arrival"))
	if err != nil {
		return model.Built{}, err
	}
	o := JRBDefaults(int(env.Jobs), a)
	o.SpeedMax = v.Float("speed_max")
	jobs, err := JRBJobs(env.Seed, env.Rep, o)
	if err != nil {
		return model.Built{}, err
	}
	return model.Built{Source: &jobSlice{jobs: jobs}, Load: JRBLoad(jobs, env.Procs), Speed: o.SpeedMax}, nil
}

// JRBLoad is the offered load of jobs on procs CPUs: their work (CPUs x
// runtime) over procs x the time from the first to the last submission
// (at least 1 s).
func JRBLoad(jobs []actual.Job, procs int) float64 {
	var work, span float64
	for i := range jobs {
		work += float64(jobs[i].Procs) * jobs[i].Runtime
	}
	if n := len(jobs); n > 0 {
		span = jobs[n-1].Submit - jobs[0].Submit
	}
	return work / float64(procs) / max(span, 1)
}

// jobSlice yields jobs in order, then io.EOF.
type jobSlice struct {
	jobs []actual.Job
	i    int
}

func (s *jobSlice) Next() (actual.Job, error) {
	if s.i == len(s.jobs) {
		return actual.Job{}, io.EOF
	}
	s.i++
	return s.jobs[s.i-1], nil
}
