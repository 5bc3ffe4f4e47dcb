// Package slurm reads a site's Slurm accounting (the output of
// `sacct --parsable2`, or `-P`, with its header line, or of `sacct
// --json`) into SWF records, so that the site's real history can be
// simulated under other policies.
//
// ReadSacct takes the columns by name, in any order; the ones it needs
// (a job id, Submit, Start, End or Elapsed, Timelimit, a CPU count,
// State) are named in the error when missing. It handles what real
// exports hold: Unknown or None start and end times (jobs cancelled
// before they started, which used nothing and are left out, counted),
// [D-]HH:MM:SS, MM:SS and minute limits, UNLIMITED and Partition_Limit
// (an unknown request, -1), "CANCELLED by N", job steps (.batch, .extern,
// .0: left out unless asked for), array and heterogeneous job ids
// (JobIDRaw when present; otherwise the jobs are numbered in submit
// order), a '|' inside a JobName or Constraints (found by the column
// count; with both columns, the share-out that reads, the most to
// Constraints first), and memory per CPU ("c"), per node ("n": Slurm
// 20.11 and before) or the job's total (a plain size: sacct since Slurm
// 21.08 prints ReqMem from the job's ReqTRES mem). Memory per node
// becomes SWF's memory per CPU over the CPUs of one node: the job's CPUs
// over its NNodes (AllocTRES node= without that column; 1 without
// either); the job's total over its CPUs. States map to SWF status (COMPLETED 1, FAILED and
// the like 0, CANCELLED 5, TIMEOUT 1 with its run time capped at the
// limit); users, groups, partitions and QOS become integer ids with
// their names in the SWF header; UnixStartTime is the first submission.
// Jobs that have not ended (PENDING, RUNNING) are left out, counted.
//
// JSON output is told from -P output by its content (a JSON object). Its
// jobs are decoded one at a time (at most MaxJSONJob bytes each) and
// turned into the -P columns, then read by the same rules: job_id is
// JobIDRaw; time/submission, start and end (epoch seconds; 0 is
// Unknown) Submit, Start, End; time/elapsed Elapsed; time/limit
// (minutes) Timelimit, infinite being UNLIMITED and unset the
// partition's limit; the cpu count of tres/allocated NCPUS;
// required/CPUs ReqCPUS; required/memory_per_cpu (MB per CPU) or
// memory_per_node (MB per node) ReqMem; the first known state of
// state/current State; user, group, partition and qos. The layouts of
// Slurm 22.05 (openapi/dbv0.0.38: one required/memory, per CPU when bit
// 63 is set) and of data_parser v0.0.39 (plain numbers, 4294967295
// infinite, 4294967294 unset; the state a string) are read, and the
// {set, infinite, number} objects and state lists of v0.0.40 and later. The steps nested in a
// job are counted as left out (--steps applies to -P output only).
//
// Each job also has a request on nodes (Result.Request, a
// nodes.Request; Result.WriteJobTable writes them with the records as a
// job table, package jobtable): its CPUs as tasks of one CPU; nodes from
// ReqNodes and NNodes (the range between what it asked and what it got);
// memory per node or per CPU as ReqMem gives it (else the TRES mem total
// over its nodes), in MB; the GRES of ReqTRES, else AllocTRES (gres/NAME
// and gres/NAME:TYPE; the typed ones when both are listed), as GRES per
// job, since TRES are totals; Constraints when nodes.ParseConstraint
// reads them (else left out, counted in Result.Unread). The JSON export
// gives allocation_nodes, tres/requested, tres/allocated and
// constraints for the same columns.
//
// Input may be gzip-compressed (found by its magic bytes); a UTF-8
// byte-order mark is refused, as the SWF reader refuses it. Every value
// is checked where it is read, the error naming the file, line and
// column (or JSON field): durations and memory sizes are plain decimals,
// ids at most 2^53. Local times in the hour repeated when daylight
// saving time ends (Options.Location) have two instants: the ones that
// keep Submit <= Start <= End are taken, then those that agree with
// Elapsed, then the shortest wait (Result.Ambiguous counts the jobs only
// that settled).
//
// The records come back sorted by submit time (ties in the order read),
// with a count of what was kept and of what was left out and why; they
// are held in about 106 bytes a job (Result.Record builds one).
package slurm
