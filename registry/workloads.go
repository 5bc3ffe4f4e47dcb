package registry

import (
	"fmt"
	"strings"
	"sync"

	"github.com/schedlab/schedlab/policy/option"
	"github.com/schedlab/schedlab/workload/gpumix"
	"github.com/schedlab/schedlab/workload/lublin"
	"github.com/schedlab/schedlab/workload/model"
	"github.com/schedlab/schedlab/workload/synth"
)

// workloadTable lists the declared synthetic workload models of the
// cluster model (package workload/model): adding one is its package's
// Declare here. The Poisson workload of one-CPU jobs is the default
// (PoissonWorkload) and is not declared.
func workloadTable() []func() model.Decl {
	return []func() model.Decl{lublin.Declare, synth.DeclareJRB, synth.DeclareHafshejani, gpumix.Declare}
}

// PoissonWorkload is the cluster's default workload.model: one-CPU jobs,
// Poisson arrivals, exponential service (workload.mean_interarrival,
// mean_service).
const PoissonWorkload = "poisson"

var workloadDecls = sync.OnceValue(func() []model.Decl {
	var out []model.Decl
	for _, f := range workloadTable() {
		d := f()
		for i := range d.Options {
			if d.Options[i].Key == "" {
				d.Options[i].Key = "workload." + d.Options[i].Name
			}
		}
		out = append(out, d)
	}
	return out
})

// WorkloadModels are the declared workload models, in table order (the
// declarations are shared: do not modify them).
func WorkloadModels() []model.Decl { return workloadDecls() }

// WorkloadNames are workload.model's values: poisson, then the declared
// models.
func WorkloadNames() []string {
	out := []string{PoissonWorkload}
	for _, d := range WorkloadModels() {
		out = append(out, d.Name)
	}
	return out
}

// LookupWorkload is the declared workload model called name.
func LookupWorkload(name string) (model.Decl, error) {
	for _, d := range WorkloadModels() {
		if d.Name == name {
			return d, nil
		}
	}
	return model.Decl{}, fmt.Errorf("unknown workload model %q (known: %s)", name, strings.Join(WorkloadNames(), ", "))
}

// BuildWorkload checks the option texts of workload model name and builds
// its workload for env.
func BuildWorkload(name string, env model.Env, texts map[string]string) (model.Built, error) {
	d, err := LookupWorkload(name)
	if err != nil {
		return model.Built{}, err
	}
	v, err := option.Check(d.Options, texts)
	if err != nil {
		return model.Built{}, fmt.Errorf("workload.model %s: %w", name, err)
	}
	return d.New(env, v)
}
