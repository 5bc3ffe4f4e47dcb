package choose

import (
	"math/rand/v2"
	"testing"
)

func TestMin(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var ties []int
	keys := []int{3, 1, 4, 1, 5}
	key := func(i int) int { return keys[i] }
	seen := map[int]int{}
	for k := 0; k < 200; k++ {
		seen[Min(len(keys), key, nil, r, &ties)]++
	}
	if len(seen) != 2 || seen[1] == 0 || seen[3] == 0 {
		t.Fatalf("ties between 1 and 3 should both be drawn: %v", seen)
	}
	if got := Min(len(keys), key, func(i int) bool { return i != 1 && i != 3 }, r, &ties); got != 0 {
		t.Fatalf("with 1 and 3 excluded: %d, want 0", got)
	}
	if got := Min(len(keys), key, func(int) bool { return false }, r, &ties); got != -1 {
		t.Fatalf("nothing allowed: %d", got)
	}
	// A unique minimum draws nothing from the stream.
	r1, r2 := rand.New(rand.NewPCG(5, 5)), rand.New(rand.NewPCG(5, 5))
	Min(3, func(i int) int { return i }, nil, r1, &ties)
	if r1.Uint64() != r2.Uint64() {
		t.Fatal("a unique minimum consumed a random draw")
	}
}
