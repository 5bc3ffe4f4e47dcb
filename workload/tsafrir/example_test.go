package tsafrir_test

import (
	"fmt"

	"github.com/schedlab/schedlab/rng"
	"github.com/schedlab/schedlab/workload/tsafrir"
)

func Example() {
	p := tsafrir.Default() // 18 h maximum, histogram for a 10,000-job log
	p.MaxEstimate = 4 * 3600
	m, err := tsafrir.New(p, rng.New(1, 0, "tsafrir-histogram"))
	if err != nil {
		fmt.Println(err)
		return
	}
	r := rng.New(1, 0, "tsafrir-requests")
	for _, runtime := range []float64{42, 1000, 14000, 20000} {
		fmt.Printf("runtime %5.0f s -> request %5.0f s\n", runtime, m.Request(runtime, r))
	}
	vs := m.Values()
	fmt.Printf("%d values; the maximum %g s serves %.1f%% of jobs\n", len(vs), vs[len(vs)-1].Seconds, 100*vs[len(vs)-1].Prob)
	// Output:
	// runtime    42 s -> request  4800 s
	// runtime  1000 s -> request 14400 s
	// runtime 14000 s -> request 14400 s
	// runtime 20000 s -> request 20040 s
	// 90 values; the maximum 14400 s serves 21.7% of jobs
}
