#!/usr/bin/env bash
# pgo.sh: remake cmd/schedlab/default.pgo, the CPU profile 'go build'
# uses for profile-guided optimisation of the schedlab command (Go picks
# default.pgo in the main package's folder by itself): the whole-run
# benchmarks of FCFS, EASY and conservative on HPC2N-2002, and of EASY
# on HPC2N's CPUs as 120 nodes of 2 cores (experiment/bench_test.go). PGO changes how the code is compiled
# (inlining and devirtualising the hot interface calls of the backfill
# planner), never what it computes: the goldens and 'reproduce all' give
# the same bytes with and without it.
#
#   tools/pgo.sh [TRACE_DIR]     # default ../shared/traces beside the repository
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-../shared/traces}
SCHEDLAB_TRACES=$dir go test ./experiment -run '^$' -bench 'HPC2N(FCFS|EASY|Conservative|EASYNodes)$' -benchtime 8x -cpuprofile cmd/schedlab/default.pgo
rm -f experiment.test
echo "wrote cmd/schedlab/default.pgo"
