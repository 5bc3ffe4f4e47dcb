package experiment

import (
	"errors"
	"fmt"
	"strings"

	"github.com/schedlab/schedlab/rng"
	"github.com/schedlab/schedlab/scenario"
	"github.com/schedlab/schedlab/workload/lublin"
	"github.com/schedlab/schedlab/workload/tsafrir"
)

// TsafrirModel is the site model of user estimates that the lublin
// workload and estimate tsafrir draw requests from: Tsafrir's published
// parameters, its histogram drawn once per seed (from replication 0's
// stream: a site's habits do not change between replications).
func TsafrirModel(seed uint64) (*tsafrir.Model, error) {
	return tsafrir.New(tsafrir.Default(), rng.New(seed, 0, "tsafrir-histogram"))
}

// TsafrirRequestName names the requests of TsafrirModel in SWF headers.
const TsafrirRequestName = "Tsafrir-Etsion-Feitelson model of user estimates (published parameters, 18 h maximum)"

// lublinKeys maps the fields of lublin.Params to the scenario keys that
// set them.
var lublinKeys = map[string]string{
	"Procs": "platform.procs", "Jobs": "stop.completed", "ArrivalFactor": "workload.arrival_factor",
	"RuntimeFactor": "workload.runtime_factor", "Load": "workload.load", "Users": "workload.users",
}

// LublinParams are the parameters of s's lublin workload (the batch set
// of the published model for s's machine; stop.completed jobs; requests
// from TsafrirModel). Problems name the scenario keys.
func LublinParams(s scenario.Scenario) (lublin.Params, error) {
	if s.Stop.Completed > lublin.MaxJobs {
		return lublin.Params{}, fmt.Errorf("workload.model lublin: stop.completed %d: at most %d jobs (lublin.MaxJobs)", s.Stop.Completed, lublin.MaxJobs)
	}
	w := s.Workload
	p := lublin.Default(s.Platform.Procs)
	p.Jobs = int(s.Stop.Completed)
	p.ArrivalFactor, p.RuntimeFactor, p.Load = w.ArrivalFactor, w.RuntimeFactor, w.Load
	p.DailyCycle, p.Users = w.DailyCycle, w.Users
	if err := p.Check(); err != nil {
		var ce *lublin.CheckError
		if !errors.As(err, &ce) {
			return p, err
		}
		var msgs []string
		for _, pr := range ce.Problems {
			k := lublinKeys[pr.Field]
			if k == "" {
				k = "the lublin model's " + pr.Field
			}
			msgs = append(msgs, k+" "+pr.Msg)
		}
		return p, fmt.Errorf("workload.model lublin: %s", strings.Join(msgs, "; "))
	}
	m, err := TsafrirModel(s.Seed)
	if err != nil {
		return p, err
	}
	p.Request, p.RequestName = m.Request, TsafrirRequestName
	return p, nil
}
