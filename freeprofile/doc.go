// Package freeprofile is a time-availability profile of a pool of identical
// processors: a step function giving, for every future instant, how many
// processors are free once running jobs and reservations are accounted for
// (Fluxion's "planner").
//
// A profile is a sequence of breakpoints sorted by time. Segment i covers
// [t_i, t_{i+1}) and the last one extends to +Inf; equal neighbours are
// merged, so the breakpoints are exactly where the free count changes.
// Allocations are half-open spans [s, e); a span of zero length is
// widened to [s, Nextafter(s, +Inf)) so that a zero-length job still needs
// its processors at its start instant (see Span).
//
// Complexity. A short profile is a slice: FreeAt is O(log n) for n
// breakpoints, Alloc and Release O(log n + k) for the k segments the span
// crosses plus an O(n) memory move when a breakpoint comes or goes, and
// Earliest, Fits and Replace scan the segments from the query's start,
// run by run (a maximal run of segments with too few processors, or with
// enough, costs one comparison a segment). Past 1,024 breakpoints the
// profile is cut into sorted blocks of at most 32 breakpoints, each
// block keeping its least and largest free count and a pending addition
// for all of it (lazy add): Alloc and Release tag the blocks a span covers
// whole and edit the one or two at its ends (O(n/b + b) for blocks of b,
// on contiguous memory); Earliest and Replace go step by step, where a
// step jumps from a candidate start past the last short segment of its
// window, each step skipping the blocks whose least (largest) count rules
// them out and scanning the others; Fits is one step. Below 256
// breakpoints it is a slice again. The two forms give identical answers
// and String; the tests hold both against the former slice, kept
// verbatim.
//
// From 128 breakpoints on, Replace answers from a cache instead of
// scanning: per requested CPU count p (up to 64 counts), the maximal runs
// of segments with at least p free, built lazily from the start one run at
// a time (a slice scan, or two block scans a run) as far as queries
// reach. A query is then two binary searches over the runs, O(log r) for r
// runs: the run holding from, then the first later run that ends at or
// after s0 or may hold the duration (a prefix maximum of an upper bound of
// the duration each run holds), checked exactly. A change at s keeps the
// runs that end before s (the profile keeps the suffix minima of its
// changes' starts; an Advance drops all), so repeated queries between
// changes, the re-checks of a conservative pass, cost no scan; a list
// asked for once after each change costs about a scan up to s0, more in
// the block form, which enumerates every run where its scan leaps.
//
// Free counts may go negative: a profile records what was planned, and a
// caller who over-books gets a profile that says so rather than a silent
// clamp. Earliest never places a span on a segment whose count is too low.
package freeprofile
