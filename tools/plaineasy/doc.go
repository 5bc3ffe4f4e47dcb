// Command plaineasy is a plain, single-purpose EASY backfilling simulator
// of an SWF trace: one file, one goroutine, no engine, no policy
// interface, no listeners. It is the yardstick of docs/performance.md:
// schedlab's general engine running `--policy easy` should be no slower
// than this program, which does nothing but EASY.
//
//	go build -o /tmp/plaineasy ./tools/plaineasy
//	/tmp/plaineasy /path/to/HPC2N-2002-2.1-cln.swf.gz
//	/tmp/plaineasy -out /tmp/starts.csv /path/to/trace.swf.gz
//
// It follows the rules of docs/scheduling.md for `schedlab run --policy
// easy` at its defaults (`--estimate request`, `--on-overrun kill`):
// records with an unknown submit time, run time or processor count are
// skipped, jobs wider than the header's MaxProcs are rejected, a job's
// estimate is its requested time (its run time when the request is
// unknown) and it runs for min(run time, request). At an instant the
// completions come first, then the arrivals, then one pass: start jobs in
// (submit, id) order while the head fits; the head that does not fit gets
// the shadow time (the earliest estimated end at which enough processors
// are free) and the extra processors; a later job starts if it fits now
// and either ends by the shadow time or needs no more than the extra
// processors left (Lifka's rule). A zero-length span occupies its start
// instant (its estimated end is the next float after its start).
//
// It prints the jobs simulated, the mean wait and the elapsed time of the
// whole simulation (read included); -out writes "id,start" per job in
// completion order. A test checks that its start times are schedlab's,
// job for job, on the embedded KTH-SP2 trace (and HPC2N when present).
//
// It reads only well-formed traces: a malformed line is an error naming
// the line, and there are no options. It is a measuring tool, not a part
// of schedlab.
package main
