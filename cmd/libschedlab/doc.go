// Command libschedlab is schedlab's engine as a C shared library, for
// Python's schedlab package (python/schedlab/_inproc.py) through ctypes:
//
//	go build -buildmode=c-shared -o libschedlab.so ./cmd/libschedlab
//
// It runs the run of `schedlab run --policy external`, given as a run
// spec in JSON (experiment.RunSpec; sl_open), in the calling process,
// the decisions made by the caller one instant at a time (package
// cmd/libschedlab/inproc: the command's own run, the decisions validated
// as a protocol reply's); or, with sl_gym_start and sl_gym_step, one
// Gymnasium step at a time, the window, observation and action mask of
// Python's SchedulingEnv built in Go (package cmd/libschedlab/gym);
// sl_gym_vstep steps many such runs in one call (Python's
// VectorSchedulingEnv), those opened "unbound" shared out among up to
// GOMAXPROCS goroutines, each run stepped by one at a time. On a
// platform of nodes, sl_nodes_view gives the node part of each request
// in the protocol's JSON and sl_step_nodes takes starts that name nodes
// in it (read as a reply's, by policy/external), and the Gymnasium
// environment observes the nodes (sl_gym_shape gives its layout). The
// C API is in lib.go and libschedlab.h (written by the build);
// docs/protocol.md, "In process", describes it.
//
// Without cgo (CGO_ENABLED=0, no C compiler) the package builds as an
// empty program, so that `go build ./...` and `go test ./...` still
// work; the Python package then uses the schedlab command.
package main
