// Package lint holds repository-wide checks that run as tests: the layers
// as an allowlist of direct imports, for non-test files and for tests
// (allow_test.go: every part of the tree names what it may import; a new
// package falls under its subtree's list or is refused until it gets a
// line), the import boundaries that the architecture rests on, checked on
// transitive imports as well (policies cannot reach the
// kernel, the models or the type that holds actual runtimes; the kernel
// knows policy contracts, not concrete policies; the references —
// internal/testref, validate, and the reference functions of test files
// such as the naive JRB — share no code with what they check), that Go
// files are gofmt-formatted, that shell scripts parse, that generated
// outputs are git-ignored, that no file points at documents outside the
// tree, and that ./test runs -tags invariants on every package with tests
// behind that build tag. The import checks read both builds (default and
// invariants).
package lint
