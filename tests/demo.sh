#!/bin/bash
# 'make demo' records the demo workload off CPU and perf report names the
# function each thread blocks in, under that thread's name, with no frame
# at an address no code can be at (text on a stack taken for a frame).
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
# no frame at an address no code can be at: text or numbers taken for
# frames where code without frame pointers keeps them in the register
junk=$(echo "$out" | awk '{ a = $NF; sub(/^0x/, "", a) }
	a ~ /^[0-9a-f]+$/ && (length(a) > 12 || (length(a) == 12 && a ~ /^[89a-f]/)) &&
	a !~ /^ffff[89a-f]/ { print }')
[ -z "$junk" ] || { echo "junk frames: $junk"; exit 1; }
