// Package lint holds repository-wide checks that run as tests: the import
// boundaries that the architecture rests on (policies cannot reach the
// kernel, the models or the type that holds actual runtimes; the kernel
// knows policy contracts, not concrete policies; the references —
// internal/naive, validate, and the reference functions of test files
// such as the naive JRB — share no code with what they check), that Go
// files are gofmt-formatted, that shell scripts parse, that generated
// outputs are git-ignored and that no file points at documents outside the
// tree.
package lint
