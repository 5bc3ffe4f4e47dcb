// Package profile is a time-availability profile of a pool of identical
// processors: a step function giving, for every future instant, how many
// processors are free once running jobs and reservations are accounted for
// (Fluxion's "planner").
//
// A profile is a sorted slice of breakpoints. Segment i covers
// [t_i, t_{i+1}) and the last one extends to +Inf. Allocations are
// half-open spans [s, e); a span of zero length is widened to
// [s, Nextafter(s, +Inf)) so that a zero-length job still needs its
// processors at its start instant (see Span).
//
// Complexity: Earliest, Fits, Alloc and Release are O(log n + k), where n is
// the number of breakpoints and k the number of segments the span crosses;
// Alloc and Release may move O(n) memory when they add a breakpoint. With the
// queue lengths of real traces (n in the hundreds) a slice beats a tree.
//
// Free counts may go negative: a profile records what was planned, and a
// caller who over-books gets a profile that says so rather than a silent
// clamp. Earliest never places a span on a segment whose count is too low.
package profile
