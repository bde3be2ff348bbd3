#!/bin/bash
# The continuous-profiling recipe of the README: perf record --off-cpu
# --off-cpu-thresh 0 -a --switch-output=1s, each window converted with perf
# data convert --to-pprof.  Each window's file holds that window's waits,
# output as they end (the intervals shorter than the threshold are written
# when recording ends, in the last file only: hence the threshold 0), and
# per thread the pprof profile's off_cpu values are that file's own perf
# report periods.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh golang-go > /dev/null || exit 1
PERF=${PERF:-$PWD/build/bin/perf}
d=build/check/switch-output
rm -rf $d && mkdir -p $d
export PERF_CONFIG=/dev/null HOME=$PWD/$d	# go tool pprof keeps files under HOME
fail() { echo "FAIL: $*"; exit 1; }

# a shell that runs a 'sleep 0.1' after another for 3.5 s: each window has
# some of them
$PERF record --off-cpu --off-cpu-thresh 0 -e dummy -a --switch-output=1s -o $d/perf.data -- \
	sh -c 'end=$(($(date +%s%N) + 3500000000)); while [ $(date +%s%N) -lt $end ]; do sleep 0.1; done' \
	> $d/record.out 2> $d/record.err || fail "record: $(tail -3 $d/record.err)"
ls $d/perf.data.* > $d/files 2> /dev/null
[ "$(wc -l < $d/files)" -ge 3 ] || fail "fewer than 3 windows: $(cat $d/files | tr '\n' ' ')"
n=0
while read -r f; do
	n=$((n + 1))
	$PERF data convert -i $f --to-pprof $f.pb.gz > /dev/null 2> $f.err || fail "convert $f: $(cat $f.err)"
	go tool pprof -raw $f.pb.gz > $f.raw 2> $f.err || fail "pprof $f: $(cat $f.err)"
	awk '/^Samples:/ { s = 1; next } /^Locations/ { s = 0 }
	     s && /^ *[0-9]+ +[0-9]+ +[0-9]+:/ { v = $1 }
	     s && /tid:\[/ { t = $0; sub(/.*tid:\[/, "", t); sub(/\].*/, "", t); sum[t] += v }
	     END { for (t in sum) printf "%s %.0f\n", t, sum[t] }' $f.raw | sort > $f.pprof
	$PERF report -i $f --stdio -q --sort pid -F period,pid -g none 2> /dev/null |
		awk 'NF { split($2, a, ":"); print a[1], $1 }' | sort > $f.report
	cmp -s $f.pprof $f.report ||
		fail "window $n: pprof's per-thread off_cpu is not perf report's: $(diff $f.pprof $f.report | head -4 | tr '\n' ' ')"
	sleeps=$($PERF script -i $f -F comm 2> /dev/null | grep -c '^ *sleep *$')
	echo "window $n: $(wc -l < $f.report) threads, $sleeps samples of sleep, pprof = perf report"
	# the windows the workload ran through in full have their sleeps
	[ $n -gt 3 ] || [ "$sleeps" -gt 0 ] || fail "window $n has no sample of the short sleeps"
done < $d/files
echo ok
