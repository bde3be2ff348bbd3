#!/bin/bash
# No silent loss: the off-CPU time perf reports for a thread (the sum of
# its samples' periods) is what the thread spent off CPU, whatever the
# threshold, and what perf could not keep it counts and says.
#
# An off-CPU interval runs from going to sleep to running again: it is at
# least the time blocked (wall - on CPU - runqueue waits) and at most wall -
# on CPU (which also has the runqueue waits after preemptions, not off-CPU
# intervals).  Under light load the two are close.  The workloads measure
# both from /proc/self/task/TID/schedstat; perf must fall in between, within
# 1% + 5 ms.
set -uo pipefail
cd "$(dirname "$0")/.."
out=build/check/conservation
mkdir -p $out
fail=0

within() {	# what value low high: low*0.99-5ms <= value <= high*1.01+5ms
	awk -v w="$1" -v v="$2" -v lo="$3" -v hi="$4" 'BEGIN {
		ok = v >= lo * 0.99 - 5e6 && v <= hi * 1.01 + 5e6
		printf "%-4s %-28s perf %9.2f ms, blocked %9.2f ms, off CPU %9.2f ms (%+.2f%%)\n",
		       ok ? "ok" : "FAIL", w, v / 1e6, lo / 1e6, hi / 1e6, (v - hi) * 100 / hi
		exit !ok }'
}

# per thread of the demo, thresholds 0 (all direct), 500 with a sleeper of
# 600 msec (some direct), huge (all at the end)
for thresh in 0 500 100000; do
	d=$out/t$thresh
	mkdir -p $d
	$PERF record -q --off-cpu --off-cpu-thresh $thresh -e dummy -o $d/perf.data -- \
		"$WORKLOADS/offcpu-demo" -r 5 -m 50 -S 12 -f $d/fsync.tmp > $d/workload.txt
	# tid time: period state direct|aggregated
	$PERF script -i $d/perf.data -F tid,time,period,offcpu 2> /dev/null > $d/samples
	awk '{ s[$1] += $3 } END { for (t in s) print t, s[t] }' $d/samples > $d/totals
	while read -r tid comm offcpu blocked rest; do
		[ "$tid" = "#" ] && continue
		v=$(awk -v t="$tid" '$1 == t { print $2 }' $d/totals)
		within "thresh $thresh: $comm" "${v:-0}" "$blocked" "$offcpu" || fail=1
	done < $d/workload.txt
	# where the samples come from: output directly or written at the end
	# (aggregated), as their raw data says; either way with a real time,
	# those at the end when recording stopped, after all the others
	direct=$(awk '$5 == "direct" { n++ } END { print n + 0 }' $d/samples)
	atend=$(awk '$5 == "aggregated" { n++ } END { print n + 0 }' $d/samples)
	echo "     thresh $thresh: $direct direct samples, $atend written at the end"
	[ $((direct + atend)) = "$(wc -l < $d/samples)" ] || { echo "FAIL samples neither direct nor aggregated"; fail=1; }
	awk '$5 == "direct" && $2 + 0 > last_direct { last_direct = $2 + 0 }
	     $5 == "aggregated" && (first_end == "" || $2 + 0 < first_end) { first_end = $2 + 0 }
	     $2 + 0 <= 0 || $2 + 0 >= 18446744069 { bad = 1 }
	     END { exit bad || (first_end != "" && first_end < last_direct) }' $d/samples ||
		{ echo "FAIL times: samples at the end must have a real time, after the direct ones"; fail=1; }
	case $thresh in
	0) [ "$atend" = 0 ] || { echo "FAIL samples at the end with threshold 0"; fail=1; } ;;
	500) [ "$direct" -gt 0 ] && [ "$atend" -gt 0 ] || { echo "FAIL no mix"; fail=1; } ;;
	100000) [ "$direct" = 0 ] || { echo "FAIL direct samples"; fail=1; } ;;
	esac
done

# the map of aggregated intervals overflows: 20 threads x 10000 callchains
d=$out/full
mkdir -p $d
$PERF record --off-cpu -e dummy -o $d/perf.data -- \
	"$WORKLOADS/many-stacks" -t 20 -n 10000 > $d/workload.txt 2> $d/record.err
lost=$(sed -n 's/^Warning: \([0-9]*\) off-cpu intervals (\([0-9.]*\) ms) lost: .*/\1 \2/p' $d/record.err)
echo "     full map: ${lost:-no} intervals (ms) lost, says perf record"
[ -n "$lost" ] || { echo "FAIL no warning"; cat $d/record.err; fail=1; }
reported=$($PERF report -i $d/perf.data --stdio 2> /dev/null | sed -n 's/^# Total Lost Samples: //p')
[ "$reported" = "${lost%% *}" ] || { echo "FAIL perf report lost samples: $reported"; fail=1; }
# the workload's threads, not its main thread waiting for them
kept=$($PERF script -i $d/perf.data -F pid,tid,period 2> /dev/null |
	awk '{ split($1, a, "/"); if (NF == 3 && $1 != $2) s += $3; else if (NF == 2 && a[1] != a[2]) s += $2 }
	     END { print s + 0 }')
read -r _ offcpu _ blocked < $d/workload.txt
total=$(awk -v k="$kept" -v l="${lost#* }" 'BEGIN { printf "%.0f", k + l * 1e6 }')
within "full map: kept + lost" "$total" "$blocked" "$offcpu" || fail=1

# direct samples overflow a small ring buffer: they go to the map instead
d=$out/ring
mkdir -p $d
$PERF record --off-cpu --off-cpu-thresh 0 -m 1 -e dummy -o $d/perf.data -- \
	$PERF bench sched messaging -l 100 > /dev/null 2> $d/record.err
fallbacks=$(sed -n 's/^\([0-9]*\) off-cpu samples did not fit in the ring buffer.*/\1/p' $d/record.err)
atend=$($PERF script -i $d/perf.data -F offcpu 2> /dev/null | awk '$2 == "aggregated" { n++ } END { print n + 0 }')
echo "     small ring buffer: ${fallbacks:-no} samples written at the end instead ($atend at the end)"
if [ -z "$fallbacks" ] || [ "$atend" = 0 ]; then
	echo "FAIL no fallback to the end"; cat $d/record.err; fail=1
fi
exit $fail
