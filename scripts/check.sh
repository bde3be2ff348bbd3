#!/bin/bash
# Run the tests: the series' off-cpu tests in 'perf test', the project's own
# tests under tests/, and checkpatch on every patch.  Ends with the line
# "N passed, N failed"; exits 1 if anything failed.  A skipped test counts
# as failed: everything here is expected to run on these machines.
set -uo pipefail
cd "$(dirname "$0")/.."
TOP=$PWD
export PERF=$PWD/build/bin/perf
export WORKLOADS=$PWD/build/workloads
LOG=build/check
mkdir -p $LOG
passed=0 failed=0

result() {	# name rc
	if [ "$2" = 0 ]; then
		passed=$((passed + 1)); echo "ok    $1"
	else
		failed=$((failed + 1)); echo "FAIL  $1"
	fi
}

make -s -C workloads OUT="$WORKLOADS" || result "build workloads" 1

# perf test: every test about off-cpu (shell tests and C unit tests)
$PERF test list 2>&1 | grep -E -i 'off-?cpu' | sed -E 's/^ *([0-9.]+): (.*)$/\1|\2/' > $LOG/perf-tests
while IFS='|' read -r num desc; do
	out=$LOG/perf-test-$num.log
	$PERF test -v "$num" > "$out" 2>&1
	grep -E -q "^ *$num: .*: Ok$" "$out"
	rc=$?
	[ $rc = 0 ] || tail -20 "$out" | sed 's/^/      /'
	result "perf test $num: $desc" $rc
done < $LOG/perf-tests
[ -s $LOG/perf-tests ] || result "perf test: no off-cpu tests found" 1

# the project's own tests
for t in tests/*.sh; do
	name=$(basename "$t" .sh)
	bash "$t" > "$LOG/$name.log" 2>&1
	rc=$?
	[ $rc = 0 ] || tail -20 "$LOG/$name.log" | sed 's/^/      /'
	result "tests/$name" $rc
done

# checkpatch: no errors, no warnings (but the MAINTAINERS reminder for new
# files: tools/perf/ is in MAINTAINERS already; and the commit ids of Fixes:
# tags, that it looks up in git: build/src has no upstream history)
while read -r p; do
	case "$p" in ''|'#'*) continue;; esac
	# run from build/src: in our own git tree checkpatch misreads the files
	(cd build/src && scripts/checkpatch.pl --no-tree --quiet --ignore FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID "$TOP/patches/$p") > "$LOG/checkpatch.log" 2>&1
	rc=$?
	[ $rc = 0 ] && grep -q WARNING "$LOG/checkpatch.log" && rc=1
	[ $rc = 0 ] || sed 's/^/      /' "$LOG/checkpatch.log"
	result "checkpatch $p" $rc
done < patches/series

echo "$passed passed, $failed failed"
[ $failed = 0 ]
