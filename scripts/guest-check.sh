#!/bin/bash
# What the kernel matrix (scripts/kernels.sh) runs in each guest, with the
# perf built by 'make': every off-CPU mode on a known workload, the time it
# records checked; the blocked/run-queue split (tests/conservation.sh);
# upstream's record_offcpu.sh and the series' off-CPU perf tests.  Writes
# /tmp/out/summary, ending "N passed, N failed, N skipped".  A mode that
# the kernel cannot run passes only if perf refuses it in one line.
set -uo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
PERF=$TOP/build/bin/perf
OUT=/tmp/out
W=/tmp/modes
mkdir -p $W
passed=0 failed=0 skipped=0
result() {	# ok|FAIL|skip name [why]
	case $1 in
	ok) passed=$((passed + 1));;
	skip) skipped=$((skipped + 1));;
	*) failed=$((failed + 1));;
	esac
	echo "$1	$2${3:+: $3}" | tee -a $OUT/summary
}
echo "kernel $(uname -r), $(nproc) CPUs" > $OUT/summary

# sleep 1 twice: at least 2000 ms off CPU for the sleeps, at most the
# record's wall time; with callchains, the user frame of the sleep, and
# with dwarf, the frames under it (sleep has no frame pointers)
sleeps="sleep 1; sleep 1"
mode() {	# name chain-needed perf-record-options...
	local name=$1 chain=$2 d=$W/$1 ms wall t0 t1 rc
	shift 2
	mkdir -p $d
	t0=$(date +%s%N)
	timeout -k 10 600 $PERF record -e dummy "$@" -o $d/perf.data -- sh -c "$sleeps" \
		> $d/out 2> $d/all
	rc=$?
	# what perf record says every time
	grep -v -e '^\[ perf record: ' -e '^Warning:$' -e 'specified without the system-wide' \
		-e '^off-cpu: walked the stacks of ' \
		-e "^off-cpu: the wakers' user stacks are frame pointer walks" \
		-e '^off-cpu: user stacks cut (no frame pointers)' $d/all > $d/err
	if [ $rc != 0 ]; then
		if [ "$(wc -l < $d/err)" = 1 ]; then
			result skip "mode $name ($*)" "refused: $(cat $d/err)"
		else
			result FAIL "mode $name ($*)" "perf record failed: $(head -c 600 $d/err | tr '\n' '|')"
		fi
		return
	fi
	t1=$(date +%s%N)
	wall=$(( (t1 - t0) / 1000000 ))
	ms=$($PERF script -i $d/perf.data -F comm,period --comm sleep 2> /dev/null |
		awk '{ s += $2 } END { printf "%d", s / 1e6 }')
	if [ "$ms" -lt 2000 ] || [ "$ms" -gt "$wall" ]; then
		result FAIL "mode $name ($*)" "sleeps off CPU $ms ms, expected 2000..$wall"
		return
	fi
	$PERF script -i $d/perf.data --comm sleep -F ip,sym > $d/script 2> /dev/null
	if [ "$chain" != - ] && ! grep -q nanosleep $d/script; then
		result FAIL "mode $name ($*)" "no nanosleep frame in the sleeps' callchains"
		return
	fi
	if [ "$chain" = dwarf ] && ! grep -q __libc_start_main $d/script; then
		result FAIL "mode $name ($*)" "no __libc_start_main frame: the stacks were not unwound"
		return
	fi
	if [ -s $d/err ]; then
		result FAIL "mode $name ($*)" "warned: $(head -c 600 $d/err | tr '\n' '|')"
		return
	fi
	result ok "mode $name ($*)" "$ms ms of $wall"
}
mode default - --off-cpu
mode thresh0 - --off-cpu --off-cpu-thresh 0
mode aggregated - --off-cpu --off-cpu-thresh 100000
mode fp user --off-cpu -g
mode fp-aggregated user --off-cpu -g --off-cpu-thresh 100000
mode dwarf dwarf --off-cpu --call-graph dwarf
mode dwarf-4k dwarf --off-cpu --call-graph dwarf,4096
mode dwarf-32k dwarf --off-cpu --call-graph dwarf,32768
mode wakers - --off-cpu=wakers
mode wakers-fp user --off-cpu=wakers -g
mode wakers-dwarf dwarf --off-cpu=wakers --call-graph dwarf
mode wakers-dwarf-32k dwarf --off-cpu=wakers --call-graph dwarf,32768
mode runnable user --off-cpu=runnable -g
mode stack-rate user --off-cpu=stack-rate=1000 -g
mode all user --off-cpu=wakers,runnable -g --off-cpu-thresh 1
# reading a process's maps can take longer than perf's 500 ms under full
# emulation (7.3's guest, the host busy: "Reading /proc/411/task/411/maps
# time out"), which the mode's check takes for a failure
mode system-wide user --off-cpu -g -a --proc-map-timeout 60000

# the blocked / run-queue split, against the threads' own schedstat
CHECK_OUT=/tmp/check bash $TOP/tests/conservation.sh > /tmp/conservation.log 2>&1
rc=$?
[ $rc = 0 ] || tail -20 /tmp/conservation.log | sed 's/^/      /' >> $OUT/summary
result "$([ $rc = 0 ] && echo ok || echo FAIL)" "tests/conservation"

# perf test: upstream's off-cpu test and the series'
$PERF test list 2>&1 | grep -E -i 'off-?cpu' | sed -E 's/^ *([0-9.]+): (.*)$/\1|\2/' > /tmp/perf-tests
while IFS='|' read -r num desc; do
	grep -q "^$num\." /tmp/perf-tests && continue
	log=/tmp/perf-test-$num.log
	# a test that hangs is killed, and fails with what it printed
	start=$(date +%s)
	timeout -k 10 900 $PERF test -vv "${num%%.*}" > $log 2>&1
	rc=$?
	echo "exit $rc after $(( $(date +%s) - start )) s" >> $log
	cp $log $OUT/
	if grep -E -q "^ *$num: .*: Ok$" $log; then
		result ok "perf test $num: $desc"
	elif grep -E -q "^ *$num: .*: Skip" $log; then
		result skip "perf test $num: $desc" "$(grep -o '\[Skipped [^]]*' $log | sort -u | tr '\n' ' ')"
	else
		result FAIL "perf test $num: $desc"
		# why: its own words, else how it ended (killed by timeout: 124)
		{ grep -E 'Failed|FAIL' $log | head -10 || tail -5 $log; } | cut -c1-300 |
			sed 's/^/      /' >> $OUT/summary
	fi
done < /tmp/perf-tests

echo "$passed passed, $failed failed, $skipped skipped" >> $OUT/summary
