#!/bin/bash
# Fuzz the readers of the off-cpu raw data (tools/perf/util/off_cpu.c) with libFuzzer, with
# the address and undefined behaviour sanitizers, for a bounded time.
#   scripts/fuzz.sh [seconds]      (default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-60}
S=build/src/tools
OUT=build/fuzz
mkdir -p $OUT/corpus
rm -f $OUT/corpus/valid-*	# the old format's seeds
scripts/deps.sh clang libclang-rt-14-dev
# -fno-sanitize=alignment: the raw data of a sample starts 4 bytes into a
# u64 (after its u32 size), so its u64 words, and sample.callchain that
# points into it, are 4-byte aligned only.  That is upstream's layout (perf
# 6.16+), which the series keeps; perf reads the words with memcpy, but the
# callchain is read in place by every user of sample.callchain, as for
# upstream.  Fine on x86 and arm64; UBSan would flag each of those reads.
clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize=alignment \
	-fno-sanitize-recover=all \
	-D_GNU_SOURCE -I$S/perf -I$S/perf/util -I$S/include -I$S/include/uapi -I$S/lib -I$S/lib/perf/include \
	-I$S/arch/x86/include -o $OUT/off_cpu_raw_fuzz \
	tests/fuzz/off_cpu_raw_fuzz.c $S/perf/util/off_cpu.c $S/lib/hweight.c $S/lib/string.c $S/lib/ctype.c
# seeds: valid raw data as in samples (see bpf_skel/off_cpu_data.h): pid,
# tid, period, nr, ips[nr], cgroup_id, then the extension (magic, version,
# size, items) or not (upstream's layout), then the 4 bytes of padding the
# kernel adds; an extension with an item this perf does not know; one with
# every item (info, waker, user registers and stack)
python3 - $OUT/corpus <<'PY'
import struct, sys
d = sys.argv[1]
def ext(*items):
    body = b"".join(struct.pack("<II", t, 8 + len(data)) + data for t, data in items)
    return struct.pack("<IIII", 0x7866666f, 1, 16 + len(body), 0) + body
info = lambda flags, state: (1, struct.pack("<IIQQ", flags, ord(state), 0xffffffff81000010, 1000))
for nr in (0, 1, 4, 66):
    # PERF_CONTEXT_KERNEL, kernel frames, PERF_CONTEXT_USER, user frames
    k = max(nr - 2, 0) // 2
    ips = ([2**64 - 128] + [0xffffffff81000000 + i for i in range(k)] +
           [2**64 - 512] + [0x401000 + i for i in range(max(nr - 2 - k, 0))])[:nr]
    plain = struct.pack("<IIQQ%dQQ" % nr, 1234, 1235, 500000000, nr, *ips, 1)
    pad = b"\0" * 4
    open(f"{d}/plain-{nr}", "wb").write(plain + pad)
    open(f"{d}/direct-{nr}", "wb").write(plain + ext(info(2, "S")) + pad)
    open(f"{d}/aggregated-{nr}", "wb").write(plain + ext(info(1, "D")) + pad)
    open(f"{d}/unknown-{nr}", "wb").write(plain + ext(info(0, "I"), (9, bytes(16))) + pad)
    waker = (2, struct.pack("<III4s16sQQQ", 77, 78, 1, b"", b"writer", 2,
                            2**64 - 128, 0xffffffff81000000))
    regs = (3, struct.pack("<QQ3Q", 2, 0b111, 1, 2, 3))
    stack = (4, struct.pack("<Q16s", 13, b"stack bytes"))
    open(f"{d}/all-{nr}", "wb").write(plain + ext(info(0, "S"), waker, regs, stack) + pad)
PY
$OUT/off_cpu_raw_fuzz -max_total_time="$SECS" -print_final_stats=1 -artifact_prefix=$OUT/ $OUT/corpus 2>&1 |
	tee $OUT/fuzz.log | grep -E "stat::number_of_executed_units|ERROR|SUMMARY|Done"
