#!/bin/bash
# A data file of a perf record --threads directory, cut anywhere, is read
# by perf script up to its last complete event: no signal, no hang (20 s),
# exit status 0, no more samples than whole, and a warning that says so
# (but where the cut falls between two events).
# (A cut single-file perf.data is refused when its header is read: the
# feature sections come after the data.)
set -uo pipefail
cd "$(dirname "$0")/.."
PERF=${PERF:-$PWD/build/bin/perf}
out=build/check/truncated
rm -rf $out && mkdir -p $out
$PERF record -q --off-cpu --threads -g -e cpu-clock -o $out/full.data -- \
	sh -c 'i=0; while [ $i -lt 3000 ]; do i=$((i + 1)); done; sleep 0.1' || exit 1
# the largest data file of the directory
f=$(cd $out/full.data && ls -S data.* | head -1)
size=$(stat -c %s $out/full.data/$f)
whole=$($PERF script -i $out/full.data -F period 2> /dev/null | wc -l)
[ "$size" -gt 1000 ] && [ "$whole" -gt 10 ] || { echo "FAIL recording: $f of $size bytes, $whole samples"; exit 1; }
fail=0 n=0 warned=0
for cut in $(seq 1 $((size / 40)) $((size - 1))) $((size - 1)); do
	rm -rf $out/cut.data && cp -r $out/full.data $out/cut.data
	head -c $cut $out/full.data/$f > $out/cut.data/$f
	timeout 20 $PERF script -i $out/cut.data -F period > $out/samples 2> $out/err
	rc=$?
	got=$(wc -l < $out/samples)
	n=$((n + 1))
	grep -q 'is truncated' $out/err && warned=$((warned + 1))
	if [ $rc != 0 ] || [ "$got" -gt "$whole" ]; then
		echo "FAIL cut at $cut of $size: exit $rc, $got samples of $whole"
		sed 's/^/      /' $out/err | head -5
		fail=$((fail + 1))
		[ $fail -lt 5 ] || break
	fi
done
echo "$n cuts of $f ($size bytes, $whole samples whole), $fail failed, $warned with a warning"
# most cuts fall inside an event
[ $((warned * 2)) -gt $n ] || { echo "FAIL too few warnings"; fail=1; }
exit $((fail > 0))
