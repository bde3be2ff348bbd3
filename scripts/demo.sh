#!/bin/bash
# Off-CPU profile of workloads/offcpu-demo: where did its threads wait?
set -euo pipefail
cd "$(dirname "$0")/.."
PERF=build/bin/perf
OUT=build/demo
make -s -C workloads OUT="$PWD/build/workloads"
mkdir -p $OUT

set -x
$PERF record --off-cpu -g -e dummy -o $OUT/perf.data -- \
	build/workloads/offcpu-demo -f $OUT/fsync.tmp
$PERF report -i $OUT/perf.data --stdio --quiet --no-children \
	--comms sleeper,piper,locker,syncer -g caller,0.5,callee,function,percent \
	--percent-limit 1
