// Package policy defines the contracts between the engine and scheduling
// policies, and nothing else: policies import this package and package job,
// never the engine.
//
// A policy is told what happened (a job was submitted, a job ended) and,
// once per instant after all of that instant's events, is asked for a
// decision. It answers by filling a Plan; the engine validates and applies
// it. A policy only ever sees job.Info, never a job's actual runtime: it
// learns that a job ended when the engine tells it so, exactly as a real
// resource manager does.
//
// "Cannot place now" is a normal outcome (the job is simply not in the plan),
// never an error; an error from the engine means the policy is broken.
package policy
