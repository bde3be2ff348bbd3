#!/bin/bash
# Fuzz off_cpu_raw__parse() (tools/perf/util/off_cpu.c) with libFuzzer, with
# the address and undefined behaviour sanitizers, for a bounded time.
#   scripts/fuzz.sh [seconds]      (default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-60}
S=build/src/tools
OUT=build/fuzz
mkdir -p $OUT/corpus
scripts/deps.sh clang libclang-rt-14-dev
clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-D_GNU_SOURCE -I$S/perf -I$S/include -I$S/include/uapi -I$S/lib/perf/include \
	-I$S/arch/x86/include -o $OUT/off_cpu_raw_fuzz \
	tests/fuzz/off_cpu_raw_fuzz.c $S/perf/util/off_cpu.c
# seeds: valid raw data (version 1, tid, period, cgroup, a callchain)
python3 - $OUT/corpus <<'PY'
import struct, sys
d = sys.argv[1]
for nr in (0, 1, 4, 66):
    ips = [2**64 - 128] + [0x401000 + i for i in range(nr - 1)] if nr else []
    raw = struct.pack("<IQQQQ", 1, 1234 << 32 | 1234, 500000000, 0, nr)
    raw += struct.pack("<%dQ" % nr, *ips)
    open(f"{d}/valid-{nr}", "wb").write(raw)
PY
$OUT/off_cpu_raw_fuzz -max_total_time="$SECS" -print_final_stats=1 $OUT/corpus 2>&1 |
	tee $OUT/fuzz.log | grep -E "stat::number_of_executed_units|ERROR|SUMMARY|Done"
