package inproc

import (
	"iter"
	"runtime"
	"testing"
)

// BenchmarkHandoff compares the two ways to hand a request to the caller
// and a decision back: a coroutine (iter.Pull, what Sim uses) and a
// goroutine with two unbuffered channels. ns/op is one round trip. The
// caller's goroutine is locked to its thread, as a C caller's is.
func BenchmarkHandoff(b *testing.B) {
	b.Run("coroutine", func(b *testing.B) {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		var dec int
		next, stop := iter.Pull(func(yield func(int) bool) {
			for i := 0; ; i++ {
				if !yield(i) {
					return
				}
				_ = dec
			}
		})
		defer stop()
		for b.Loop() {
			dec++
			next()
		}
	})
	b.Run("channel", func(b *testing.B) {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		req, rep := make(chan int), make(chan int)
		go func() {
			for i := 0; ; i++ {
				req <- i
				if _, ok := <-rep; !ok {
					return
				}
			}
		}()
		<-req
		for b.Loop() {
			rep <- 1
			<-req
		}
		close(rep)
	})
}
