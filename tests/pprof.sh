#!/bin/bash
# perf data convert --to-pprof, read by Go's pprof (Debian's golang-go),
# on a recording of perf test -w offcpu_pingpong: the default sample type
# is the off-CPU time in nanoseconds; per thread, its off-CPU time is
# perf report's (within 0.1%); no stack starts in the scheduler.  With
# --wallclock, the time on CPU (cpu-clock) too, each thread's whole time.
# On CPU, perf record -e cpu-clock of perf test -w thloop: the default
# sample type is cpu-clock in nanoseconds, per thread its time is perf
# report's, the profile is named after perf's mapping, that has its
# build-id, and its duration is the recording's.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh golang-go > /dev/null || exit 1
PERF=${PERF:-$PWD/build/bin/perf}
d=build/check/pprof
rm -rf $d && mkdir -p $d
export PERF_CONFIG=/dev/null HOME=$PWD/$d	# go tool pprof keeps files under HOME
fail() { echo "FAIL: $*"; exit 1; }

$PERF record --off-cpu -g -e dummy -o $d/perf.data -- $PERF test -w offcpu_pingpong \
	> $d/workload.txt 2> $d/record.err || fail "record: $(cat $d/record.err)"
$PERF data convert -i $d/perf.data --to-pprof $d/offcpu.pb.gz 2> $d/export.err ||
	fail "export: $(cat $d/export.err)"
go tool pprof -raw $d/offcpu.pb.gz > $d/raw.txt 2> $d/raw.err || fail "pprof: $(cat $d/raw.err)"
go tool pprof -top $d/offcpu.pb.gz > $d/top.txt 2>&1 || fail "pprof -top: $(cat $d/top.txt)"
head -12 $d/top.txt

grep -q '^off_cpu/nanoseconds\[dflt\] blocked/nanoseconds runq/nanoseconds$' $d/raw.txt ||
	fail "the default sample type is not off_cpu/nanoseconds: $(grep -A1 '^Samples' $d/raw.txt)"

