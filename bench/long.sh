#!/bin/bash
# A long system-wide recording: perf record --off-cpu -a for MINUTES
# (default 10) while two threads ping-pong through pipes without end
# (perf bench sched pipe, in a loop).  Every 10 s: perf's resident memory
# (VmRSS) and the machine's context switches per second (/proc/stat's
# ctxt).  Then what perf record said (lost, dropped), the size of the
# file, and the time perf report takes to read it.
#   bench/long.sh                 (MINUTES=10, PERF=build/bin/perf)
# A markdown table in $RESULTS (build/bench/long.md); OUT, the directory of
# what perf said (build/bench), and DATA, the file, can be put elsewhere.
set -uo pipefail
cd "$(dirname "$0")/.."
MINUTES=${MINUTES:-10}
PERF=${PERF:-$PWD/build/bin/perf}
OUT=${OUT:-$PWD/build/bench}
RESULTS=${RESULTS:-$OUT/long.md}
DATA=${DATA:-$OUT/long.data}
mkdir -p "$OUT"

ctxt() { awk '$1 == "ctxt" { print $2 }' /proc/stat; }

# the switches: one pair of threads ping-ponging, again and again
( while :; do "$PERF" bench sched pipe -l 1000000 > /dev/null 2>&1; done ) &
load=$!
trap 'kill ${load:-} ${rec:-} 2> /dev/null; pkill -f "bench sched pipe" 2> /dev/null' EXIT

"$PERF" record --off-cpu -a -o "$DATA" -- sleep $((MINUTES * 60)) > "$OUT/long.out" 2>&1 &
rec=$!
{
	echo "# perf record --off-cpu -a for $MINUTES minutes, perf bench sched pipe running"
	echo
	echo "$("$PERF" --version), $(uname -r), $(nproc) CPUs"
	echo
	echo "| time (s) | switches/s | perf VmRSS (MB) |"
	echo "|---|---|---|"
} > "$RESULTS"
t=0 c0=$(ctxt)
while kill -0 $rec 2> /dev/null; do
	sleep 10
	t=$((t + 10)) c1=$(ctxt)
	rss=$(awk '/^VmRSS/ { printf "%.1f", $2 / 1024 }' /proc/$rec/status 2> /dev/null) || break
	[ -n "$rss" ] || break
	echo "| $t | $(( (c1 - c0) / 10 )) | $rss |" >> "$RESULTS"
	c0=$c1
done
wait $rec
rc=$?
kill $load 2> /dev/null
start=$(date +%s)
"$PERF" report -i "$DATA" --stdio -q --sort comm > "$OUT/long.report" 2> "$OUT/long.report.err"
rrc=$?
{
	echo
	echo "perf record: exit $rc; it said:"
	echo
	sed 's/^/    /' "$OUT/long.out"
	echo
	echo "file: $(du -m "$DATA" | cut -f1) MB; perf report: exit $rrc in $(( $(date +%s) - start )) s;"
	echo "it said: $(grep -v '^off-cpu: .* user callchains cut' "$OUT/long.report.err" | sort | uniq -c | head -5 | tr '\n' ' ')"
	# the samples perf script reads: from the first to the last
	"$PERF" script -i "$DATA" -F time 2> /dev/null | tr -d : |
		awk '{ n++; if (!min || $1 < min) min = $1; if ($1 > max) max = $1 }
		     END { printf "perf script: %d samples over %.1f s\n", n, max - min }'
} >> "$RESULTS"
cat "$RESULTS"
