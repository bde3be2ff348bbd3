#!/bin/bash
# scripts/offcpu-timeline.py (perf script -s): the off-CPU waits of perf test -w
# offcpu_pingpong, recorded at threshold 0.05 ms so that most have times, as
# Chrome trace events, opened in speedscope in headless Chromium: one
# profile per thread, whose time in slices is the sum of the thread's
# direct samples' periods (perf script's), to within a microsecond a wait
# (times are whole microseconds); each flow into a wait comes from a waker's
# slice; threads with waits of no known time have an instant event.
set -uo pipefail
cd "$(dirname "$0")/.."
PERF=${PERF:-$PWD/build/bin/perf}
d=build/check/timeline
B=build/browser
rm -rf $d && mkdir -p $d
export PERF_CONFIG=/dev/null
fail() { echo "FAIL: $*"; exit 1; }
tests/browser/setup.sh || fail "the browser harness"

$PERF record --off-cpu=wakers --off-cpu-thresh 0.05 -g -e dummy -o $d/perf.data -- \
	$PERF test -w offcpu_pingpong 2000 > $d/workload.txt 2> $d/record.err ||
	fail "record: $(cat $d/record.err)"
$PERF script -i $d/perf.data -s scripts/offcpu-timeline.py -- -o $d/timeline.json 2> $d/export.err ||
	fail "export: $(cat $d/export.err)"
cat $d/export.err

# per tid: the direct samples' periods (ns) and their count, as perf script shows them
$PERF script -i $d/perf.data -F tid,period,offcpu 2> /dev/null |
	awk '$3 ~ /^[SDIR]$/ && $4 == "direct" { ns[$1] += $2; n[$1]++ }
	     END { for (t in ns) print t, ns[t], n[t] }' | sort > $d/script.tids
node $B/speedscope.mjs "$PWD/$d/timeline.json" build/timeline.png time-ordered \
	> $d/speedscope.json 2> $d/speedscope.err || fail "speedscope: $(cat $d/speedscope.err)"
# speedscope's profiles are named "COMM TID (pid P, tid T)": time in slices, in us
jq -r '.profiles[] | "\(.name | capture("tid (?<t>[0-9]+)\\)$").t) \([.self[]] | add)"' \
	$d/speedscope.json | sort > $d/speedscope.tids
echo "tid perf-script-ns waits speedscope-us"
join $d/script.tids $d/speedscope.tids | tee $d/both.tids
[ "$(wc -l < $d/both.tids)" -ge 3 ] && [ "$(wc -l < $d/both.tids)" = "$(wc -l < $d/script.tids)" ] ||
	fail "threads missing in speedscope: $(cat $d/speedscope.tids | tr '\n' ' ')"
awk '{ d = $2 / 1000 - $4; if (d < 0) d = -d
       if (d > $3) { print "FAIL: tid " $1 ": " $4 " us, perf script " $2 " ns"; bad = 1 } }
     END { exit bad }' $d/both.tids || exit 1
echo "each thread's time in speedscope is its direct waits' time ok"

# flows: every wait's flow_in has a waker's flow_out; instants for untimed waits
python3 - $d/timeline.json $d/perf.data "$PERF" <<'PY' || exit 1
import json, subprocess, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
outs = {e["bind_id"]: e for e in ev if e.get("flow_out")}
ins = [e for e in ev if e.get("flow_in")]
bad = [e for e in ins if e["bind_id"] not in outs or outs[e["bind_id"]]["ts"] != e["ts"]]
if not ins or bad:
    sys.exit(f"FAIL: {len(ins)} flows into waits, {len(bad)} without their waker: {bad[:2]}")
print(f"{len(ins)} flows from wakers to waits ok")
out = subprocess.run([sys.argv[3], "script", "-i", sys.argv[2], "-F", "tid,offcpu"],
                     capture_output=True, text=True).stdout
untimed = {int(l.split()[0]) for l in out.splitlines()
           if len(l.split()) > 2 and l.split()[2] in ("aggregated", "exited")}
inst = {e["tid"] for e in ev if e["ph"] == "i"}
if not untimed or inst != untimed:
    sys.exit(f"FAIL: instant events of {inst}, threads with untimed waits {untimed}")
print(f"instant events of the {len(untimed)} threads with waits of no known time ok")
PY
echo "screenshot: build/timeline.png"
echo ok
