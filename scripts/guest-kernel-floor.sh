#!/bin/bash
# The kernel floor: on a kernel without BPF task storage (before Linux
# 5.11; tracing programs have it from 5.13), perf record --off-cpu
# refuses in one line, and leaves the data file it was given as it was.
# What perf 7.3 (build/upstream) prints there is shown, not checked.  Run
# as root in a guest of the kernel matrix: scripts/kernels.sh 5.10 (make
# check-kernels KERNELS=5.10).  On a kernel with task storage it skips.
# Ends "N passed, N failed, N skipped", in /tmp/out/summary in a guest.
set -uo pipefail
cd "$(dirname "$0")/.."
PERF=${PERF:-$PWD/build/bin/perf}
UPSTREAM=${UPSTREAM:-$PWD/build/upstream/bin/perf}
# in a guest (check= on its command line, see scripts/guest-init.sh),
# /tmp/out is build/kernels/VER/out on the host
if grep -q ' check=' /proc/cmdline; then
	out=/tmp/out
else
	out=${CHECK_OUT:-build/check}/kernel-floor
fi
mkdir -p $out
data=/tmp/floor.data
passed=0 failed=0 skipped=0
result() {	# ok|FAIL|skip name [why]
	case $1 in
	ok) passed=$((passed + 1));;
	skip) skipped=$((skipped + 1));;
	*) failed=$((failed + 1));;
	esac
	echo "$1	$2${3:+: $3}" | tee -a $out/summary
}
echo "kernel $(uname -r)" | tee $out/summary

want='off-cpu: this kernel has no BPF task storage (Linux 5.13): cannot record'
if [ "$(id -u)" != 0 ]; then
	result skip "kernel floor" "not root"
elif grep -q -w bpf_task_storage_get /proc/kallsyms; then
	result skip "kernel floor" "Linux $(uname -r) has BPF task storage (bpf_task_storage_get)"
else
	echo "not perf data" > $data
	cp $data $out/floor.before
	rm -f $data.old
	$PERF record --off-cpu -e dummy -o $data -- true > $out/patched.out 2> $out/patched.err
	rc=$?
	result "$([ $rc != 0 ] && echo ok || echo FAIL)" "patched perf exits non-zero" "exit $rc"
	if [ "$(cat $out/patched.err)" = "$want" ]; then
		result ok "patched perf says why, in one line"
	else
		result FAIL "patched perf says why, in one line" \
			"$(wc -l < $out/patched.err) lines: $(head -c 600 $out/patched.err | tr '\n' '|')"
	fi
	if cmp -s $data $out/floor.before && [ ! -e $data.old ]; then
		result ok "$data left unchanged"
	else
		result FAIL "$data left unchanged" "$(ls -l $data $data.old 2>&1 | tr '\n' '|')"
	fi

	# perf 7.3, the same command: what it prints, for the record
	cp $out/floor.before $data
	rm -f $data.old
	$UPSTREAM record --off-cpu -e dummy -o $data -- true > $out/upstream.out 2> $out/upstream.err
	rc=$?
	{
		echo "info	perf 7.3: exit $rc, $(wc -l < $out/upstream.err) lines on stderr:"
		sed 's/^/	| /' $out/upstream.err
		cmp -s $data $out/floor.before && [ ! -e $data.old ] &&
			echo "info	perf 7.3: $data left unchanged" ||
			echo "info	perf 7.3: $data now: $(ls -l $data $data.old 2>&1 | tr '\n' '|')"
	} | tee -a $out/summary
fi
echo "$passed passed, $failed failed, $skipped skipped" | tee -a $out/summary
[ $failed = 0 ]
