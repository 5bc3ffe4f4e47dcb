package lublin

import (
	"errors"
	"fmt"
	"strings"

	"github.com/schedlab/schedlab/policy/option"
	"github.com/schedlab/schedlab/workload/model"
	"github.com/schedlab/schedlab/workload/tsafrir"
)

// Declare is the model's declaration for scenario files (workload.model:
// lublin, package workload/model): the batch set of the published model
// on platform.procs processors, stop.completed jobs per replication,
// requests drawn from Tsafrir's model of user estimates
// (tsafrir.SiteModel), and these options. Their result-key names are
// those of the first release (af, rf, load, cycle, users).
func Declare() model.Decl {
	return model.Decl{
		Name:    "lublin",
		Summary: "Lublin-Feitelson rigid parallel jobs (sizes, size-correlated runtimes, daily arrival cycle) with Tsafrir requests",
		Options: []option.Decl{
			{Name: "arrival_factor", Key: "workload.arrival_factor", Type: option.Float, Range: option.Between(1e-6, MaxFactor), Default: "1", KeyName: "af",
				Doc: "multiplies every inter-arrival time (2 halves the load)"},
			{Name: "runtime_factor", Key: "workload.runtime_factor", Type: option.Float, Range: option.Between(1e-6, MaxFactor), Default: "1", KeyName: "rf",
				Doc: "multiplies every runtime"},
			{Name: "load", Key: "workload.load", Type: option.Float, Range: option.Between(0, MaxLoad), Default: "0", KeyName: "load",
				Doc: "a target offered load that sets the arrival factor (0: none)"},
			{Name: "daily_cycle", Key: "workload.daily_cycle", Type: option.Bool, Default: "true", KeyName: "cycle", ZeroDistinct: true,
				Doc: "the model's daily arrival cycle (false: arrivals alike at every hour)"},
			{Name: "users", Key: "workload.users", Type: option.Int, Range: option.Between(0, MaxScenarioUsers), Default: "0", KeyName: "users",
				Doc: "user ids 1..users drawn Zipf-like (not part of the published model; 0: none)"},
		},
		Exclusive: [][3]string{{"load", "arrival_factor", "a target load sets the arrival factor"}},
		New:       build,
	}
}

// keys maps Params' fields to the scenario keys that set them, for
// messages.
var keys = map[string]string{
	"Procs": "platform.procs", "Jobs": "stop.completed", "ArrivalFactor": "workload.arrival_factor",
	"RuntimeFactor": "workload.runtime_factor", "Load": "workload.load", "Users": "workload.users",
}

func build(env model.Env, v option.Values) (model.Built, error) {
	if env.Jobs > MaxJobs {
		return model.Built{}, fmt.Errorf("workload.model lublin: stop.completed %d: at most %d jobs (lublin.MaxJobs)", env.Jobs, MaxJobs)
	}
	p := Default(env.Procs)
	p.Jobs = int(env.Jobs)
	p.ArrivalFactor, p.RuntimeFactor, p.Load = v.Float("arrival_factor"), v.Float("runtime_factor"), v.Float("load")
	p.DailyCycle, p.Users = v.Bool("daily_cycle"), v.Int("users")
	if err := p.Check(); err != nil {
		var ce *CheckError
		if !errors.As(err, &ce) {
			return model.Built{}, err
		}
		var msgs []string
		for _, pr := range ce.Problems {
			k := keys[pr.Field]
			if k == "" {
				k = "the lublin model's " + pr.Field
			}
			msgs = append(msgs, k+" "+pr.Msg)
		}
		return model.Built{}, fmt.Errorf("workload.model lublin: %s", strings.Join(msgs, "; "))
	}
	m, err := tsafrir.SiteModel(env.Seed)
	if err != nil {
		return model.Built{}, err
	}
	p.Request, p.RequestName = m.Request, tsafrir.SiteModelName
	src, err := New(p, env.Seed, env.Rep)
	if err != nil {
		return model.Built{}, err
	}
	return model.Built{Source: src, Load: p.OfferedLoad()}, nil
}
