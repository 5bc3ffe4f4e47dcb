#!/usr/bin/env bash
# perftable.sh: re-measure the speed table of docs/performance.md.
#
#   tools/perftable/perftable.sh [-r ROUNDS] [-b BASE_REV] [-d TRACE_DIR] [SECTION ...]
#
# SECTION is one or more of
#   hpc2n   read limit (klauspost/compress gzip, schedlab's, and the
#           standard library's), plaineasy, FCFS, EASY, conservative on
#           HPC2N-2002 (whole process, jobs.csv written; the default)
#   queue   conservative on HPC2N with --procs 240, 220, 200 (--no-out)
#   length  read limit, FCFS, EASY, conservative on HPC2N repeated 1x, 5x
#           and 25x (schedlab trace repeat --gap 3600; jobs.csv written)
#   ricc    read limits, EASY and conservative on RICC-2010, --procs 8192
#           (--no-out; conservative takes minutes with old revisions)
#   nodes   EASY and conservative on a pool of CPUs beside the same
#           machine as nodes (--no-out): HPC2N on 240 CPUs and on 120
#           nodes x 2 cores (also with --node-planner nodes), RICC on
#           8,192 CPUs and on 1,024 nodes x 8 cores (the working tree's
#           binary only; docs/nodes.md)
#
# Every command of a round runs once per binary, rounds interleaved, so
# that a drift of the machine's speed hits old and new alike; with two
# binaries, they take turns going first. -b BASE_REV
# also builds schedlab at that git revision and times it beside the
# working tree's. The table gives the median wall time of each command
# (date +%s%N around the process, in seconds), its range over the rounds,
# and the median as a multiple of the read limit of the same trace. TRACE_DIR defaults to ../shared/traces
# beside the repository. Needs bash, go, git, awk and GNU date.
set -euo pipefail

rounds=5 base="" dir=""
while getopts "r:b:d:" o; do
	case $o in
	r) rounds=$OPTARG ;;
	b) base=$OPTARG ;;
	d) dir=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
sections=("$@")
[ ${#sections[@]} -gt 0 ] || sections=(hpc2n)
for s in "${sections[@]}"; do
	case $s in hpc2n | queue | length | ricc | nodes) ;; *)
		echo "perftable: unknown section $s (want hpc2n, queue, length, ricc or nodes)" >&2
		exit 2
		;;
	esac
done
case $rounds in '' | *[!0-9]* | 0) echo "perftable: -r $rounds: want a positive number of rounds" >&2; exit 2 ;; esac

repo=$(cd "$(dirname "$0")/../.." && pwd)
dir=${dir:-$repo/../shared/traces}
hpc2n=$dir/HPC2N-2002-2.1-cln.swf.gz
ricc=$dir/RICC-2010-2.swf.gz
[ -f "$hpc2n" ] || { echo "perftable: $hpc2n not found (give the trace folder with -d)" >&2; exit 1; }

work=$(mktemp -d /tmp/perftable.XXXXXX)
trap 'rm -rf "$work"' EXIT
echo "building into $work" >&2
(cd "$repo" && go build -o "$work/readlimit" ./tools/readlimit && go build -o "$work/plaineasy" ./tools/plaineasy &&
	go build -o "$work/new" ./cmd/schedlab)
bins=(new)
if [ -n "$base" ]; then
	git -C "$repo" worktree add -q --detach "$work/src-base" "$base"
	(cd "$work/src-base" && go build -o "$work/base" ./cmd/schedlab)
	git -C "$repo" worktree remove --force "$work/src-base"
	bins=(base new)
fi
times=$work/times
: >"$times"

# t LABEL CMD...: time one command, append "LABEL seconds" to $times.
# The output folder of a run (named after --out) is removed first, untimed:
# replacing the larger jobs.csv of another trace length would be timed too.
t() {
	local label=$1
	shift
	local t0 t1 a prev=""
	for a in "$@"; do
		[ "$prev" != --out ] || rm -rf "$a"
		prev=$a
	done
	sync
	t0=$(date +%s%N)
	if ! "$@" >"$work/log" 2>&1; then
		echo "perftable: $label failed:" >&2
		cat "$work/log" >&2
		exit 1
	fi
	t1=$(date +%s%N)
	echo "$label $(((t1 - t0) / 1000000))" | awk '{ printf "%s %.3f\n", $1, $2 / 1000 }' >>"$times"
}

