#!/bin/bash
# Off-CPU flame graph of workloads/offcpu-demo: build/demo/offcpu.html, and
# the folded stacks (build/demo/offcpu.folded) for other flame graph tools.
#   scripts/flamegraph-demo.sh [workload options]
set -euo pipefail
cd "$(dirname "$0")/.."
PERF=$PWD/build/bin/perf
OUT=build/demo
make -s -C workloads OUT="$PWD/build/workloads"
mkdir -p $OUT
cd $OUT
# the sleeper sleeps 3 times as long as the others wait: 3 times as wide
$PERF record -q --off-cpu -e dummy -o perf.data -- \
	../workloads/offcpu-demo -f fsync.tmp "${@:--S3}" > workload.txt
$PERF script report flamegraph -o offcpu.html
$PERF script report stackcollapse > offcpu.folded
echo "flame graph: $PWD/offcpu.html, folded stacks: $PWD/offcpu.folded"
