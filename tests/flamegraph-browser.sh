#!/bin/bash
# The off-CPU flame graph of the demo, in headless Chromium: drawn offline,
# with each thread's blocking function as wide as its time off CPU in it;
# the off-wake one with each thread's waker above it; the wall-clock one
# with each thread's time on and off CPU; the chain graph with the reader's
# wait ending at the sleeper's timer.
set -euo pipefail
cd "$(dirname "$0")/.."
B=build/browser
tests/browser/setup.sh
scripts/flamegraph-demo.sh -S3
node $B/flamegraph.mjs "$PWD/build/demo/offcpu.html" build/demo/workload.txt build/flamegraph.png
node $B/offwake.mjs "$PWD/build/demo/offwake.html" build/offwake.png
node $B/wallclock.mjs "$PWD/build/demo/wallclock.html" build/demo/wallclock/workload.txt \
	build/wallclock.png
node $B/chains.mjs "$PWD/build/demo/chains.html" build/chains.png
