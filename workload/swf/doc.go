// Package swf reads and writes job traces in the Standard Workload Format
// (SWF) of the Parallel Workloads Archive, converts trace records into
// [actual.Job] values for the simulator, and computes summary statistics of a
// trace.
//
// # Format
//
// An SWF file is a text file. Lines whose first non-blank character is ';'
// are comments; the comments before the first job line form the header, in
// the form "; Key: value". Every other non-blank line describes one job with
// exactly 18 whitespace-separated numbers (see [Record] for the field
// order). The value -1 means "unknown" in every field. The header's keys
// of the SWF definition (MaxProcs, MaxNodes, MaxRuntime, MaxMemory,
// AllowOveruse, UnixStartTime, TimeZoneString, the Queue and Partition
// lines, ...) are parsed into the typed fields of [Header]; a malformed
// value is a *[ParseError] naming the key. [Writer.WriteHeader] writes the
// raw lines when there are any, else the typed fields.
//
// # Promises
//
//   - Streaming: a [Reader] holds one line at a time (plus the header),
//     never the whole trace, so traces of any length can be read in
//     constant memory. [Source] and [ComputeStats] stream too.
//   - Plain or gzip input: gzip is recognised by its magic bytes
//     (0x1f 0x8b), not by the file name. Gzip input is decompressed in a
//     background goroutine (bounded read-ahead), overlapping with parsing.
//   - Every field is parsed as a decimal number (integer, fraction or
//     exponent form; no NaN, Inf or hexadecimal), then integer fields are
//     converted, rejecting values that are not integral or that exceed
//     ±2^53.
//   - A negative value is an error unless it is exactly -1 ("unknown").
//   - Submit times must not decrease; records whose submit time is -1 are
//     exempt (they carry no time) and do not reset the comparison.
//   - Every error found in the input is a *[ParseError] naming the file,
//     the line and, when it is about one field, the 1-based SWF field
//     number and its name, e.g.
//     "trace.swf:12: field 4 (run time): invalid number "abc"". The cause
//     can be tested with [errors.Is] against [ErrFieldCount], [ErrSyntax],
//     [ErrNegative], [ErrNotInteger], [ErrUnsorted] and [ErrTruncated].
//   - Errors about one line are not sticky: the line is consumed and the
//     next call to [Reader.Next] continues with the following line. Read
//     errors (including a truncated or corrupt gzip stream) are sticky.
//   - Writing then reading a valid record gives the same record back
//     ([Writer] prints integers as integers and floats in the shortest form
//     that round-trips).
//
// # Conversion to jobs
//
// A [Source] turns records into jobs following the rules of the shared
// traces README: records with an unknown submit time, an unknown run time,
// or no known processor count (allocated, else requested) are skipped and
// counted; jobs larger than the machine are rejected, or clamped to the
// machine size with [Options].Clamp. A run time of 0 is a valid job (SWF
// rounds runs shorter than 0.5 s down to 0). A text that carries
// requests on nodes (a [RequestFeed], a job table read as SWF) gives
// each job its record's request ([actual.Job].Req); an SWF trace gives
// none (nil).
package swf
