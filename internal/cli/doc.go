// Package cli is the schedlab command line: argument parsing (kong), and
// thin commands that call the experiment, workload and report packages.
// Main returns an exit status instead of exiting, so tests run it
// in-process.
//
// Exit status: 0 success, 1 the work failed (bad input file, invalid
// schedule, I/O error), 2 the command line is wrong.
package cli
