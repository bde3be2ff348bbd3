#!/bin/bash
# Does this kernel trace every context switch?  Records sched:sched_switch
# system wide (no BPF) while 'perf bench sched pipe' runs, then follows each
# task: a switch in with no switch out traced since its last switch in (or
# the reverse) is a switch the tracepoint did not show.  Prints the count of
# each, and the tasks they were seen for, with their process.
#   bench/untraced.sh [seconds] [perf]
set -uo pipefail
SECS=${1:-20}
PERF=${2:-$(dirname "$0")/../build/bin/perf}
DATA=$(mktemp /tmp/untraced.XXXXXX)
trap 'rm -f "$DATA" "$DATA.old"' EXIT

"$PERF" bench sched pipe -l 100000000 > /dev/null 2>&1 &
load=$!
"$PERF" record -q -m 16M -e sched:sched_switch -a -o "$DATA" -- sleep "$SECS" 2> /dev/null
kill $load 2> /dev/null
wait 2> /dev/null
"$PERF" report -i "$DATA" --stats 2> /dev/null | grep -i lost
"$PERF" script -i "$DATA" -F time,trace 2> /dev/null | python3 -c '
import sys, re, collections
pat = re.compile(r"prev_comm=(.*) prev_pid=(\d+) .* ==> next_comm=(.*) next_pid=(\d+) ")
last, twice, n = {}, collections.Counter(), 0
for line in sys.stdin:
    m = pat.search(line)
    if not m:
        continue
    n += 1
    for comm, tid, way in ((m[1], int(m[2]), "out"), (m[3], int(m[4]), "in")):
        if tid and last.get(tid) == way:
            twice[(way, tid, comm)] += 1
        last[tid] = way
def tgid(tid):
    try:
        return open(f"/proc/{tid}/status").read().split("Tgid:")[1].split()[0]
    except OSError:
        return "-"
print(f"{n} switches traced in {sys.argv[1]} s")
for way in ("in", "out"):
    c = [(k, v) for k, v in twice.items() if k[0] == way]
    print(f"switched {way} twice: {sum(v for _, v in c)}")
    for (_, tid, comm), v in sorted(c, key=lambda x: -x[1])[:5]:
        print(f"  {v:6d}  {comm} {tid} (process {tgid(tid)})")
' "$SECS"
