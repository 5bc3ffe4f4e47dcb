// Package jobtable reads and writes the schedlab job table: a trace
// format that carries, beside the SWF fields schedlab uses, what each
// job asks of a node platform (a nodes.Request: nodes, tasks, CPUs per
// task, memory per node or per CPU, GRES per node or per job, a feature
// constraint, exclusive), which SWF has no field for.
//
// A table is text, plain or gzip-compressed (found by its magic bytes):
//
//	# schedlab job table v1
//	# any comment lines
//	id	submit	wait	runtime	procs	...	name
//	1	0	10	3600	16	...	lammps
//
// The first line is exactly Magic. Lines that start with '#' are
// comments; blank lines are skipped; lines end in LF or CR LF. The first
// other line is the header: the column names, separated by one tab
// (Columns lists them in the order a Writer writes). A Reader takes the
// columns by name in any order and ignores columns it does not know;
// id, submit, runtime and procs are required. Each row has one field a
// column; no field holds a tab, a line break or '#' (pandas reads a
// table with read_csv(path, sep="\t", comment="#"), which would cut a
// line at a '#').
//
// The SWF fields: id (the job number, 0..2^53), submit, wait, runtime,
// req_time (seconds, decimals allowed, at most swf.MaxSeconds), procs and
// req_procs (SWF fields 5 and 8, at most platform.MaxCPUs), used_mem_kb
// and req_mem_kb (KB a processor, fields 7 and 10), status, user, group,
// qos (SWF's queue, field 15) and partition: -1 (or an empty field) is
// unknown. The request: nodes and max_nodes (Slurm's --nodes=MIN[-MAX];
// 0 any), tasks and cpus_per_task (0: the job's processors, procs else
// req_procs, as tasks of one CPU), mem_per_node_mb or mem_per_cpu_mb
// (whole MB, 0 none), gres_per_node and gres_per_job (comma lists of
// NAME:COUNT or NAME:TYPE:COUNT, ParseGRES), constraint
// (nodes.ParseConstraint's syntax) and exclusive (1 or 0); every request
// passes nodes.Request.Check. name is free text (a Writer turns tabs,
// line breaks and '#' into '_').
//
// A Reader holds one line at a time; every size is bounded (MaxLine,
// MaxColumns, MaxLinesWithoutJob, MaxJobs, MaxGRES, MaxName) and every
// bad value is a *ParseError naming the file, line and column. A Writer
// refuses what a Reader would refuse, so what it writes reads back the
// same (the round trip is tested, and fuzzed from the reading side).
//
// On the CPU pool (package platform) a job of a table runs as its SWF
// equivalent: SWFReader turns a table into SWF text, a row its record
// Row.Record (whose processors are procs, else req_procs) on the row's
// line, and counts the rows whose request a pool of CPUs cannot honour
// (Beyond); workload.OpenTrace reads a table through it, so that every
// command that takes a trace takes a table. The requests go with the
// records: an SWFReader is an swf.RequestFeed, holding the requests of
// the rows the swf.Reader has read ahead (one row), which hands each
// record its row's (RowRequest; nil for tasks of one CPU and nothing
// else) and drops those of the rows a Source skips; swf.Source sets it
// as the job's actual.Job.Req.
package jobtable
