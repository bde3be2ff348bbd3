#!/bin/bash
# 'make demo' records the demo workload off CPU and perf report names the
# function each thread blocks in, under that thread's name.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(scripts/demo.sh 2>&1)
echo "$out"
for f in sleeper:wait_in_nanosleep piper:wait_in_pipe_read \
	 locker:wait_in_mutex_lock syncer:wait_in_fsync; do
	comm=${f%%:*} func=${f#*:}
	# the chain printed under the thread's entry has the function
	echo "$out" | awk -v c="$comm" -v f="$func" '
		/^ +[0-9.]+%/ { cur = $2 } cur == c && $0 ~ f { found = 1 }
		END { exit !found }' || { echo "no $func under $comm"; exit 1; }
done
