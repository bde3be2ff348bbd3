#!/bin/bash
# The counters of what perf record --off-cpu loses can fire, and say so: a
# workload whose threads, more than the map of the intervals written at the
# end has entries (102400), each wait once, under the threshold, fills the
# map; perf record must say how many intervals it lost and why, and the
# intervals it kept must still be there, a sample each.
set -uo pipefail
cd "$(dirname "$0")/.."
PERF=${PERF:-$PWD/build/bin/perf}
d=build/check/lost
rm -rf $d && mkdir -p $d
export PERF_CONFIG=/dev/null
fail() { echo "FAIL: $*"; exit 1; }

# 110000 threads, 8 at a time, each asleep 100 us once: one key each, as
# long as their tids are not used again: a pid_max of 32768 (this VM's)
# wraps them, raised for the test
pid_max=$(cat /proc/sys/kernel/pid_max)
if [ "$pid_max" -lt 4194304 ]; then
	echo 4194304 > /proc/sys/kernel/pid_max || fail "cannot raise pid_max ($pid_max)"
	trap 'echo $pid_max > /proc/sys/kernel/pid_max' EXIT
fi
cat > $d/threads.py <<'PY'
import threading, time
for _ in range(110000 // 8):
    ts = [threading.Thread(target=time.sleep, args=(0.0001,)) for _ in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
PY
$PERF record --off-cpu -e dummy -o $d/perf.data -- python3 $d/threads.py \
	> /dev/null 2> $d/record.err || fail "record: $(cat $d/record.err)"
grep '^off-cpu: ' $d/record.err
lost=$(sed -n 's/^off-cpu: \([0-9]*\) intervals (.* ms) lost: the map of the intervals written at the end is full (\([0-9]*\) entries).*/\1 \2/p' $d/record.err)
[ -n "$lost" ] || fail "perf record did not say that the map was full: $(cat $d/record.err)"
read -r n entries <<< "$lost"
# a sample written at the end per entry of the map (a key: a thread, its
# state and stacks); a thread waits in more than one way (its start, its
# sleep), and the workload's main thread waits for them too
samples=$($PERF script -i $d/perf.data -F tid 2> /dev/null | wc -l)
threads=$($PERF script -i $d/perf.data -F tid 2> /dev/null | sort -u | wc -l)
echo "lost $n intervals, $entries entries; $samples samples of $threads threads"
[ "$n" -gt 0 ] && [ "$entries" -gt 0 ] || fail "lost $n of a map of $entries"
# the map was full, and what it kept is there
[ "$samples" -ge $((entries * 9 / 10)) ] || fail "only $samples samples kept"
echo ok
