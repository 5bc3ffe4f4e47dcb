package lublin_test

import (
	"fmt"

	"github.com/schedlab/schedlab/workload/lublin"
)

// The first jobs of replication 0 of seed 7 on 128 processors, with the
// batch parameter set and a target offered load of 0.8.
func Example() {
	p := lublin.Default(128)
	p.Jobs = 3
	p.Load = 0.8
	src, err := lublin.New(p, 7, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("arrival factor %.4f, offered load %.2f\n", src.ArrivalFactor(), p.OfferedLoad())
	for {
		j, err := src.Next()
		if err != nil {
			break // io.EOF after the third job
		}
		fmt.Printf("job %d: submit %g s, %d processors, runtime %g s\n", j.ID, j.Submit, j.Procs, j.Runtime)
	}
	// Output:
	// arrival factor 0.4527, offered load 0.80
	// job 1: submit 49 s, 4 processors, runtime 32468 s
	// job 2: submit 6269 s, 32 processors, runtime 4818 s
	// job 3: submit 6300 s, 1 processors, runtime 33469 s
}
