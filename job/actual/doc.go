// Package actual holds the one type that knows a job's actual runtime:
// Job, as workloads produce it and as the kernel, the models and the
// metrics read it.
//
// Policies never import this package (an import-boundary test enforces
// it): they see job.Info, which carries estimates only, exactly as a real
// resource manager sees a job. Job.Info is the conversion.
package actual
