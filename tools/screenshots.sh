#!/bin/sh
# Regenerates the screenshots of docs/report.md, docs/img/report-*.png:
# the HTML report's sweep page (its top, and its paired differences),
# a comparison of three runs, a run with partitions and a reproduction,
# each in headless Chromium with a window 1,400 px wide.
#
# Usage: tools/screenshots.sh [OUTDIR]   (default docs/img; run from anywhere)
#
# Needs Go and Chromium (Debian: apt-get install chromium). The inputs are
# made here, from the 40-job trace of the report's tests, so the pictures
# change only when the pages do.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/docs/img}
mkdir -p "$out"
out=$(cd "$out" && pwd)
chromium=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$chromium" ]; then
	echo "screenshots.sh: no chromium on PATH (apt-get install chromium)" >&2
	exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && go build -o "$work/schedlab" ./cmd/schedlab)
sl=$work/schedlab
tiny=$root/report/htmlreport/testdata/tiny.swf

# shot PAGE PNG HEIGHT: the top of PAGE in a 1400 x HEIGHT window.
shot() {
	"$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
		--user-data-dir="$work/profile" --virtual-time-budget=10000 \
		--window-size=1400,"$3" --screenshot="$2" "file://$1" 2>/dev/null
	echo "wrote $2 ($(wc -c <"$2") bytes)"
}

# part PAGE CSS: a copy of PAGE with the style CSS added, which hides
# what comes before the part to show (a screenshot cannot scroll).
part() {
	sed "s|</head>|<style>$2</style></head>|" "$1" >"${1%.html}-part.html"
	echo "${1%.html}-part.html"
}

# A sweep: two traces under long names (as the archive's are) and three
# queue policies, two replications made distinct by failures; the
# scenario of the browser test TestBrowserSweepLayout, whose site B is
# here the 40-job trace with its submissions 30% closer together.
cd "$work"
cp "$tiny" LONGNAME-SITE-A-1996-2.1-cln.swf
awk '/^;/ { print; next } { $2 = int($2 * 0.7); print }' "$tiny" >LONGNAME-SITE-B-2000-4.2-cln.swf
cat >sweep.yaml <<'EOF'
name: two traces, three policies
model: cluster
seed: 3
replications: 2
stop: trace
platform:
  procs: 16
  failures: {mtbf: 3000, mttr: 300, group: 4}
workload:
  trace: [LONGNAME-SITE-A-1996-2.1-cln.swf, LONGNAME-SITE-B-2000-4.2-cln.swf]
  estimate: request
policy:
  queue: [fcfs, easy, conservative]
EOF
"$sl" sweep sweep.yaml --out sw >/dev/null 2>&1
"$sl" report sw >/dev/null
shot "$work/sw/report.html" "$out/report-sweep.png" 1000
# its paired differences: everything before them hidden
shot "$(part "$work/sw/report.html" 'body > *:not(h1, #pairs, #pairs ~ *) { display: none; }')" "$out/report-sweep-pairs.png" 1000

# A comparison of three policies on the 40-job trace.
for p in easy fcfs conservative; do
	"$sl" run --trace "$tiny" --policy "$p" --out "run-$p" >/dev/null
done
"$sl" report run-easy run-fcfs run-conservative --out compare.html >/dev/null
shot "$work/compare.html" "$out/report-compare.png" 1000

# A run with two partitions: the 40-job trace with its jobs of up to 4
# CPUs in partition 2 (debug, CPUs 12-15) and the others in 1 (batch,
# CPUs 0-11; its 13-CPU jobs are refused, and the page counts them).
{
	echo "; Partition: 1 batch"
	echo "; Partition: 2 debug"
	awk '/^;/ { print; next } { $16 = ($5 <= 4) ? 2 : 1; print }' "$tiny"
} >parts.swf
"$sl" run --trace parts.swf --policy easy --partition batch:0-11 --partition debug:12-15:maxtime=900 --out run-parts >/dev/null 2>&1
"$sl" report run-parts >/dev/null
# the headline and the schedule: the summary table hidden
shot "$(part "$work/run-parts/report.html" 'table.summary:not(.headline):not(.partitions), h2:has(+ table.summary:not(.headline):not(.partitions)) { display: none; }')" "$out/report-partitions.png" 1350

# A reproduction: the quick zikos2008 folder of the report's tests.
cp -r "$root/report/htmlreport/testdata/repro" repro
"$sl" report repro/zikos2008 >/dev/null
shot "$work/repro/zikos2008/report.html" "$out/report-reproduction.png" 1000
