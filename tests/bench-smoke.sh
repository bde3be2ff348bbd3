#!/bin/bash
# The benchmark harness still runs: one short round (QUICK=1), into
# build/bench/smoke.md, and every profiler has its row with a BPF run time.
# Nothing about time is asserted here: that is what bench/RESULTS.md is for.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh libbpf-tools bpftool gnuplot-nox libbpf-dev
[ -x build/base/bin/perf ] || make -s base
QUICK=1 RESULTS=build/bench/smoke.md bench/run.sh 1
for row in "(floor)" "ours: --off-cpu -a" "ours: --off-cpu --user-callchains" \
	   "ours: --off-cpu --no-off-cpu-wakers" "ours: --off-cpu --call-graph dwarf" \
	   "ours: --off-cpu --off-cpu-sample 1000" \
	   "perf 6.12 --off-cpu" "libbpf-tools offcputime"; do
	grep -F "$row" build/bench/smoke.md | grep -E -q '\| [0-9,]+ \|' ||
		{ echo "no row with a BPF run time for $row"; exit 1; }
done
grep -q "finishing with ~100,000 aggregated entries" build/bench/smoke.md
test -s build/bench/smoke.png
