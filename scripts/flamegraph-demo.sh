#!/bin/bash
# Off-CPU flame graph of workloads/offcpu-demo: build/demo/offcpu.html, and
# the folded stacks (build/demo/offcpu.folded) for other flame graph tools;
# its off-wake flame graph: build/demo/offwake.html, build/demo/offwake.folded;
# the wall-clock flame graph of perf test -w offcpu_wallclock:
# build/demo/wallclock.html; the chain graph of perf test -w offcpu_chain:
# build/demo/chains.html.
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
$PERF script report flamegraph -- -o offcpu.html
$PERF script report stackcollapse > offcpu.folded
# off-wake: who woke the threads, for the samples output directly (50 ms
# waits: a 10 ms threshold)
mkdir -p offwake
(cd offwake && $PERF record -q --off-cpu -g --off-cpu=wakers --off-cpu-thresh 10 -e dummy \
	-o perf.data -- ../../workloads/offcpu-demo -f ../fsync.tmp > workload.txt &&
 $PERF script report flamegraph -- --offwake -o ../offwake.html &&
 $PERF script report stackcollapse -- --offwake > ../offwake.folded)
# wall-clock: on CPU (cpu-clock), off CPU and preempted, per thread
mkdir -p wallclock
(cd wallclock && $PERF record -q -e cpu-clock -c 100000 --off-cpu=runnable -g \
	-o perf.data -- $PERF test -w offcpu_wallclock > workload.txt &&
 $PERF script report flamegraph -- --wallclock -o ../wallclock.html)
# wait chains: a reader waits for a writer, that waits for a sleeper
mkdir -p chains
(cd chains && $PERF script record offcpu-chain -q -o perf.data -- \
	$PERF test -w offcpu_chain 3 100 > workload.txt &&
 $PERF script report offcpu-chain -i perf.data -- --flamegraph ../chains.html)
echo "flame graph: $PWD/offcpu.html, folded stacks: $PWD/offcpu.folded"
echo "off-wake flame graph: $PWD/offwake.html, folded stacks: $PWD/offwake.folded"
echo "wall-clock flame graph: $PWD/wallclock.html"
echo "chain graph: $PWD/chains.html"
