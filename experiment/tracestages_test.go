package experiment

import (
	"slices"
	"testing"
)

// The orders of the trace run's stages and outputs decide results (the
// wrappers' nesting, the listeners' order): a change to them is a
// result change, made on purpose, with the goldens regenerated.
func TestTraceStageOrder(t *testing.T) {
	var stages, cluster, outs []string
	for _, s := range traceStages {
		stages = append(stages, s.name)
	}
	for _, s := range clusterStages {
		cluster = append(cluster, s.name)
	}
	for _, o := range traceOutputs {
		outs = append(outs, o.name)
	}
	for _, c := range []struct {
		what      string
		got, want []string
	}{
		{"traceStages", stages, []string{"window", "first", "submit-zero", "resample", "tsafrir", "estimates", "prefetch", "deadlines", "partitions"}},
		{"clusterStages", cluster, []string{"screen", "record", "thread split", "record threads"}},
		{"traceOutputs", outs, []string{"summary", "deadlines", "responses", "listeners", "metrics", "partitions", "metrics_by", "energy", "energy.csv", "power.csv", "nodes", "jobs.csv", "schedule.swf", "unavailability", "rejected", "threads.csv", "thread records", "planned.csv"}},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s = %q, want %q (docs/extending.md lists them)", c.what, c.got, c.want)
		}
	}
}
