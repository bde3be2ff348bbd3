#!/bin/bash
# Where users look for help: perf script -h lists the off-CPU fields,
# perf record -h the off-CPU options.  (-h exits 129.)
set -uo pipefail
PERF=${PERF:-build/bin/perf}
fields=$($PERF script -h 2>&1 | grep -- '--fields')
echo "$fields"
echo "$fields" | grep -q 'offcpu,waker too' || { echo "perf script -h: no offcpu,waker"; exit 1; }
opts=$($PERF record -h 2>&1)
for o in '--off-cpu\[=<what,...>\]' '--off-cpu-thresh'; do
	echo "$opts" | grep -q -- "$o" || { echo "perf record -h: no $o"; exit 1; }
done
