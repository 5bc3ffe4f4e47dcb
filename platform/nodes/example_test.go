package nodes_test

import (
	"fmt"

	"github.com/schedlab/schedlab/platform/nodes"
)

func ExampleExpand() {
	names, err := nodes.Expand("gpu[01-03],a[1-2]b[3-4]")
	fmt.Println(names, err)
	// Output: [gpu01 gpu02 gpu03 a1b3 a1b4 a2b3 a2b4] <nil>
}

func ExampleCompress() {
	s, err := nodes.Compress([]string{"n10", "n2", "n1", "n3", "n7", "n11", "n12", "gpu02", "gpu01"})
	fmt.Println(s, err)
	// Output: gpu[01-02],n[1-3,7,10-12] <nil>
}

func ExampleParseGroup() {
	g, err := nodes.ParseGroup("gpu[01-32]:cores=32:sockets=2:threads=2:mem=512G:gres=gpu:a100=4,nvme=1:features=ib,a100")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(g.Names), g.Cores(), g.CPUs(), g.MemMB, g.GRES, g.Features, g.Weight)
	_, err = nodes.ParseGroup("gpu[01-32]:cores=32:mem=512GB")
	fmt.Println(err)
	// Output:
	// 32 64 128 524288 [{gpu a100 4} {nvme  1}] [a100 ib] 1
	// column 28 (mem): unit "GB": want K, M, G or T (a plain number is MB)
}

func ExampleNew() {
	a, _ := nodes.ParseGroup("cpu[1-3]:cores=4:sockets=2:features=ib,intel")
	b, _ := nodes.ParseGroup("gpu[01-02]:cores=16:gres=gpu:a100=2,nvme=1:features=ib,amd")
	ns, err := nodes.New([]nodes.NodeGroup{a, b})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ns)
	id, _ := ns.Lookup("gpu02")
	first, count := ns.FirstGRES(id, nodes.Kind{Name: "gpu", Type: "a100"})
	fmt.Println(id, ns.Node(id).FirstCore, first, count)
	c, _ := nodes.ParseConstraint("ib&(intel|amd)")
	fmt.Println(ns.Matching(c))
	// Output:
	// 5 nodes, 56 cores, 4 gpu:a100, 2 nvme
	// 4 40 2 2
	// [0 1 2 3 4]
}