# per tid: the off_cpu values of the samples, and perf report's periods
awk '/^Samples:/ { s = 1; next } /^Locations/ { s = 0 }
     s && /^ *[0-9]+ +[0-9]+ +[0-9]+:/ { v = $1 }
     s && /tid:\[/ { t = $0; sub(/.*tid:\[/, "", t); sub(/\].*/, "", t); sum[t] += v }
     END { for (t in sum) printf "%s %.0f\n", t, sum[t] }' $d/raw.txt | sort > $d/pprof.tids
$PERF report -i $d/perf.data --stdio -q --sort pid -F period,pid -g none 2> /dev/null |
	awk 'NF { split($2, a, ":"); print a[1], $1 }' | sort > $d/report.tids
echo "tid pprof perf-report"
join $d/pprof.tids $d/report.tids | tee $d/both.tids
[ "$(wc -l < $d/both.tids)" -ge 4 ] && [ "$(wc -l < $d/both.tids)" = "$(wc -l < $d/report.tids)" ] ||
	fail "threads missing: $(cat $d/pprof.tids | tr '\n' ' ') against $(cat $d/report.tids | tr '\n' ' ')"
awk '{ d = $2 - $3; if (d < 0) d = -d; if (d > $3 / 1000) { print "FAIL: tid " $1 ": " $2 " against " $3; bad = 1 } }
     END { exit bad }' $d/both.tids || exit 1

# the first location of every sample: not a scheduler function
awk '/^Samples:/ { s = 1; next } /^Locations/ { s = 0; l = 1; next } /^Mappings/ { l = 0 }
     s && /^ *[0-9]+ +[0-9]+ +[0-9]+:/ { sub(/.*: */, ""); first[$1] = 1 }
     l && /^ *[0-9]+:/ { id = $1; sub(/:$/, "", id); name[id] = $4 }
     END { for (f in first) if (name[f] ~ /^(__schedule|schedule|schedule_.*|preempt_schedule.*)$/) {
		print "FAIL: a stack starts at " name[f]; bad = 1 }
	   exit bad }' $d/raw.txt || exit 1

# --wallclock: the time on CPU (cpu-clock samples) too, in a first, default
# sample type "wall": per tid, the periods of both events, as perf script
# shows them
$PERF record --off-cpu=runnable -e cpu-clock -g -o $d/wall.data -- \
	$PERF test -w offcpu_pingpong 2000 > $d/wall-workload.txt 2> $d/record.err ||
	fail "record: $(cat $d/record.err)"
$PERF data convert -i $d/wall.data --to-pprof $d/wall.pb.gz --wallclock \
	2> $d/export.err || fail "export: $(cat $d/export.err)"
go tool pprof -raw $d/wall.pb.gz > $d/wall.txt 2> $d/raw.err || fail "pprof: $(cat $d/raw.err)"
types='wall/nanoseconds\[dflt\] off_cpu/nanoseconds blocked/nanoseconds runq/nanoseconds'
grep -q "^$types cpu-clock/nanoseconds samples/count\$" $d/wall.txt ||
	fail "the default sample type is not wall: $(grep -A1 '^Samples' $d/wall.txt)"
awk '/^Samples:/ { s = 1; next } /^Locations/ { s = 0 }
     s && /^ *[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+:/ { w = $1; o = $2 }
     s && /tid:\[/ { t = $0; sub(/.*tid:\[/, "", t); sub(/\].*/, "", t); W[t] += w; O[t] += o }
     END { for (t in W) printf "%s %.0f %.0f\n", t, W[t], O[t] }' $d/wall.txt | sort > $d/wall.tids
$PERF script -i $d/wall.data -F tid,period,event 2> /dev/null |
	awk '{ w[$1] += $2 } $3 == "offcpu-time:" { o[$1] += $2 }
	     END { for (t in w) printf "%s %.0f %.0f\n", t, w[t], o[t] }' | sort > $d/script.tids
echo "tid wall off_cpu (pprof, then perf script)"
join $d/wall.tids $d/script.tids | tee $d/wall-both.tids
[ "$(wc -l < $d/wall-both.tids)" -ge 3 ] &&
	[ "$(wc -l < $d/wall-both.tids)" = "$(wc -l < $d/script.tids)" ] ||
	fail "threads missing: $(cat $d/wall.tids | tr '\n' ' ') against $(cat $d/script.tids | tr '\n' ' ')"
awk '$2 != $4 || $3 != $5 { print "FAIL: tid " $1; bad = 1 } END { exit bad }' \
	$d/wall-both.tids || exit 1
grep -q 'state:\[running\]' $d/wall.txt || fail "no on-CPU sample"
# the off_cpu time (preemptions too: --off-cpu=runnable) of the pingpong
# threads, beside what they measured themselves (wall-clock time less CPU
# time, from their start): shown, not checked here.  Whether perf records
# the time off CPU right is tests/conservation.sh's check, against the
# scheduler's own accounting; this test checks that the profile has what
# perf recorded (per thread, as perf script adds it up, above).  perf
# times a switch at its tracepoint, the thread's CPU clock stops and
# starts a few us away: 20,000 round trips, 35 to 46 ms more here, but 22
# ms more for 271 ms measured with the machine loaded by a qemu guest.
awk '$1 == "pingpong" { print $2, $3 }' $d/wall-workload.txt | sort | join - $d/wall.tids |
	awk '{ n++; printf "pingpong %s: measured %.3f ms, off_cpu %.3f ms\n", $1, $2 / 1e6, $4 / 1e6 }
	     END { exit n != 2 }' || fail "the pingpong threads are not in the profile"
go tool pprof -tags $d/wall.pb.gz > $d/tags.txt 2>&1 || fail "pprof -tags: $(cat $d/tags.txt)"
for tag in thread state pid tid; do
	grep -q "^ *$tag: Total" $d/tags.txt || fail "no $tag in pprof -tags: $(cat $d/tags.txt)"
done
grep -A4 '^ *state: Total' $d/tags.txt

# on CPU: the samples of cpu-clock, whose period is the time they stand
# for; per thread, as perf report has them.  The duration is from the first
# event to the last: at least the second thloop spins, at most the time
# perf record took.
t0=$(date +%s%N)
$PERF record -e cpu-clock -g -o $d/oncpu.data -- $PERF test -w thloop 1 \
	> /dev/null 2> $d/record.err || fail "record: $(cat $d/record.err)"
t1=$(date +%s%N)
$PERF data convert -i $d/oncpu.data --to-pprof $d/oncpu.pb.gz 2> $d/export.err ||
	fail "export: $(cat $d/export.err)"
cat $d/export.err
go tool pprof -raw $d/oncpu.pb.gz > $d/oncpu.txt 2> $d/raw.err || fail "pprof: $(cat $d/raw.err)"
go tool pprof -top $d/oncpu.pb.gz > $d/oncpu-top.txt 2>&1 || fail "pprof -top: $(cat $d/oncpu-top.txt)"
head -4 $d/oncpu-top.txt
grep -q '^cpu-clock/nanoseconds\[dflt\] samples/count$' $d/oncpu.txt ||
	fail "the default sample type is not cpu-clock: $(grep -A1 '^Samples' $d/oncpu.txt)"
awk '/^Samples:/ { s = 1; next } /^Locations/ { s = 0 }
     s && /^ *[0-9]+ +[0-9]+:/ { v = $1 }
     s && /tid:\[/ { t = $0; sub(/.*tid:\[/, "", t); sub(/\].*/, "", t); sum[t] += v }
     END { for (t in sum) printf "%s %.0f\n", t, sum[t] }' $d/oncpu.txt | sort > $d/oncpu.tids
$PERF report -i $d/oncpu.data --stdio -q --sort pid -F period,pid -g none 2> /dev/null |
	awk 'NF { split($2, a, ":"); print a[1], $1 }' | sort > $d/oncpu-report.tids
echo "tid cpu-clock: pprof perf-report"
join $d/oncpu.tids $d/oncpu-report.tids | tee $d/oncpu-both.tids
[ "$(wc -l < $d/oncpu-both.tids)" -ge 2 ] &&
	[ "$(wc -l < $d/oncpu-both.tids)" = "$(wc -l < $d/oncpu-report.tids)" ] ||
	fail "threads missing: $(cat $d/oncpu.tids | tr '\n' ' ') against $(cat $d/oncpu-report.tids | tr '\n' ' ')"
awk '$2 != $3 { print "FAIL: tid " $1 ": " $2 " against " $3; bad = 1 } END { exit bad }' \
	$d/oncpu-both.tids || exit 1
grep -q '^File: perf$' $d/oncpu-top.txt || fail "the profile is not named after perf: $(head -1 $d/oncpu-top.txt)"
awk '/^Mappings/ { m = 1; next } m && $3 ~ /\/perf$/ && length($4) == 40 && $4 ~ /^[0-9a-f]+$/ { ok = 1 } END { exit !ok }' \
	$d/oncpu.txt || fail "no build-id of perf's mapping: $(sed -n '/^Mappings/,$p' $d/oncpu.txt | head -5)"
dur=$(awk '/^Duration:/ { sub(/,$/, "", $2); print $2; exit }' $d/oncpu-top.txt)
awk -v d="$dur" -v e="$(( (t1 - t0) / 1000 ))" 'BEGIN {
	s = d; sub(/s$/, "", s); if (d ~ /ms$/) { s = d; sub(/ms$/, "", s); s /= 1000 }
	printf "duration %s: thloop spins 1 s, perf record took %.3f s\n", d, e / 1e6
	exit !(s >= 1 && s <= e / 1e6) }' || fail "the duration $dur is not the recording's"
go tool pprof -tags $d/oncpu.pb.gz > $d/oncpu-tags.txt 2>&1 || fail "pprof -tags: $(cat $d/oncpu-tags.txt)"
for tag in thread pid tid; do
	grep -q "^ *$tag: Total" $d/oncpu-tags.txt || fail "no $tag in pprof -tags: $(cat $d/oncpu-tags.txt)"
done
echo ok
