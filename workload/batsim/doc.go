// Package batsim converts between Batsim's workload JSON and SWF, so that
// workloads written for Batsim can be simulated by schedlab and schedlab's
// traces replayed in Batsim.
//
// A Batsim workload is one JSON object with nb_res (the machine's
// resources), jobs (id, subtime, res, profile, and optionally walltime)
// and profiles (by name: a type and its parameters). Only delay profiles
// (type "delay", or "DelayProfile" in Batsim 5) describe a job by its run
// time alone; the run time of every other type depends on Batsim's
// platform model, so a job using one is refused, with the job, the
// profile and its type named.
//
// # Import (Read)
//
// Each job becomes one SWF record: subtime is the submit time (field 2,
// kept as it is: Batsim's times are absolute), the profile's delay the
// run time (4), res the allocated and requested processors (5 and 8),
// walltime the requested time (9; absent or -1 is unknown), and the
// profile's ret the status (11: 1 when ret is 0 or absent, 0 failed
// otherwise). The wait time (3) is unknown (-1): a workload is what was
// submitted, not what happened. A job whose delay exceeds its walltime
// keeps its delay as run time; schedlab kills it at its requested time
// by default, as Batsim does. nb_res is the header's MaxProcs.
//
// Each job's request on nodes (Result.Request; Result.WriteJobTable
// writes records and requests as a job table, package jobtable) is its
// res as tasks of one CPU, the reading the import gives res. A Batsim
// workload has nothing more to map: a resource is a host of Batsim's own
// platform, which a job holds whole, and the workload says nothing of
// cores, memory, GPUs or features (fields beyond id, subtime, res,
// profile and walltime are the workload author's own).
//
// Job ids are strings in Batsim, optionally prefixed by the workload's
// name ("w0!17"). The prefix up to the last '!' is dropped; if every
// remaining id is then a distinct integer from 0 to 2^53, it is the SWF
// job number. Otherwise (ids such as "a", or two workloads' "w0!1" and
// "w1!1"), the jobs are numbered 1..N in submit order, ties in file
// order, and Result.Renumbered says so; Result.IDs keeps the Batsim ids.
// Records come back sorted by submit time (ties in file order).
//
// # Export (Write)
//
// Write streams SWF records into a workload: one job per record with
// a known submit time, run time and processor count (the others are
// counted, not written), ids the SWF job numbers as strings, one delay
// profile per distinct (run time, failed) pair, named "delay_<run time>"
// (with "_failed" and "ret": 1 for status 0). Importing what Write
// wrote gives back the records it wrote (with the wait time unknown and
// the fields Batsim does not carry at -1).
//
// # Bounds
//
// A workload is read into memory whole: at most MaxBytes bytes of JSON
// and MaxJobs jobs. Every problem is an error naming the file, the line,
// and the job or profile and its field; nothing is returned then.
package batsim
