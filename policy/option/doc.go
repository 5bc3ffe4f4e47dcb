// Package option declares a policy's options and checks the values given
// for them.
//
// A policy lists its options as Decls (name, scenario key, type, allowed
// values or range, default, one line of help, and how the option appears
// in result keys and on the command line) in its own folder. Everything
// that handles options generically reads these declarations: the
// registry checks given texts against them (Check) into Values, which the
// policy's factory reads by name; the scenario schema builds its keys,
// validation and result keys from them; the command line builds
// 'run --set' and the policies' flags from them; 'schedlab policies'
// lists them.
//
// Check reports every problem with the option's name and the rule it
// breaks; a Values only ever holds declared options with valid values,
// defaults filled in, so a policy reading its own declared option cannot
// fail. Reading an option the policy did not declare is a programming
// error and panics.
//
// Named values (queue orders, tie rules, ...) are parsed by package
// internal/enum, shared with the workloads.
//
// The package imports nothing of the module: policies, the registry, the
// scenario schema and the command line all stand above it.
package option
