// Package rng derives independent, reproducible random streams: one per
// (master seed, replication, purpose), as docs/architecture.md describes.
//
// Two runs with the same seed and replication get the same stream for the
// same purpose whatever else they draw: a policy that makes random choices
// cannot shift the arrival times or service demands another policy sees
// (common random numbers). Streams are math/rand/v2 PCG generators seeded
// through SplitMix64 of the three coordinates, so nearby seeds give
// unrelated streams.
package rng
