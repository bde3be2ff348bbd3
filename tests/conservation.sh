#!/bin/bash
# Per thread of workloads/offcpu-demo, with a busy loop on every CPU:
# perf's off-CPU time (the sum of the periods of its samples) is at least
# the time the thread was blocked (wall - on CPU - run queue waits, from its
# own /proc/self/task/TID/schedstat) and at most wall - on CPU (which also
# has the waits after preemptions, not off-CPU intervals), within 1% + 5 ms;
# perf's run queue time is at most the thread's run queue waits, and its
# blocked time the thread's, within the same margin.  Samples
# output directly (threshold 0) and written at the end (100000 ms).
set -uo pipefail
cd "$(dirname "$0")/.."
PERF=${PERF:-$PWD/build/bin/perf}
out=${CHECK_OUT:-build/check}/conservation	# CHECK_OUT: in a guest
mkdir -p $out
[ -n "${CHECK_OUT:-}" ] || make -s -C workloads OUT="$PWD/build/workloads" || exit 1
fail=0

loops=""
for cpu in $(seq 0 $(($(nproc) - 1))); do
	taskset -c "$cpu" sh -c 'while :; do :; done' &
	loops="$loops $!"
done
trap 'kill $loops 2> /dev/null' EXIT

for thresh in 0 100000; do
	d=$out/t$thresh
	mkdir -p $d
	$PERF record -q --off-cpu --off-cpu-thresh $thresh -e dummy -o $d/perf.data -- \
		build/workloads/offcpu-demo -r 5 -m 50 -S 12 -f $d/fsync.tmp > $d/workload.txt || exit 1
	# tid period state direct|aggregated [blocked B ms runq R ms]
	$PERF script -i $d/perf.data -F tid,period,offcpu 2> /dev/null |
		awk '{ total[$1] += $2; if ($8 == "runq") runq[$1] += $9 * 1e6; else nosplit++ }
		     END { for (t in total) print t, total[t], runq[t] + 0; if (nosplit) print "nosplit", nosplit }' > $d/totals
	if grep -q nosplit $d/totals; then
		echo "FAIL thresh $thresh: $(awk '$1 == "nosplit" { print $2 }' $d/totals) samples without run queue time"
		fail=1
	fi
	while read -r tid comm offcpu blocked wall run runq rest; do
		[ "$tid" = "#" ] && continue
		awk -v w="thresh $thresh: $comm" -v off="$offcpu" -v blk="$blocked" -v rq="$runq" \
		    -v t="$tid" '$1 == t { total = $2; prq = $3 }
			END {
				ok = total >= blk * 0.99 - 5e6 && total <= off * 1.01 + 5e6 &&
				     prq <= rq * 1.01 + 5e6 && total - prq >= blk * 0.99 - 5e6 &&
				     total - prq <= blk * 1.01 + 5e6
				printf "%-4s %-24s perf %8.2f ms (blocked %8.2f runq %6.2f), thread: blocked %8.2f, off CPU %8.2f, runq %6.2f ms\n",
				       ok ? "ok" : "FAIL", w, total / 1e6, (total - prq) / 1e6, prq / 1e6,
				       blk / 1e6, off / 1e6, rq / 1e6
				exit !ok
			}' $d/totals || fail=1
	done < $d/workload.txt
done
exit $fail
