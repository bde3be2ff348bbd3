#!/bin/bash
# The offcpu-time samples are in upstream's format (perf 6.16 and later):
# no PERF_SAMPLE_CALLCHAIN in the attr, the task, period and callchain in
# the raw data, then our extension, which upstream's reader does not look at.
#  (a) record the demo with samples output directly and written at the end,
#      once for the workload, once system-wide with cgroups (so that the
#      samples also have CPU, and CGROUP after the raw data), once with
#      --off-cpu-sample;
#  (b) tests/perfdata.py reads every sample's raw data by upstream's rule
#      (pid, tid, period): the same as our perf script prints (its ip is the
#      wait site, upstream's the first frame, ips[1]);
#  (c) a copy in upstream's plain layout (tests/perfdata.py removes the
#      extension, so the samples shrink): our perf script and perf report
#      print the same as for the original;
#  (d) the offcpu-time attr has RAW and not CALLCHAIN;
#  (e) perf script -F offcpu says direct/aggregated on the original, and
#      reads the plain copy ("- -": no extension, nothing known).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=build/check/compat
rm -rf $out
mkdir -p $out
PD="python3 tests/perfdata.py"
fail=0
summary=
bad() { echo "FAIL $*"; fail=1; }

same() {	# what file1 file2: the files are identical and not empty
	if [ ! -s "$2" ]; then
		bad "$1: no output ($2)"
	elif ! cmp -s "$2" "$3"; then
		bad "$1: $2 and $3 differ:"; diff "$2" "$3" | head -20
	else
		echo "ok   $1 ($(wc -l < "$2") lines)"
	fi
}

check() {	# dir: checks (b) to (e) on dir/perf.data
	local d=$1 n direct atend f e shrunk

	# (d) the attr
	$PD attr $d/perf.data > $d/attr || bad "$d: offcpu-time attr: $(cat $d/attr)"

	# (b) upstream's reading (in file order) vs our perf script (in time order)
	$PD decode $d/perf.data > $d/decoded || bad "$d: perfdata.py decode"
	# (the sample ip is left out: upstream's is the first frame, __schedule,
	# ours the wait site, see machine__resolve_off_cpu_sample())
	awk '{ print $1, $2, $3, $7, $8 }' $d/decoded | sort > $d/upstream
	$PERF script -i $d/perf.data -G -F pid,tid,period,ip,event,offcpu 2> $d/script.err |
		awk '$3 == "offcpu-time:" { split($1, p, "/"); print p[1], p[2], $2, $4, $5 }' |
		sort > $d/ours
	same "$d: upstream's reading (pid tid period) = perf script" $d/upstream $d/ours
	[ -s $d/script.err ] && bad "$d: perf script says: $(cat $d/script.err)"
	n=$(wc -l < $d/ours)
	direct=$(grep -c ' direct$' $d/ours)
	atend=$(grep -c ' aggregated$' $d/ours)
	# (e) on the original
	[ "$direct" -gt 0 ] && [ "$atend" -gt 0 ] || bad "$d: want both: $direct direct, $atend aggregated"
	[ $((direct + atend)) = "$n" ] || bad "$d: $n samples, $direct direct + $atend aggregated"

	# (c) the plain copy: same samples without the extension, same output
	$PD plain $d/perf.data $d/plain.data > $d/plain.txt || bad "$d: perfdata.py plain"
	[ "$(cat $d/plain.txt)" = "$n samples rewritten" ] || bad "$d: plain copy: $(cat $d/plain.txt)"
	$PD attr $d/plain.data > /dev/null || bad "$d: plain copy: attr"
	$PD decode $d/plain.data | awk '{ print $1, $2, $3, $7 }' | sort > $d/plain.decoded
	awk '{ print $1, $2, $3, "-" }' $d/upstream | sort | cmp -s - $d/plain.decoded ||
		bad "$d: plain copy: not the same samples without the extension"
	for f in perf plain; do
		$PERF script -i $d/$f.data -F comm,pid,tid,time,period,ip,sym > $d/$f.script 2> $d/$f.script.err ||
			bad "$d: perf script -i $f.data"
		$PERF report -i $d/$f.data --stdio --no-children 2> $d/$f.report.err |
			grep -v -e '^#' -e '^$' > $d/$f.report
		$PERF report -i $d/$f.data --header-only 2> /dev/null |
			grep -v -e '^# captured on' -e '^# data size' -e '^# feat offset' > $d/$f.header
		$PERF script -i $d/$f.data -F tid,period,offcpu > $d/$f.offcpu 2>&1 ||
			bad "$d: perf script -F offcpu -i $f.data"
	done
	same "$d: plain copy: perf script -F comm,pid,tid,time,period,ip,sym" $d/perf.script $d/plain.script
	same "$d: plain copy: perf report --stdio --no-children" $d/perf.report $d/plain.report
	same "$d: plain copy: perf report --header-only (features moved)" $d/perf.header $d/plain.header
	for e in $d/plain.script.err $d/plain.report.err; do
		[ -s $e ] && bad "$d: perf on the plain copy says: $(cat $e)"
	done
	# (e) on the plain copy: read, nothing known about the samples
	[ "$(grep -c ' - -$' $d/plain.offcpu)" = "$n" ] && [ "$(wc -l < $d/plain.offcpu)" = "$n" ] ||
		bad "$d: perf script -F offcpu on the plain copy: $(sort $d/plain.offcpu | uniq -c | head)"

	shrunk=$(( $(stat -c %s $d/perf.data) - $(stat -c %s $d/plain.data) ))
	summary="$summary; ${d##*/}: $n samples ($direct direct, $atend aggregated), $(cat $d/attr), plain copy -$shrunk bytes"
}

# (a) 30 ms waits with a 20 ms threshold are output directly, the fsyncs
# and the shorter waits are added up and written at the end
mkdir -p $out/task $out/system
$PERF record -q --off-cpu --off-cpu-thresh 20 -e dummy -o $out/task/perf.data -- \
	"$WORKLOADS/offcpu-demo" -r 4 -m 10 -S 3 -f $out/task/fsync.tmp > /dev/null ||
	bad "perf record"
check $out/task
$PERF record -q --off-cpu --off-cpu-thresh 20 -a --all-cgroups -e dummy -o $out/system/perf.data -- \
	"$WORKLOADS/offcpu-demo" -r 2 -m 10 -S 3 -f $out/system/fsync.tmp > /dev/null ||
	bad "perf record -a --all-cgroups"
check $out/system
# --off-cpu-sample: the same common part, more flags in the extension
mkdir -p $out/sampled
$PERF record -q --off-cpu --off-cpu-thresh 20 --off-cpu-sample 100 -e dummy \
	-o $out/sampled/perf.data -- \
	"$WORKLOADS/offcpu-demo" -r 4 -m 10 -S 3 -f $out/sampled/fsync.tmp > /dev/null ||
	bad "perf record --off-cpu-sample"
check $out/sampled

echo "compat${summary#;}: $([ $fail = 0 ] && echo ok || echo FAIL)"
exit $fail
