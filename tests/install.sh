#!/bin/bash
# make install puts this perf and its manual under PREFIX: perf help record
# there shows this perf's page (--off-cpu takes what to record, wakers
# among them: upstream's takes nothing), perf help off-cpu the series' own
# page; and so does build/bin/perf, that make installs into build/install.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=$PWD/build/check/prefix
rm -rf "$prefix"
make -s install PREFIX="$prefix"
help() { MANPAGER=cat MANWIDTH=100 "${PERF_BIN:-$prefix/bin/perf}" help "$1" 2>&1; }
help record > build/check/install-record.txt
grep -A25 -- '--off-cpu\[=what,...\]' build/check/install-record.txt | grep -w 'wakers' ||
	{ echo "perf help record: not this perf's page"; head build/check/install-record.txt; exit 1; }
help off-cpu | grep 'HOW A TASK WAITED' || { echo "perf help off-cpu: no page"; exit 1; }
PERF_BIN=build/bin/perf help record | grep -q -- '--off-cpu\[=what,...\]' ||
	{ echo "build/bin/perf help record: not this perf's page"; exit 1; }
