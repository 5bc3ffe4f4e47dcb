// Package endheap is a typed binary min-heap of jobs by a time (an
// estimated or predicted end) and then id, the one the backfilling
// engine (running jobs by estimated end, to find overruns) and the
// predicting layer (running jobs by predicted end, to correct them)
// both keep. Typed, not container/heap: no interface calls, no boxing.
package endheap
