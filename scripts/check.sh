#!/bin/bash
# Run the tests: upstream's own off-cpu test, unchanged, and the series'
# off-cpu tests in 'perf test'; the project's own tests under tests/ (files
# exchanged with build/upstream's perf among them); and checkpatch on every
# patch.  Ends with "N passed, N failed"; exits 1 if anything failed.  A
# skipped test counts as failed: everything here is expected to run on
# these machines, but for the cases that need what this kernel lacks
# (KERNEL_SKIPS: the preempt count in /proc/kallsyms, that
# CONFIG_KALLSYMS_ALL gives; every switch traced, that this machine's
# 6.18 does not do: the wall-clock test records again while perf says it
# lost an interval, and skips after 5): a suite whose other cases pass passes, and
# those cases are listed as skipped, with their reason (the kernel matrix
# runs them, in Debian's kernels).
set -uo pipefail
cd "$(dirname "$0")/.."
export PERF=$PWD/build/bin/perf UPSTREAM=$PWD/build/upstream/bin/perf
export WORKLOADS=$PWD/build/workloads
SRC=build/src
LOG=build/check
mkdir -p $LOG
passed=0 failed=0 skipped=0
KERNEL_SKIPS='no preempt count in /proc/kallsyms\|the kernel did not trace every switch'

start=$SECONDS
result() {	# name rc: with the seconds since the last result, but for quick ones
	local t=$((SECONDS - start))
	if [ $t -ge 10 ]; then t=" ($t s)"; else t=; fi
	start=$SECONDS
	if [ "$2" = 0 ]; then
		passed=$((passed + 1)); echo "ok    $1$t"
	else
		failed=$((failed + 1)); echo "FAIL  $1$t"
	fi
}

# upstream's test is run as upstream has it
git -C $SRC diff --quiet base -- tools/perf/tests/shell/record_offcpu.sh
result "upstream's record_offcpu.sh unchanged by the series" $?

# perf test: every test about off-cpu, and the series' other tests
$PERF test list 2>&1 | grep -E -i 'off-?cpu|pprof|BPF program events' | sed -E 's/^ *([0-9.]+): (.*)$/\1|\2/' > $LOG/perf-tests
while IFS='|' read -r num desc; do
	# a suite of several cases: each case is checked, in a run of the suite
	grep -q "^$num\." $LOG/perf-tests && continue
	out=$LOG/perf-test-$num.log
	$PERF test -vv "${num%%.*}" > "$out" 2>&1
	grep -E -q "^ *$num: .*: Ok$" "$out"
	rc=$?
	if [ $rc != 0 ] && grep -E -q "^ *$num: .*: Skip" "$out" && grep -q '\[Success\]' "$out" &&
	   ! grep -q '\[Failed' "$out" && ! grep '\[Skipped' "$out" | grep -v -q "$KERNEL_SKIPS"; then
		grep '\[Skipped' "$out" | sed 's/^/skip  /'
		skipped=$((skipped + $(grep -c '\[Skipped' "$out")))
		rc=0
	fi
	[ $rc = 0 ] || tail -20 "$out" | sed 's/^/      /'
	result "perf test $num: $desc" $rc
done < $LOG/perf-tests
grep -q 'perf record offcpu profiling tests' $LOG/perf-tests
result "perf test: upstream's off-cpu test found" $?

make -s -C workloads OUT="$WORKLOADS" || result "build workloads" 1
start=$SECONDS

# the project's own tests
for t in tests/*.sh; do
	name=$(basename "$t" .sh)
	bash "$t" > "$LOG/$name.log" 2>&1
	rc=$?
	[ $rc = 0 ] || tail -20 "$LOG/$name.log" | sed 's/^/      /'
	result "tests/$name" $rc
done

# checkpatch: no errors, no warnings (but the MAINTAINERS reminder for new
# files, the commit ids of Fixes: tags, that it looks up in git, and the
# 'const volatile' of BPF programs' knobs, which libbpf sets before loading,
# and the __ksym externs of BPF programs, as lock_contention.bpf.c has)
while read -r p; do
	case "$p" in ''|'#'*) continue;; esac
	(cd $SRC && scripts/checkpatch.pl --no-tree --quiet --ignore FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID,VOLATILE,AVOID_EXTERNS "$OLDPWD/patches/$p") > "$LOG/checkpatch.log" 2>&1
	rc=$?
	[ $rc = 0 ] && grep -q WARNING "$LOG/checkpatch.log" && rc=1
	[ $rc = 0 ] || sed 's/^/      /' "$LOG/checkpatch.log"
	result "checkpatch $p" $rc
done < patches/series

[ $skipped = 0 ] || echo "$skipped cases skipped, for what this kernel lacks (above)"
echo "$passed passed, $failed failed"
[ $failed = 0 ]