for s in "${sections[@]}"; do
	if [ "$s" = length ]; then
		for n in 5 25; do
			[ -f "$work/hpc2n-x$n.swf.gz" ] || "$work/new" trace repeat "$hpc2n" --times $n --gap 3600 --out "$work/hpc2n-x$n.swf.gz" >&2
		done
	fi
	if { [ "$s" = ricc ] || [ "$s" = nodes ]; } && [ ! -f "$ricc" ]; then
		echo "perftable: $ricc not found" >&2
		exit 1
	fi
done

for r in $(seq "$rounds"); do
	echo "round $r of $rounds" >&2
	# The binaries take turns going first: the second of two runs in a row
	# tends to be a little faster (measured about 5%), which a fixed order
	# would give to one of them.
	order=("${bins[@]}")
	if [ $((r % 2)) = 0 ] && [ ${#bins[@]} = 2 ]; then
		order=("${bins[1]}" "${bins[0]}")
	fi
	for s in "${sections[@]}"; do
		case $s in
		hpc2n)
			t "hpc2n:readlimit" "$work/readlimit" "$hpc2n"
			t "hpc2n:readlimit-std" "$work/readlimit" -gzip std "$hpc2n"
			t "hpc2n:plaineasy" "$work/plaineasy" "$hpc2n"
			for p in fcfs easy conservative; do
				for b in "${order[@]}"; do
					t "hpc2n:$p:$b" "$work/$b" run --trace "$hpc2n" --policy $p --out "$work/out-$b-$p"
				done
			done
			;;
		queue)
			for n in 240 220 200; do
				for b in "${order[@]}"; do
					t "queue:conservative-$n:$b" "$work/$b" run --trace "$hpc2n" --policy conservative --procs $n --no-out
				done
			done
			;;
		length)
			for n in 1 5 25; do
				tr=$hpc2n
				[ $n = 1 ] || tr=$work/hpc2n-x$n.swf.gz
				t "x$n:readlimit" "$work/readlimit" "$tr"
				for p in fcfs easy conservative; do
					for b in "${order[@]}"; do
						t "x$n:$p:$b" "$work/$b" run --trace "$tr" --policy $p --out "$work/len-$b-$p"
					done
				done
			done
			;;
		ricc)
			t "ricc:readlimit" "$work/readlimit" "$ricc"
			t "ricc:readlimit-std" "$work/readlimit" -gzip std "$ricc"
			for p in easy conservative; do
				for b in "${order[@]}"; do
					t "ricc:$p:$b" "$work/$b" run --trace "$ricc" --policy $p --procs 8192 --no-out
				done
			done
			;;
		nodes)
			t "nodes-hpc2n:readlimit" "$work/readlimit" "$hpc2n"
			t "nodes-ricc:readlimit" "$work/readlimit" "$ricc"
			for p in easy conservative; do
				t "nodes-hpc2n:$p-pool" "$work/new" run --trace "$hpc2n" --policy $p --procs 240 --no-out
				t "nodes-hpc2n:$p-nodes" "$work/new" run --trace "$hpc2n" --policy $p --nodes "n[001-120]:cores=2" --no-out
				# the node version, as a job table with requests gets it
				t "nodes-hpc2n:$p-nodeplanner" "$work/new" run --trace "$hpc2n" --policy $p --nodes "n[001-120]:cores=2" --node-planner nodes --no-out
				t "nodes-ricc:$p-pool" "$work/new" run --trace "$ricc" --policy $p --procs 8192 --no-out
				t "nodes-ricc:$p-nodes" "$work/new" run --trace "$ricc" --policy $p --nodes "n[0001-1024]:cores=8" --no-out
			done
			;;
		esac
	done
done

# The table: label, median, range, median / the trace's read-limit median.
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
awk '
{ v[$1] = v[$1] " " $2; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
function median(s,   a, k, i, j, x) {
	k = split(s, a, " ")
	for (i = 2; i <= k; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
	lo = a[1]; hi = a[k]
	return (k % 2) ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
}
END {
	for (i = 1; i <= n; i++) { l = order[i]; split(l, p, ":"); if (p[2] == "readlimit") rl[p[1]] = median(v[l]) }
	printf "| %-32s | %8s | %-13s | %8s |\n", "measure", "median s", "range s", "x read"
	printf "|%s|%s|%s|%s|\n", "----------------------------------", "----------", "---------------", "----------"
	for (i = 1; i <= n; i++) {
		l = order[i]; m = median(v[l]); split(l, p, ":")
		x = (p[1] in rl && rl[p[1]] > 0) ? sprintf("%.2f", m / rl[p[1]]) : "-"
		printf "| %-32s | %8.3f | %5.3f - %5.3f | %8s |\n", l, m, lo, hi, x
	}
}' "$times"
