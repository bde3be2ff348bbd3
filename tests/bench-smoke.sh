#!/bin/bash
# The benchmark harness still runs: one short round (LOOPS=5000), into
# build/bench/smoke.md, and every configuration has its row with a BPF run
# time per switch.  Nothing about time is asserted here: that is what
# bench/RESULTS.md is for.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh libbpf-tools bpftool
LOOPS=5000 RESULTS=build/bench/smoke.md bench/cost.sh 1
for row in upstream ours ours_g ours_kernel ours_wakers ours_g_wakers ours_wakers_t0 \
	   ours_dwarf offcputime; do
	grep -E -q "^\| $row \| [1-9][0-9]* \|" build/bench/smoke.md ||
		{ echo "no row with a BPF run time for $row"; exit 1; }
done
