package scenario_test

import (
	"fmt"

	"github.com/schedlab/schedlab/scenario"
)

func ExampleParse() {
	src := []byte(`
model: grid
stop: {completed: 32000}
platform: {sites: 4, procs_per_site: 8}
workload: {mean_interarrival: [0.048, 0.033]}
policy: {grid: deferred, allocation_interval: 0.3, local: [sq, random]}
`)
	points, err := scenario.Parse("sweep.yaml", src)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range points {
		fmt.Println(p.Index, p.Labels)
	}
	// Output:
	// 0 [{workload.mean_interarrival 0.048} {policy.local sq}]
	// 1 [{workload.mean_interarrival 0.048} {policy.local random}]
	// 2 [{workload.mean_interarrival 0.033} {policy.local sq}]
	// 3 [{workload.mean_interarrival 0.033} {policy.local random}]
}

func ExampleParse_errors() {
	src := []byte(`model: grid
stop: {completed: 32000}
platform: {sites: 4, procs_per_site: 0}
workload: {mean_interarrival: 0.048, trace: KTH.swf}
policy: {grid: deferred, local: fastest}
`)
	_, err := scenario.Parse("bad.yaml", src)
	fmt.Println(err)
	// Output:
	// bad.yaml:3:38: platform.procs_per_site: must be >= 1, got 0
	// bad.yaml:4:38: workload.trace: not used by model grid (only by cluster)
	// bad.yaml:5:16: policy.allocation_interval: required with policy.grid deferred
	// bad.yaml:5:33: policy.local: unknown value "fastest" (known: random, sq, 2rsq)
}
