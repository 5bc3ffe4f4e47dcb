//go:build cgo && linux

package main

// A build with cgo (the default where a C compiler is found: package
// os/user, which the command-line parser imports, links glibc) has
// glibc give every thread that frees memory an arena of its own, each
// 64 MB of reserved address space: about 320 MB for the threads of a
// sweep, which an address-space limit (ulimit -v) counts although
// almost none of it is ever used. One arena serves the few C calls
// schedlab makes (the user lookup). Each thread the runtime starts
// through the C library also reserves a stack of the size of ulimit -s
// (8 MB by default) where Go needs a small one for its scheduler and
// those calls: 1 MB is ample. The constructor runs when the program is
// loaded, before the Go runtime starts its threads (glibc only: other C
// libraries are left as they are).

/*
#define _GNU_SOURCE
#include <pthread.h>
#if defined(__GLIBC__)
#include <malloc.h>

static void __attribute__((constructor)) schedlab_small_c_reservations(void) {
	mallopt(M_ARENA_MAX, 1);
	pthread_attr_t a;
	if (pthread_attr_init(&a) == 0) {
		if (pthread_attr_setstacksize(&a, 1 << 20) == 0) {
			pthread_setattr_default_np(&a);
		}
		pthread_attr_destroy(&a);
	}
}
#endif
*/
import "C"
