package gpumix

import (
	"fmt"
	"strconv"

	"github.com/schedlab/schedlab/policy/option"
	"github.com/schedlab/schedlab/workload/lublin"
	"github.com/schedlab/schedlab/workload/model"
	"github.com/schedlab/schedlab/workload/tsafrir"
)

// Declare is the model's declaration for scenario files (workload.model:
// gpumix): the lublin model's jobs (its batch set on platform.procs
// processors, stop.completed jobs, Tsafrir requests, and the lublin
// options arrival_factor, runtime_factor, daily_cycle and users, the
// same keys), of which a share ask for GPUs. lublin's load is not
// offered: it sets the arrival factor from the lublin jobs' work, which
// the GPU jobs change.
func Declare() model.Decl {
	var opts []option.Decl
	for _, o := range lublin.Declare().Options {
		switch o.Name {
		case "arrival_factor", "runtime_factor", "daily_cycle", "users":
			opts = append(opts, o)
		}
	}
	opts = append(opts,
		option.Decl{Name: "gpu_share", Key: "workload.gpu_share", Type: option.Fraction, Range: option.Between(0, 1), Default: strconv.FormatFloat(DefaultShare, 'g', -1, 64), KeyName: "gshare", ZeroDistinct: true,
			Doc: "the share of the jobs that ask for GPUs (10% or 0.1)"},
		option.Decl{Name: "gpus_per_job", Key: "workload.gpus_per_job", Type: option.Text, KeyName: "gpus",
			Valid: func(s string) error { _, err := ParseDist(s); return err },
			Doc:   "a GPU job's GPUs, a distribution GPUS:PROBABILITY,... (empty: " + DefaultGPUs + ")"},
		option.Decl{Name: "gpu_type", Key: "workload.gpu_type", Type: option.Text, KeyName: "gtype", Valid: CheckType,
			Doc: "the GPU type the GPU jobs ask for (empty: any type)"},
		option.Decl{Name: "cpus_per_gpu", Key: "workload.cpus_per_gpu", Type: option.Int, Range: option.Between(1, MaxCPUsPerGPU), Default: strconv.Itoa(DefaultCPUsPerGPU), KeyName: "cpg",
			Doc: "a GPU job of g GPUs has g tasks of this many CPUs"},
		option.Decl{Name: "gpus_per_node", Key: "workload.gpus_per_node", Type: option.Int, Range: option.Between(1, MaxGPUsPerNode), Default: strconv.Itoa(DefaultGPUsPerNode), KeyName: "gpn",
			Doc: "the GPUs of a node: a job of g GPUs asks for ceil(g / this) nodes, the same GPUs on each"},
	)
	return model.Decl{
		Name:    "gpumix",
		Summary: "Lublin-Feitelson jobs of which a share ask for GPUs (schedlab's construction, not a published model)",
		Options: opts,
		New:     build,
	}
}

func build(env model.Env, v option.Values) (model.Built, error) {
	fail := func(err error) (model.Built, error) {
		return model.Built{}, fmt.Errorf("workload.model gpumix: %w", err)
	}
	if env.Jobs > lublin.MaxJobs {
		return fail(fmt.Errorf("stop.completed %d: at most %d jobs (lublin.MaxJobs)", env.Jobs, lublin.MaxJobs))
	}
	p := Default(env.Procs)
	p.Lublin.Jobs = int(env.Jobs)
	p.Lublin.ArrivalFactor, p.Lublin.RuntimeFactor = v.Float("arrival_factor"), v.Float("runtime_factor")
	p.Lublin.DailyCycle, p.Lublin.Users = v.Bool("daily_cycle"), v.Int("users")
	p.Share, p.Type = v.Float("gpu_share"), v.Text("gpu_type")
	p.CPUsPerGPU, p.GPUsPerNode = v.Int("cpus_per_gpu"), v.Int("gpus_per_node")
	d, err := ParseDist(v.Text("gpus_per_job"))
	if err != nil {
		return fail(fmt.Errorf("gpus_per_job: %w", err))
	}
	p.GPUs = d
	m, err := tsafrir.SiteModel(env.Seed)
	if err != nil {
		return fail(err)
	}
	p.Lublin.Request, p.Lublin.RequestName = m.Request, tsafrir.SiteModelName
	src, err := New(p, env.Seed, env.Rep)
	if err != nil {
		return fail(err)
	}
	return model.Built{Source: src, Requests: p.Share > 0}, nil // every GPU job asks for GPUs
}
