// Command schedlab: every command is implemented in cmd/schedlab/cli; this
// package only hands it the process's arguments and streams.
package main
