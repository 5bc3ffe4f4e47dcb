// Package slurmconf reads a site's slurm.conf: its NodeName lines into
// node groups (package platform/nodes), its PartitionName lines into
// partitions, and the scheduler's keys (SchedulerType,
// SchedulerParameters, SelectType, SelectTypeParameters, the Priority*
// keys, PreemptType, PreemptMode) into typed values and key=value
// lists. It reads the file; it decides nothing about how a run uses it,
// beyond saying Slurm's own order of the partitions (Config.ByTier:
// by PriorityTier).
//
// Every key of the file is accounted for: a key the package reads is
// typed and checked (a malformed value is an *Error naming the file,
// the line and the key), and every other key is returned as a Warning
// (file, line, key): either "not modelled" (a key that changes how Slurm
// schedules, which schedlab does not simulate) or "no effect on
// scheduling" (daemons, paths, ports, logging, accounting storage).
// Nothing is dropped silently.
//
// The syntax is slurm.conf(5)'s: one or more Key=Value pairs a line
// separated by spaces, keys case-insensitive, '#' starting a comment, a
// value in double quotes keeping its spaces, "NodeName=DEFAULT" and
// "PartitionName=DEFAULT" setting defaults for the lines after them,
// "Include FILE" reading another file (relative to the including
// file's folder), at most MaxIncludeDepth deep. Sizes are bounded
// (MaxLineLen, MaxLines, the node bounds of platform/nodes) and
// checked before anything of that size is allocated.
//
// docs/slurm.md ("Reading slurm.conf") lists every key and what becomes
// of it.
package slurmconf
