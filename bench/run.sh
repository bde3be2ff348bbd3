#!/bin/bash
# Off-CPU profilers side by side: what each costs per context switch, what
# it writes, how long it takes to finish and to report, what BPF map memory
# it holds.  Configurations are interleaved within each round, medians over
# the rounds.  Writes bench/RESULTS.md and bench/overhead.png.
#   bench/run.sh [rounds]      (ROUNDS=1 QUICK=1 for a smoke run)
set -uo pipefail
cd "$(dirname "$0")/.."
TOP=$PWD
ROUNDS=${1:-${ROUNDS:-5}}
PERF=$TOP/build/bin/perf
BASE=$TOP/build/base/bin/perf
W=$TOP/build/workloads
OUT=$TOP/build/bench
mkdir -p "$OUT"
PIPE_LOOPS=100000 MSG_LOOPS=50 MIX_ROUNDS=100
[ -n "${QUICK:-}" ] && PIPE_LOOPS=20000 MSG_LOOPS=5 MIX_ROUNDS=10

CONFIGS="none floor ours ours_nowake ours_user ours_t0 ours_t0_nowake ours_dwarf ours_s100 ours_s1000
	ours_s10000 base offcputime sched_switch"
declare -A R	# R[config,metric] = "value value ..." over rounds

# start the profiler of a configuration in the background, system wide
start() {	# config data-file
	case $1 in
	none) return ;;
	floor) "$OUT/floor" "$OUT/empty.bpf.o" & ;;
	ours) $PERF record -q --off-cpu -a -e dummy -o "$2" & ;;
	ours_user) $PERF record -q --off-cpu --user-callchains -a -e dummy -o "$2" & ;;
	ours_nowake) $PERF record -q --off-cpu --no-off-cpu-wakers -a -e dummy -o "$2" & ;;
	ours_t0) $PERF record -q --off-cpu --off-cpu-thresh 0 -a -e dummy -o "$2" & ;;
	ours_t0_nowake) $PERF record -q --off-cpu --off-cpu-thresh 0 --no-off-cpu-wakers \
		-a -e dummy -o "$2" & ;;
	ours_dwarf) $PERF record -q --off-cpu --call-graph dwarf -a -e dummy -o "$2" & ;;
	ours_s*) $PERF record -q --off-cpu --off-cpu-sample ${1#ours_s} -a -e dummy -o "$2" & ;;
	base) $BASE record -q --off-cpu -a -e dummy -o "$2" & ;;
	offcputime) offcputime > "$2" 2>&1 & ;;
	sched_switch) $PERF record -q -e sched:sched_switch -g -a -o "$2" & ;;
	esac
	PROF=$!
	sleep 2		# let it load and attach
	maps_after=$(bpftool -j map show 2>/dev/null)
}

# stop it, measuring how long it takes to finish writing
stop() {	# config
	local t0
	case $1 in
	none) FINISH=0; return ;;
	esac
	t0=$(date +%s%N)
	kill -INT $PROF
	wait $PROF
	FINISH=$(( $(date +%s%N) - t0 ))
}

# BPF run time per context switch (kernel.bpf_stats_enabled): the run time
# of all the programs of the profiler (sched_switch, sched_waking, irq...)
# over the runs of the one that ran most (sched_switch), over the pipe
# workload
prog_stats() { bpftool -j prog show 2>/dev/null; }
run_ns() {
	python3 -c 'import json, sys
old = {p["id"]: p for p in json.loads(sys.argv[1] or "[]")}
new = [p for p in json.loads(sys.argv[2] or "[]") if p["id"] in old]
d = [(p.get("run_cnt", 0) - old[p["id"]].get("run_cnt", 0),
      p.get("run_time_ns", 0) - old[p["id"]].get("run_time_ns", 0)) for p in new]
cnt = max(c for c, _ in d) if d else 0
print(sum(ns for _, ns in d) / cnt if cnt else 0)' "$1" "$2"
}

# BPF map memory the profiler holds: maps that are new since before it
map_bytes() {
	python3 -c 'import json, sys
before = {m["id"] for m in json.loads(sys.argv[1] or "[]")}
after = json.loads(sys.argv[2] or "[]")
print(sum(m.get("bytes_memlock", 0) for m in after if m["id"] not in before))' \
		"$maps_before" "$maps_after"
}

