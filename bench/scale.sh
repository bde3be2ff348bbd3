#!/bin/bash
# perf record --off-cpu -p of a process of many threads, side by side: perf
# 7.3 and the series (and, if given, other builds).  workloads/many-threads
# starts NR threads that sleep 200 ms in a loop; each perf records it with
#   perf record --off-cpu -e dummy -p PID -- sh -c 'sleep $WINDOW'
# Start time: from perf's start to its workload's (events opened, the BPF
# program loaded, the process synthesized); end time: from the workload's
# end to perf's (the off-cpu samples written, build-ids).  Peak RSS from
# /usr/bin/time -v.  Then whether the same perf reads the file back
# (perf report) and how many of the NR+1 threads have samples (perf script).
# A markdown table in $RESULTS (build/bench/scale.md).
#   bench/scale.sh [NR...]            (default: 1000 2000 4000 10000)
# CONFIGS="upstream ours" by default; a config is NAME=PATH to a perf binary,
# or one of upstream (build/upstream/bin/perf), ours (build/bin/perf).
# The open files limit is raised to an event per thread and CPU, twice,
# where the hard limit allows it: 10000 threads on 2 CPUs need 40000.
set -uo pipefail
cd "$(dirname "$0")/.."
NRS=${*:-1000 2000 4000 10000}
WINDOW=${WINDOW:-3}
CONFIGS=${CONFIGS:-upstream ours}
OUT=$PWD/build/bench
RESULTS=${RESULTS:-$OUT/scale.md}
WL=${WL:-$PWD/build/workloads/many-threads}
TMP=$(mktemp -d /tmp/scale.XXXXX)
mkdir -p "$OUT"
trap 'exec 3>&- 2> /dev/null; rm -rf "$TMP"' EXIT

[ -x "$WL" ] || make -s -C workloads OUT="$PWD/build/workloads" || exit 1

perf_of() {	# config
	case $1 in
	upstream) echo "$PWD/build/upstream/bin/perf" ;;
	ours) echo "$PWD/build/bin/perf" ;;
	*=*) echo "${1#*=}" ;;
	*) echo "unknown config $1" >&2; exit 1 ;;
	esac
}

ns() { date +%s%N; }

ncpus=$(getconf _NPROCESSORS_ONLN)
{
	echo "| threads | perf | start s | end s | peak RSS MB | exit | reads back | threads with samples | says |"
	echo "|---|---|---|---|---|---|---|---|---|"
} > "$TMP/table"

for nr in $NRS; do
	need=$(( (nr + 1) * ncpus * 2 + 1000 ))
	[ "$(ulimit -n)" -ge $need ] 2> /dev/null || ulimit -n $need 2> /dev/null ||
		ulimit -n "$(ulimit -Hn)" 2> /dev/null
	for config in $CONFIGS; do
		P=$(perf_of "$config")
		name=${config%%=*}
		rm -f "$TMP/ctl" "$TMP/out" "$TMP/t1" "$TMP/t2" "$TMP/perf.data"
		mkfifo "$TMP/ctl"
		"$WL" "$nr" < "$TMP/ctl" > "$TMP/out" &
		wl=$!
		exec 3> "$TMP/ctl"
		until grep -q ready "$TMP/out"; do
			kill -0 $wl 2> /dev/null || { echo "many-threads $nr did not start" >&2; exit 1; }
			sleep 0.1
		done
		t0=$(ns)
		/usr/bin/time -v -o "$TMP/time" "$P" record --off-cpu -e dummy -p $wl \
			-o "$TMP/perf.data" -- \
			sh -c "date +%s%N > $TMP/t1; sleep $WINDOW; date +%s%N > $TMP/t2" \
			> /dev/null 2> "$TMP/err"
		rc=$?
		t3=$(ns)
		exec 3>&-
		wait $wl
		if [ -s "$TMP/t1" ] && [ -s "$TMP/t2" ]; then
			start=$(awk -v a="$t0" -v b="$(cat "$TMP/t1")" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
			end=$(awk -v a="$(cat "$TMP/t2")" -v b="$t3" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
		else
			start=-
			end=$(awk -v a="$t0" -v b="$t3" 'BEGIN { printf "(all %.2f)", (b - a) / 1e9 }')
		fi
		rss=$(awk -F: '/Maximum resident/ { printf "%.0f", $2 / 1024 }' "$TMP/time")
		grep -q "Segmentation\|signal 11" "$TMP/time" "$TMP/err" && rc="$rc (SIGSEGV)"
		reads=no; nthreads=-
		if [ -s "$TMP/perf.data" ] &&
		   "$P" report -i "$TMP/perf.data" --stdio -q > /dev/null 2> "$TMP/report" &&
		   ! grep -q "ERROR\|failed" "$TMP/report"; then
			reads=yes
			nthreads=$("$P" script -i "$TMP/perf.data" -F tid 2> /dev/null | sort -u | wc -l)
		fi
		# what perf said that is not the usual: the first such line
		says=$(grep -v '^\[ perf record\|^off-cpu: user stacks cut\|^Command exited' "$TMP/err" | \
		       head -1 | cut -c1-100 | tr '|' '/')
		echo "| $nr | $name | $start | $end | $rss | $rc | $reads | $nthreads / $((nr + 1)) | $says |" | \
			tee -a "$TMP/table"
	done
done

{
	echo
	echo "perf record --off-cpu -e dummy -p of many-threads NR for ${WINDOW} s," \
	     "$(nproc) CPUs, open files $(ulimit -n), $(uname -r), $(date -u +%F)"
	echo
	cat "$TMP/table"
} >> "$RESULTS"
echo "results in $RESULTS"
