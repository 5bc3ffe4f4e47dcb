package swf_test

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/schedlab/schedlab/workload/swf"
)

func ExampleSource() {
	trace := `; Computer: Tiny
; MaxProcs: 4
1 0 0 100 2 -1 -1 2 3600 -1 1 1 1 -1 -1 -1 -1 -1
2 10 -1 -1 -1 -1 -1 -1 -1 -1 5 1 1 -1 -1 -1 -1 -1
3 20 5 50 -1 -1 -1 8 60 -1 1 2 1 -1 -1 -1 -1 -1
4 30 0 0 -1 -1 -1 1 -1 -1 1 2 1 -1 -1 -1 -1 -1
`
	r, err := swf.NewReader(strings.NewReader(trace), "tiny.swf")
	if err != nil {
		fmt.Println(err)
		return
	}
	src := swf.NewSource(r, swf.Options{Clamp: true})
	for {
		j, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("job %d: submit %v, %d procs, runtime %v, request %v\n", j.ID, j.Submit, j.Procs, j.Runtime, j.Request)
	}
	fmt.Printf("%+v\n", src.Counts())
	// Output:
	// job 1: submit 0, 2 procs, runtime 100, request 3600
	// job 3: submit 20, 4 procs, runtime 50, request 60
	// job 4: submit 30, 1 procs, runtime 0, request -1
	// {Read:4 Jobs:3 SkippedNoSubmit:0 SkippedNoRuntime:1 SkippedNoProcs:0 Rejected:0 Clamped:1}
}

func ExampleParseError() {
	_, err := swf.NewReader(strings.NewReader("; MaxProcs: lots\n"), "bad.swf")
	fmt.Println(err)
	r, _ := swf.NewReader(strings.NewReader("1 0 0 abc 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n"), "trace.swf")
	_, err = r.Next()
	fmt.Println(err)
	// Output:
	// bad.swf:1: header MaxProcs: invalid number "lots"
	// trace.swf:1: field 4 (run time): invalid number "abc"
}

func ExampleWriter() {
	w := swf.NewWriter(os.Stdout)
	w.WriteHeader(swf.Header{Version: "2.2", MaxProcs: 64})
	w.Write(swf.Record{JobNumber: 1, Submit: 0, Wait: 3.5, Run: 10, AllocProcs: 4, AvgCPU: -1, UsedMem: -1,
		ReqProcs: 4, ReqTime: 60, ReqMem: -1, Status: 1, User: 1, Group: 1, Exec: -1, Queue: -1, Partition: -1,
		PrecedingJob: -1, ThinkTime: -1})
	w.Flush()
	// Output:
	// ; Version: 2.2
	// ; MaxProcs: 64
	// 1 0 3.5 10 4 -1 -1 4 60 -1 1 1 1 -1 -1 -1 -1 -1
}
