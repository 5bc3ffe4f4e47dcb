// Package job is the vocabulary shared by every layer of schedlab, and the
// only job type policies may see: Info, a job as a real resource manager
// knows it (size, estimate, memory, speed requirement, deadline; never the
// actual runtime), its ID, and the enumerations records carry (start
// reason, final state).
//
// The type that holds actual runtimes is actual.Job, in package
// job/actual, which policy packages cannot import (an import-boundary test
// enforces it): no policy can look at a runtime it would not know in
// reality.
package job
