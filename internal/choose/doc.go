// Package choose picks an index with the smallest key, breaking ties
// uniformly at random from a given stream: the selection rule that the
// grid and gang policies share ("the least loaded site, ties random", "the
// shortest queue, ties random").
package choose
