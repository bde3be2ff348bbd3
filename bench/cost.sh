#!/bin/bash
# BPF run time per context switch, side by side: perf 7.3's --off-cpu, the
# series in each of its modes, libbpf-tools' offcputime.  Each profiler
# records system wide while 'perf bench sched pipe' runs pinned to one CPU;
# the run time of all the BPF programs that ran, over the runs of the one
# that ran most (sched_switch).  Configurations are interleaved in each
# round; medians, and the ratio to perf 7.3, in $RESULTS (build/bench/cost.md),
# then, per configuration, the programs it loaded with their instructions
# after the verifier (xlated), and the number of maps.
#   bench/cost.sh [rounds]
set -uo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-5}
OURS=${OURS:-$PWD/build/bin/perf}
UP=$PWD/build/upstream/bin/perf
LOOPS=${LOOPS:-50000}
OUT=$PWD/build/bench
RESULTS=${RESULTS:-$OUT/cost.md}
mkdir -p "$OUT"

CONFIGS=${CONFIGS:-"upstream ours ours_g ours_user ours_kernel ours_wakers ours_g_wakers ours_t0 ours_wakers_t0 ours_dwarf ours_dwarf_wakers ours_dwarf_t0 ours_dwarf_wakers_t0 ours_sample ours_g_sample ours_runnable ours_wallclock offcputime"}
declare -A NS INSNS

start() {	# config
	local rec="record -q --off-cpu -a -e dummy -o $OUT/cost.data"
	case $1 in
	upstream) $UP $rec & ;;
	ours) $OURS $rec & ;;
	ours_g) $OURS $rec -g & ;;
	ours_user) $OURS $rec -g --user-callchains & ;;
	ours_kernel) $OURS $rec -g --kernel-callchains & ;;
	ours_wakers) $OURS $rec --off-cpu=wakers & ;;
	ours_g_wakers) $OURS $rec -g --off-cpu=wakers & ;;
	ours_t0) $OURS $rec --off-cpu-thresh 0 & ;;
	ours_wakers_t0) $OURS $rec --off-cpu=wakers --off-cpu-thresh 0 & ;;
	ours_dwarf) $OURS $rec --call-graph dwarf & ;;
	ours_dwarf_wakers) $OURS $rec --call-graph dwarf --off-cpu=wakers & ;;
	ours_dwarf_t0) $OURS $rec --call-graph dwarf --off-cpu-thresh 0 & ;;
	ours_dwarf_wakers_t0) $OURS $rec --call-graph dwarf --off-cpu=wakers --off-cpu-thresh 0 & ;;
	ours_sample) $OURS $rec --off-cpu=stack-rate=1000 & ;;
	ours_g_sample) $OURS $rec -g --off-cpu=stack-rate=1000 & ;;
	ours_runnable) $OURS $rec --off-cpu=runnable & ;;
	ours_wallclock) $OURS $rec -g --off-cpu=runnable & ;;
	offcputime) offcputime > "$OUT/cost.offcputime" 2>&1 & ;;
	esac
	PROF=$!
	sleep 2		# let it load and attach
}

ns_per_switch() {	# bpftool json before, after
	/usr/bin/python3 -c 'import json, sys
old = {p["id"]: p for p in json.loads(sys.argv[1] or "[]")}
new = [p for p in json.loads(sys.argv[2] or "[]") if p["id"] in old]
d = [(p.get("run_cnt", 0) - old[p["id"]].get("run_cnt", 0),
      p.get("run_time_ns", 0) - old[p["id"]].get("run_time_ns", 0)) for p in new]
cnt = max(c for c, _ in d) if d else 0
print(round(sum(ns for _, ns in d) / cnt) if cnt else 0)' "$1" "$2"
}

insns() {	# bpftool json before and after the profiler loaded
	/usr/bin/python3 -c 'import json, sys
old = {p["id"] for p in json.loads(sys.argv[1] or "[]")}
new = [p for p in json.loads(sys.argv[2] or "[]") if p["id"] not in old]
maps = {m for p in new for m in p.get("map_ids", [])}
print(" ".join("%s %d" % (p.get("name", "?"), p.get("bytes_xlated", 0) // 8)
	       for p in new), "|", len(maps))' "$1" "$2"
}

sysctl -q kernel.bpf_stats_enabled=1
trap 'sysctl -q kernel.bpf_stats_enabled=0' EXIT
for round in $(seq "$ROUNDS"); do
	for c in $CONFIGS; do
		pre=$(bpftool -j prog show)
		start $c
		before=$(bpftool -j prog show)
		[ "$round" = 1 ] && INSNS[$c]=$(insns "$pre" "$before")
		taskset -c 0 $UP bench sched pipe -l $LOOPS > /dev/null
		after=$(bpftool -j prog show)
		kill -INT $PROF; wait $PROF
		NS[$c]+="$(ns_per_switch "$before" "$after") "
	done
	echo "round $round done" >&2
done

median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
up=$(echo ${NS[upstream]} | median)
{
	echo "| configuration | BPF ns per switch (median of $ROUNDS) | vs perf 7.3 | runs |"
	echo "|---|---|---|---|"
	for c in $CONFIGS; do
		m=$(echo ${NS[$c]} | median)
		echo "| $c | $m | $(awk -v m=$m -v u=$up 'BEGIN { printf "%.2fx", m / u }') | ${NS[$c]}|"
	done
	echo
	echo "| configuration | programs: instructions after the verifier | maps |"
	echo "|---|---|---|"
	for c in $CONFIGS; do
		echo "| $c | ${INSNS[$c]% |*} | ${INSNS[$c]##*| } |"
	done
} | tee "$RESULTS"
