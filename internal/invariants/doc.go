// Package invariants is the one switch behind the build tag invariants
// (docs/testing.md): Enabled is true in a build with the tag (go test
// -tags invariants) and false otherwise, a constant either way, so that
// code guarded by it is compiled out of the default build.
//
// A package that keeps test switches or counters out of its production
// structs reads the switch from here rather than from build tags of its
// own: a value that only tests set is written `invariants.Enabled && x`,
// which the compiler folds to false in the default build. Where a type
// must differ between the two builds (a struct of counters that is
// empty in the default build), the package keeps a pair of files with
// the tag and its negation, and each file asserts at compile time that
// it is built with the matching value of Enabled; internal/lint
// (TestInvariantsSwitch) checks that every such file does.
package invariants