run_pipe() { taskset -c 0 $PERF bench sched pipe -l $PIPE_LOOPS | awk '/usecs\/op/ { print $1 }'; }
run_msg() { $PERF bench sched messaging -l $MSG_LOOPS | awk '/Total time/ { print $3 }'; }
run_mix() {
	local t0=$(date +%s%N)
	$W/offcpu-demo -r $MIX_ROUNDS -m 2 -S 10 -f "$OUT/fsync.tmp" > /dev/null
	echo $(( ($(date +%s%N) - t0) / 1000000 ))
}

add() { R[$1,$2]+="$3 "; }

make -s -C workloads OUT="$W"
sysctl -q kernel.bpf_stats_enabled=1
trap 'sysctl -q kernel.bpf_stats_enabled=0' EXIT
clang -O2 -g -target bpf -I/usr/include/x86_64-linux-gnu -c bench/empty.bpf.c \
	-o "$OUT/empty.bpf.o" || exit 1
cc -O2 -o "$OUT/floor" bench/floor.c -lbpf || exit 1

for round in $(seq "$ROUNDS"); do
	for c in $CONFIGS; do
		for w in pipe msg mix; do
			data=$OUT/$c.$w.data
			rm -f "$data"
			maps_before=$(bpftool -j map show 2>/dev/null)
			start $c "$data"
			ctxt0=$(awk '/^ctxt/ { print $2 }' /proc/stat)
			progs0=$(prog_stats)
			add $c $w "$(run_$w)"
			progs1=$(prog_stats)
			ctxt1=$(awk '/^ctxt/ { print $2 }' /proc/stat)
			case $c in none|sched_switch) ;;
			*) add $c $w.bpfns "$(run_ns "$progs0" "$progs1")" ;;
			esac
			add $c $w.ctxt $((ctxt1 - ctxt0))
			[ $c = none ] || add $c $w.maps "$(map_bytes)"
			stop $c
			add $c $w.finish $FINISH
			if [ -f "$data" ]; then
				add $c $w.bytes "$(stat -c %s "$data")"
				if [ "${data%.data}" != "$data" ] && [ $c != offcputime ]; then
					t0=$(date +%s%N)
					$PERF report -i "$data" --stdio > /dev/null 2>&1
					add $c $w.report $(( $(date +%s%N) - t0 ))
				fi
			fi
		done
	done
	echo "round $round done" >&2
done

# finishing a recording of ~100,000 aggregated entries (10 threads x 10,000
# stacks): from the end of the workload to the end of perf record
for round in $(seq "$ROUNDS"); do
	for c in ours base; do
		p=$PERF; [ $c = base ] && p=$BASE
		$p record -q --off-cpu -e dummy -o "$OUT/many.$c.data" -- \
			sh -c "$W/many-stacks; date +%s%N > $OUT/end"
		add $c many.finish $(( $(date +%s%N) - $(cat "$OUT/end") ))
		add $c many.samples "$($PERF script -i "$OUT/many.$c.data" -F period 2> /dev/null | grep -c .)"
	done
done

# bcc's offcputime compiles its BPF program against the kernel headers
if ! command -v offcputime-bpfcc > /dev/null; then
	export BCC_NOTE="not installed"
elif err=$(timeout 30 offcputime-bpfcc 1 2>&1); then
	export BCC_NOTE="runs (not measured)"
else
	export BCC_NOTE="not runnable here: $(echo "$err" | grep -m1 'Unable to find kernel headers' || echo "$err" | head -1)"
fi

# medians, written as "config metric value" lines
for key in "${!R[@]}"; do
	echo "${key%%,*} ${key#*,} $(echo ${R[$key]} | tr ' ' '\n' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')"
done | sort > "$OUT/medians.txt"

export FINISH_NOTE=$(awk '$1 == "ours" && $2 == "many.finish" { f = $3 }
	$1 == "ours" && $2 == "many.samples" { n = $3 }
	$1 == "base" && $2 == "many.finish" { b = $3 }
	END { printf "%.2f s for %d entries (base perf: %.2f s)", f / 1e9, n, b / 1e9 }' "$OUT/medians.txt")
RESULTS=${RESULTS:-bench/RESULTS.md}
python3 bench/report.py "$OUT/medians.txt" "$ROUNDS" > "$RESULTS"
gnuplot -e "datafile='$OUT/chart.dat'; outfile='${RESULTS%.md}.png'" bench/chart.gp
cat "$RESULTS"
