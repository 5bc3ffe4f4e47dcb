// Package scenario reads scenario files: an experiment written as data.
//
// A scenario file is YAML naming the model ("cluster", "grid", "gang" or
// "hetero"), the platform, the workload, the policies, the stopping rule,
// the warm-up, the replications, the seed and the metrics to report. The
// format and every key are documented in docs/scenarios.md.
//
// Any scalar setting written as a list is a sweep axis; the axes expand to
// their cross product. Parse returns the points in a fixed order: the
// axes in file order, the first varying slowest (like nested loops), and
// Point.Index running 0..n-1 in that order. A list under platform.sites is
// the site list, not an axis; a list of site lists is an axis over site
// lists.
//
// What the package promises:
//
//   - Every returned Point holds a complete Scenario: one value per
//     setting, defaults applied for the settings its model reads,
//     validated for its model. Settings the model does not read are zero,
//     and the options the point's own policies do not read are absent
//     from Policy.Options (the options each policy declares: a grid
//     scheduler without an allocation interval has none), even when the
//     file sweeps them; Point.Labels still shows the value the axis took.
//   - Parse is deterministic: the same bytes give the same points, labels
//     and keys; no map order reaches a result.
//   - A file is accepted whole or not at all. On error Parse returns no
//     points and an Errors value listing every problem found, one per
//     line, sorted by position, each as "file:line:column: path: message"
//     (YAML syntax errors included, with the parser's position). Parse
//     never panics, whatever the input (see FuzzParse).
//   - Scenario.Key is a stable file-name stem made of [a-z0-9._=-] that
//     changes exactly when a setting that affects results changes (up to
//     the hash it uses for long keys and unusual strings).
//   - Points never share memory: each Scenario has its own Sites and
//     Metrics slices.
//
// Every setting that is not a policy or a policy option is declared once,
// in the settings table (settings.go), like a policy option (an
// option.Decl: key, type, range, allowed values, default, doc) with the
// models that read it, where it lives in a Scenario, and where and how
// Key writes it. The model names, the policy names of each model and
// kind (policy.queue, policy.grid, policy.local, policy.approach), the
// policy options with their types, ranges, defaults and dependencies
// (option.Decl.On), and which policies read which option come from
// package registry; nothing here lists a policy or a policy option
// beyond the positions of the first releases' ones in keys
// (registryKeyParts). Policy options live in Policy.Options by name (as
// canonical text). The schema (schema.go: the type checks, bounds,
// defaults and allowed values of every key), the binding of each
// setting to its Scenario field (bind.go), the order of Key's parts and
// the key reference tables of docs/scenarios.md (go generate;
// TestDocsSettingsTables) are derived from these declarations. A policy
// option of the first releases is written in every key that reads it;
// every other one under its declared KeyName when the point sets it away
// from its default.
//
// The package holds no mutable state; its tables (the settings table,
// the schema, the bindings and key parts) are built once and read-only.
package scenario
