// Package nodestest builds platforms of nodes and draws random requests
// for the tests of the packages that run on nodes (the engine, the node
// policies, the external protocol): one copy of the scaffolding, each
// test choosing its bounds. It is imported by tests only.
package nodestest
