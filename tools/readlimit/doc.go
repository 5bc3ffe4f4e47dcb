// Command readlimit measures the physical limit of a simulation run on a
// trace: it decompresses an SWF file (gzip or plain) and parses the 18
// numeric fields of every job line, and does nothing else — no checks, no
// job records, no simulation, no output. A `schedlab run` on the same
// trace cannot be faster than this; docs/performance.md gives schedlab's
// times as multiples of it.
//
//	go build -o /tmp/readlimit ./tools/readlimit
//	/tmp/readlimit /path/to/HPC2N-2002-2.1-cln.swf.gz
//	/tmp/readlimit -gzip std /path/to/HPC2N-2002-2.1-cln.swf.gz
//
// -gzip picks the decompressor: klauspost (github.com/klauspost/compress,
// the default, as schedlab reads traces) or std (the standard library's
// compress/gzip).
//
// It prints the number of job lines, a checksum of all fields (so the
// parse cannot be optimised away, and two readers can be compared) and
// the elapsed time of the read alone (process start-up excluded; time the
// whole process with /usr/bin/time for the figure comparable to a
// `schedlab run`).
//
// The parse accepts what SWF traces hold: optionally signed integers and
// decimals; any other field text is counted as a bad field and the line
// still counted. Lines starting with ';' (the header) and blank lines are
// skipped.
package main
