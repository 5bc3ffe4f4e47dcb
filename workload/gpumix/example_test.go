package gpumix_test

import (
	"fmt"

	"github.com/schedlab/schedlab/workload/gpumix"
)

// The first jobs of replication 0 of seed 7 on 256 processors, half of
// them asking for GPUs (nodes of 4 GPUs, 8 CPUs a GPU). The runtimes are
// lublin's for the same seed (its Example's), whatever the GPU settings.
func Example() {
	p := gpumix.Default(256)
	p.Lublin.Jobs = 6
	p.Share = 0.5
	src, err := gpumix.New(p, 7, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	for {
		j, err := src.Next()
		if err != nil {
			break // io.EOF after the last job
		}
		req := "CPU job"
		if j.Req != nil {
			req = j.Req.String()
		}
		fmt.Printf("job %d: %d processors, runtime %g s: %s\n", j.ID, j.Procs, j.Runtime, req)
	}
	// Output:
	// job 1: 8 processors, runtime 32468 s: nodes=1 ntasks=1 cpus-per-task=8 gres=gpu:1
	// job 2: 8 processors, runtime 4818 s: nodes=1 ntasks=1 cpus-per-task=8 gres=gpu:1
	// job 3: 8 processors, runtime 33469 s: nodes=1 ntasks=1 cpus-per-task=8 gres=gpu:1
	// job 4: 64 processors, runtime 20155 s: CPU job
	// job 5: 8 processors, runtime 303 s: CPU job
	// job 6: 16 processors, runtime 18437 s: nodes=1 ntasks=2 cpus-per-task=8 gres=gpu:2
}
