// Package enum is the one parser of named values: the queue orders, rank
// forms, head and selection rules, gap, tie, trigger and pick rules,
// estimate models, deadline and BM_est rules of the policies and the
// workloads. Parse maps a name to the value at the same place in a list;
// ParseNamed finds the value whose String is the name. A name not in
// the list is an error that says what was parsed and lists the names.
//
// The package imports nothing of the module; the policies and the
// workloads both stand above it.
package enum
