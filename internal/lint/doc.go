// Package lint holds repository-wide checks that run as tests: the import
// boundaries that the architecture rests on (policies cannot reach the
// kernel, the models or the type that holds actual runtimes; the kernel
// knows policy contracts, not concrete policies), that Go files are gofmt-formatted
// and that shell scripts parse.
package lint
