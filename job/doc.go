// Package job is the vocabulary shared by every layer of schedlab: jobs as
// the engine knows them, the restricted view of a job that policies see, and
// the small enumerations (start reason, final state) that records carry.
//
// The split between Job and Info is the type-level guarantee of DESIGN.md
// section 1: a Job carries the actual runtime, an Info does not. The engine
// holds Jobs; a policy is only ever handed Infos, so no policy can look at a
// runtime it would not know in reality.
package job
