// Package model is the seam of synthetic workload models: a model
// declares itself once, in its own folder (its name, a summary, its
// typed options and a constructor), and the scenario files' keys
// (workload.model and workload.<option>), their checks, their result
// keys and the cluster model's runner are all derived from that
// declaration (registry.WorkloadModels lists the declared models). The
// Lublin-Feitelson model (workload/lublin) and al-najjar-2019's JRB
// workload (workload/synth, DeclareJRB) and hafshejani-2012's synthetic
// jobs (DeclareHafshejani) are declared this way; the
// Poisson workload of one-CPU jobs, shared by every model, is the
// default and is not a declared model.
//
// docs/extending.md shows how to add a model.
package model
