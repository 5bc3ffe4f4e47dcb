// Package cli is the schedlab command line: argument parsing (kong), and
// thin commands that call the experiment, sweep, repro, workload and
// report packages.
// Main returns an exit status instead of exiting, so tests run it
// in-process.
//
// Exit status: 0 success, 1 the work failed (bad input file, invalid
// schedule, I/O error), 2 the command line is wrong. Errors are classified
// by type (a usageError; a *registry.UnknownNameError from 'run --policy'),
// never by their text.
//
// Policy names, orders and estimate models in flags, help texts and
// 'schedlab policies' come from package registry and the typed option
// lists (kong variables), never from lists written here.
package cli
