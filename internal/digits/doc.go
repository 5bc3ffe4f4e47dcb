// Package digits appends decimal integers to byte slices, the bytes of
// strconv.AppendInt(b, v, 10), for the writers of large outputs (jobs.csv:
// a dozen numbers per job). A number below 10^8 (nearly all of a trace's
// times, ids and counts) is cut into four pairs of digits computed
// independently of one another, the pairs (from a table of the 100) are
// assembled into one 64-bit word, and the word is stored at the end of
// the slice in one write: no loop that divides by 100 one pair after the
// other and no copy from a scratch buffer (strconv's append calls memmove
// for every number, costlier than the digits for a number of a few
// bytes). Larger and negative numbers take strconv.
package digits
