// Package grid holds the policies of the two-level grid of
// zikos-karatza-2008 (docs/papers/zikos2008.md): grid-scheduler dispatch (random,
// real-time, deferred with an allocation interval, hybrid) and local
// processor selection (random, shortest queue, two random choices).
//
// Each policy has a typed constructor (NewRandom, NewRealTime, NewDeferred,
// NewHybrid; NewRandomLocal, NewShortestQueue, NewTwoRandom). Their names
// and options are listed by package registry, which builds them; this
// package keeps no list of names.
//
// Informed grid policies compare site loads (jobs queued plus in service;
// divided by the site's processor count when NormalizeLoad is set, for
// heterogeneous sites). With Options.PreferIdle they first restrict the
// choice to sites that have an idle processor (the paper's "LSs send the
// GS the number of free processors"); the registry sets it from the local
// scheduler's PreferIdle trait, which shortest queue has. Ties are broken
// uniformly at random from the policy's own stream.
//
// Heterogeneous sites (the paper's proposed extension; our reading): with
// NormalizeLoad, informed policies compare jobs per processor and random
// dispatch picks a site with probability proportional to its processors
// (uniform choice would overload small sites).
//
// Deferred: every arrival waits in the grid scheduler's FCFS queue; at the
// end of each allocation interval (A_I, 2 A_I, ...) all waiting jobs are
// dispatched in FCFS order, each to the least loaded site, loads updated as
// jobs are placed. Hybrid: a job arriving in the first RandomFraction x A_I
// of an interval goes to a random site at once; later arrivals are deferred
// to the interval's end. RandomFraction 0 is Deferred, 1 is Random.
package grid
