#!/bin/bash
# A perf.data with off-cpu samples, direct and written at the end, cut
# anywhere, is read by perf report and perf script without a crash (an
# error exit is fine, death by a signal is not).  Known open bug: some
# cuts make perf report loop forever; each run is stopped after 20 s and
# such hangs are listed, not counted as crashes, until that is fixed.
set -uo pipefail
cd "$(dirname "$0")/.."
out=build/check/truncated
mkdir -p $out
$PERF record -q --off-cpu --off-cpu-thresh 20 -e dummy -o $out/full.data -- \
	"$WORKLOADS/offcpu-demo" -r 3 -f $out/fsync.tmp > /dev/null || exit 1
python3 - "$PERF" $out <<'PY'
import os, subprocess, sys
perf, out = sys.argv[1], sys.argv[2]
full = open(f"{out}/full.data", "rb").read()
cmds = [["report", "--stdio"], ["script", "-F", "comm,tid,time,period,ip,sym"]]
crashes = 0
for i in range(1, 40):
    cut = len(full) * i // 40 + i
    open(f"{out}/cut.data", "wb").write(full[:cut])
    for cmd in cmds:
        try:
            r = subprocess.run([perf] + cmd + ["-i", f"{out}/cut.data"], timeout=20,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            print(f"KNOWN BUG: perf {cmd[0]} still running after 20 s on the first {cut} of {len(full)} bytes")
            continue
        if r.returncode < 0:
            print(f"perf {cmd[0]} killed by signal {-r.returncode} on the first {cut} of {len(full)} bytes")
            crashes += 1
print(f"read 39 cuts of a {len(full)}-byte perf.data with perf report and perf script: {crashes} crashes")
sys.exit(1 if crashes else 0)
PY
