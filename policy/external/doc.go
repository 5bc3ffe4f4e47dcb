// Package external is the external policy: a central-queue policy whose
// decisions come from a separate decision process, in any language,
// over the JSON Lines protocol that docs/protocol.md describes (message
// and field names follow Batsim's where they mean the same).
//
// The decision process is started with /bin/sh -c COMMAND at the first
// job's arrival. At every scheduling instant the policy writes one
// request line on the process's standard input (the instant's events
// and a read-only view) and reads one reply line from its standard
// output (the jobs to start now). The model validates each start exactly
// as it validates an in-process policy's. A process that exits early,
// takes longer than the timeout or writes something that is not a reply
// makes the policy fail (policy.Failer): the run stops with an error
// naming the time and what went wrong. The process's standard error is
// passed through.
//
// The policy python (python.go) is the same policy with the command
// built from its options: exec PYTHON -m schedlab.serve CLASS, the
// Python package's server of a schedlab.Policy subclass, with option
// path before PYTHONPATH; its errors name it "policy python".
//
// On a platform of nodes (policy.Env.Nodes) the policy is a
// NodeClient (nodes.go), a policy.NodeScheduler speaking the protocol's
// node extension (docs/protocol.md, "On a platform of nodes"; protocol
// schedlab-external/1+nodes): the platform's node groups in
// SIMULATION_BEGINS, each job's request, the nodes whose free amounts
// changed in each request, and starts that name their nodes (and
// optionally core and unit ids) or leave the placement to the engine's
// selection rule. It keeps a mirror of what the engine holds
// (nodes.State: every start it hands the engine names its allocation)
// to pick the ids a reply leaves out. An in-process Decider runs on
// nodes too (Request.Nodes, Request.Changed, Exec.Nodes), validated by
// the same code.
//
// Like every policy, the decision process sees estimates, never actual
// runtimes: job.Info is all this package has.
package external
