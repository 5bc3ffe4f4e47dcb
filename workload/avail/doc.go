// Package avail reads the inputs that make CPUs of a cluster unavailable
// (docs/availability.md): advance reservations and maintenance windows
// ("START:END:CPUS", the form of 'schedlab run --reservation'), Batsim-style
// external events (JSON lines of machine_unavailable / machine_available,
// 'run --events FILE'), and a generator of failures with exponential up
// and down times (the scenario key failures: {mtbf, mttr, seed}).
//
// For a platform of nodes it also reads the node forms, which no command
// uses yet: a window "START:END:NODES" naming nodes by a Slurm hostlist
// or ALL (ParseNodeReservationAt, NodeWindow, CheckNodeWindows), and an
// events file whose resources are nodes (NewNodeEvents: a Change's CPUs
// are then node ids).
//
// It yields plain values (Window, Change) that package experiment hands to
// the engine. Reading is streaming: the events file is read one line at a
// time (a line is at most MaxLine bytes) and the generator is endless and
// lazy; every error names the file, the line and the field, or the flag.
package avail
