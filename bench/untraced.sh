#!/bin/bash
# Does this kernel trace every context switch?  Records sched:sched_switch
# system wide while 'perf bench sched pipe' runs, then follows each task: a
# switch in with no switch out recorded since its last switch in (or the
# reverse) is a switch perf's records do not show.  Prints the count of
# each, and the tasks they were seen for, with their process, and per CPU
# the switches to and from its idle task (swapper).  Beside it,
# perf record --off-cpu -a of the same perf says what it lost: what perf's
# records lack, the BPF program may still see (bench/RESULTS.md).
#   bench/untraced.sh [seconds] [perf]
set -uo pipefail
SECS=${1:-20}
PERF=${2:-$(dirname "$0")/../build/bin/perf}
DATA=$(mktemp /tmp/untraced.XXXXXX)
trap 'rm -f "$DATA" "$DATA.old" "$DATA.off" "$DATA.err"' EXIT

"$PERF" bench sched pipe -l 100000000 > /dev/null 2>&1 &
load=$!
"$PERF" record -q --off-cpu -e dummy -a -o "$DATA.off" -- sleep "$SECS" 2> "$DATA.err" &
off=$!
"$PERF" record -q -m 16M -e sched:sched_switch -a -o "$DATA" -- sleep "$SECS" 2> /dev/null
wait $off
kill $load 2> /dev/null
wait 2> /dev/null
echo "perf record --off-cpu -a beside it:"
grep '^off-cpu:' "$DATA.err" | sed 's/^/  /' || echo "  (no off-cpu: line)"
"$PERF" report -i "$DATA" --stats 2> /dev/null | grep -i lost
"$PERF" script -i "$DATA" -F cpu,trace 2> /dev/null | python3 -c '
import sys, re, collections
pat = re.compile(r"prev_comm=(.*) prev_pid=(\d+) .* ==> next_comm=(.*) next_pid=(\d+) ")
last, twice, n = {}, collections.Counter(), 0
idle = collections.Counter()
for line in sys.stdin:
    m = pat.search(line)
    if not m:
        continue
    n += 1
    cpu = line.split("]")[0].strip(" [")
    idle[(cpu, "from")] += m[2] == "0"
    idle[(cpu, "to")] += m[4] == "0"
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
for cpu in sorted({c for c, _ in idle}, key=int):
    to, fr = idle[(cpu, "to")], idle[(cpu, "from")]
    print(f"CPU {cpu}: {to} switches to its idle task, {fr} from it")
' "$SECS"
