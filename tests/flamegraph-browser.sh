#!/bin/bash
# The off-CPU flame graph of the demo, in headless Chromium: drawn offline,
# with each thread's blocking function as wide as its time off CPU in it;
# the off-wake one with each thread's waker above it; the wall-clock one
# with each thread's time on and off CPU; the chain graph with the reader's
# wait ending at the sleeper's timer.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh chromium
B=build/browser
mkdir -p $B
cp tests/browser/package.json tests/browser/package-lock.json tests/browser/*.mjs $B/
[ -d $B/node_modules/playwright-core ] || (cd $B && npm ci --silent --no-audit --no-fund)
scripts/flamegraph-demo.sh -S3
node $B/flamegraph.mjs "$PWD/build/demo/offcpu.html" build/demo/workload.txt build/flamegraph.png
node $B/offwake.mjs "$PWD/build/demo/offwake.html" build/offwake.png
node $B/wallclock.mjs "$PWD/build/demo/wallclock.html" build/demo/wallclock/workload.txt \
	build/wallclock.png
node $B/chains.mjs "$PWD/build/demo/chains.html" build/chains.png
