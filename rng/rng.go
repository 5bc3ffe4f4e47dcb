package rng

import (
	"hash/fnv"
	"math/rand/v2"
)

// Purposes used across schedlab; any string works, these keep names
// consistent.
const (
	Arrivals     = "arrivals"
	Service      = "service"
	GangArrivals = "gang-arrivals"
	GangSizes    = "gang-sizes"
	Estimates    = "estimate-errors"
	GridChoice   = "grid-choice"
	LocalChoice  = "local-choice"
)

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// New returns the stream for (seed, replication, purpose).
func New(seed uint64, replication int, purpose string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(purpose))
	p := h.Sum64()
	a := splitmix(seed ^ splitmix(uint64(replication)+0x632be59bd9b4e019))
	b := splitmix(a ^ p)
	return rand.New(rand.NewPCG(a, b))
}
