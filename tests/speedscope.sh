#!/bin/bash
# perf data convert --to-pprof's profile of perf test -w offcpu_pingpong,
# opened in speedscope (the npm package) in headless Chromium, offline: it
# loads, as one profile whose total weight is the sum of the off_cpu values
# and perf report's total period (within 0.1%), in nanoseconds shown as
# time; no stack's top is a scheduler function; screenshot in
# build/speedscope.png.  And a cpu-clock recording's profile: its total is
# perf report's.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh golang-go > /dev/null || exit 1
PERF=${PERF:-$PWD/build/bin/perf}
d=build/check/speedscope
B=build/browser
rm -rf $d && mkdir -p $d
export PERF_CONFIG=/dev/null
fail() { echo "FAIL: $*"; exit 1; }
tests/browser/setup.sh || fail "the browser harness"

$PERF record --off-cpu -g -e dummy -o $d/perf.data -- $PERF test -w offcpu_pingpong \
	> $d/workload.txt 2> $d/record.err || fail "record: $(cat $d/record.err)"
$PERF data convert -i $d/perf.data --to-pprof $d/offcpu.pb.gz 2> $d/export.err ||
	fail "export: $(cat $d/export.err)"

# the sums of the three sample types (go tool pprof keeps files under HOME)
HOME=$PWD/$d go tool pprof -raw $d/offcpu.pb.gz > $d/raw.txt 2> $d/raw.err ||
	fail "pprof: $(cat $d/raw.err)"
read -r off_cpu blocked runq < <(awk '/^Samples:/ { s = 1; next } /^Locations/ { s = 0 }
	s && /^ *[0-9]+ +[0-9]+ +[0-9]+:/ { a += $1; b += $2; c += $3 }
	END { printf "%.0f %.0f %.0f\n", a, b, c }' $d/raw.txt)
report=$($PERF report -i $d/perf.data --stdio -q --sort pid -F period,pid -g none 2> /dev/null |
	awk 'NF { s += $1 } END { printf "%.0f\n", s }')
echo "pprof sums: off_cpu $off_cpu blocked $blocked runq $runq (ns); perf report: $report"

node $B/speedscope.mjs "$PWD/$d/offcpu.pb.gz" build/speedscope.png left-heavy \
	> $d/speedscope.json 2> $d/speedscope.err || fail "speedscope: $(cat $d/speedscope.err)"
j() { jq -r "$@" $d/speedscope.json; }
j '.profiles[] | "speedscope: profile \(.name), unit \(.unit), total \(.total)"'
echo "sandwich view (total, self, function):"
j '.profiles[0].sandwich[:6][] | "  \(.total)\t\(.self)\t\(.function)"'

[ "$(j '.profiles | length')" = 1 ] || fail "not one profile"
[ "$(j '.profiles[0].sandwich | length')" -gt 0 ] || fail "an empty sandwich table"
[ "$(j '.requests | length')" = 0 ] || fail "fetched from the network: $(j '.requests[]')"
[ "$(j '.profiles[0].unit')" = nanoseconds ] || fail "unit $(j '.profiles[0].unit'), not nanoseconds"
j '.profiles[0].sandwich[] | .total, .self' | grep -Ev '^[0-9.]+(ns|µs|ms|s|min|h) \(' &&
	fail "a sandwich value is not shown as a time"
echo "one profile, unit nanoseconds, shown as time, nothing fetched from the network ok"
total=$(j '.profiles[0].total')
near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(b > 0 && (d < 0 ? -d : d) <= b / 1000) }'; }
near "$total" "$off_cpu" ||
	fail "speedscope's total $total is not the off_cpu sum $off_cpu (blocked $blocked, runq $runq)"
near "$total" "$report" || fail "speedscope's total $total is not perf report's $report"
echo "speedscope's total is the off_cpu sum and perf report's total (within 0.1%) ok"
j -e '.profiles[0] | (.self[.sandwich[0].function] // 0) / .total * 100 - .sandwich[0].selfPct |
	fabs < 0.01' > /dev/null || fail "the first sandwich row's bar is not its share of the total"
echo "the first sandwich row's self bar is its share of the total ok"
leaves=$(j '.profiles[0].self | keys[]')
echo "stack tops: $(echo $leaves)"
echo "$leaves" | grep -E '^(__schedule|schedule|schedule_.*|preempt_schedule.*)$' &&
	fail "a stack's top is a scheduler function"
echo "screenshot: build/speedscope.png"

# on CPU: a cpu-clock recording's profile, its total perf report's
$PERF record -e cpu-clock -g -o $d/cpu.data -- $PERF test -w thloop 1 > /dev/null 2> $d/record.err ||
	fail "record cpu-clock: $(cat $d/record.err)"
$PERF data convert -i $d/cpu.data --to-pprof $d/cpu.pb.gz 2> $d/export.err ||
	fail "export cpu-clock: $(cat $d/export.err)"
report=$($PERF report -i $d/cpu.data --stdio -q --sort pid -F period,pid -g none 2> /dev/null |
	awk 'NF { s += $1 } END { printf "%.0f\n", s }')
node $B/speedscope.mjs "$PWD/$d/cpu.pb.gz" $d/cpu.png left-heavy \
	> $d/speedscope.json 2> $d/speedscope.err || fail "speedscope cpu-clock: $(cat $d/speedscope.err)"
j '.profiles[] | "speedscope (cpu-clock): profile \(.name), unit \(.unit), total \(.total)"'
[ "$(j '.profiles[0].unit')" = nanoseconds ] || fail "cpu-clock unit $(j '.profiles[0].unit')"
total=$(j '.profiles[0].total')
near "$total" "$report" || fail "speedscope's cpu-clock total $total is not perf report's $report"
echo "speedscope's cpu-clock total is perf report's ($report ns) ok"
echo ok
