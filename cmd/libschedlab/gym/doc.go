// Package gym is the in-process side of Python's Gymnasium environment
// (python/schedlab/gym.py, SchedulingEnv with engine="inprocess"): it
// drives a run of `schedlab run --policy external` (cmd/libschedlab/inproc)
// one agent step at a time and writes the observation and the action
// mask into buffers the caller owns (for Python, numpy arrays), so that
// a step costs the environment one call into the library and two
// copies, with no per-job work in Python.
//
// An Env keeps a window of the queue: the first Window waiting jobs not
// yet picked at this instant, in queue order (submit time, then id). A
// step picks one of them (the slot's job leaves the window, the later
// ones move up one, the next waiting job enters the last slot); while
// some job of the window fits the CPUs still free, the instant goes on;
// when none does, the instant's picks are the decision handed to the run,
// which runs on to the next instant at which some job of the window fits
// (instants where none fits are answered with no start), or to its end.
//
// The observation's numbers are chosen by name (Config.Features, from
// the list Declared: per slot or for the machine, meaning, scale; see
// features.go); the default, DefaultFeatures, is the layout below. The
// features beyond it (a user's waiting jobs and CPU-seconds used, the
// running jobs' estimated remaining times, the queue's estimated work)
// come from the episode's own starts and the ends the engine reports,
// which the Env keeps in start order (no map order reaches a number).
// Env.Wait is the wait of the job the last Step started (Python's
// step_wait reward, for sl_gym_vstep).
//
// With the default features, the observation and the mask are exactly those the environment builds
// in Python for engine="process" (python/schedlab/gym.py, _obs and
// _mask): per slot [present, CPUs / machine CPUs, estimate / TimeScale,
// waited / TimeScale, fits now], zeros for empty slots, then [free CPUs
// / CPUs, running jobs / CPUs, waiting jobs / QueueScale]; each value
// computed in float64, clipped to [0, 1], then rounded to float32 (the
// order does not change the float32 value: rounding is monotonic and 0
// and 1 are exact). The Python tests check the two engines' trajectories
// against each other bit for bit.
//
// On a platform of nodes (Config.Nodes, the run's node groups) the
// Env keeps what is free on the nodes (a nodes.State of the episode's
// starts, checked at every instant against the engine's view of the
// nodes the request reports changed): a job fits when the engine's
// selection rule places it on what is still free (docs/nodes.md,
// "Allocation"), which the mask and "fits" say; a pick is placed by
// that rule, by the engine as here (the start names no nodes). An
// action whose job does not fit is replaced by the first legal slot,
// as on the pool. The observation gains, per slot, the job's request
// (req_*: nodes, tasks, CPUs per task, memory per node and per CPU,
// GRES per node and per job, exclusive), and after the machine's
// numbers, per node in id order, its free cores, memory and GRES
// (node_*); a per-kind feature is one number per GRES kind of the
// platform (nodes.Nodes.Kinds order). DefaultNodeFeatures is the
// default there. "cpus" and "free_cpus" count the nodes' cores.
//
// An Env is not safe for concurrent use; its run is a coroutine of the
// thread that drives it (package inproc).
package gym
