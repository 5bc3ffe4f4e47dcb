// Package idmap is a hash map from integer ids to values for the hot
// paths that look jobs up by id (the central-queue model's jobs present,
// the backfilling policy's running jobs): about one lookup, insertion and
// deletion per job and pass, where Go's built-in map spent 15-20% of an
// EASY run hashing and probing.
//
// A Map is open addressing with linear probing over a power-of-two table
// kept at most half full, Fibonacci hashing of the key (the top bits of
// key x 2^64/phi: consecutive ids land far apart, and ids that differ only
// in their high bits still spread), and deletion by backward shift, so no
// tombstones accumulate however many jobs pass through. It allocates only
// when it grows (doubling, never shrinking): its size is bounded by the
// largest number of keys held at once, 32 bytes or so per cell, twice
// that in cells.
//
// Iteration order is not offered: callers that need an order keep it
// themselves, so nothing observable depends on the table's layout.
package idmap
