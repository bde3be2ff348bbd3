#!/bin/bash
# A perf.data with off-cpu samples, direct and written at the end, cut
# anywhere, is read by perf report and perf script without hanging and
# without dying of a signal.  A cut inside the data section is read up to
# its last complete event with one warning about the truncation, and ends
# with exit status 0.  At event boundaries of the data section (60 or so,
# its start and its end among them), perf script shows exactly the samples
# before the cut, checked against the times of the PERF_RECORD_SAMPLE
# records decoded here.  A run still going after 20 s is a hang, and a
# failure (the test stops after 5 of them).
set -uo pipefail
cd "$(dirname "$0")/.."
out=build/check/truncated
rm -rf $out
mkdir -p $out
$PERF record -q --off-cpu --off-cpu-thresh 20 -e dummy -o $out/full.data -- \
	"$WORKLOADS/offcpu-demo" -r 3 -f $out/fsync.tmp > /dev/null || exit 1
python3 - "$PERF" $out <<'PY'
import collections, struct, subprocess, sys

perf, out = sys.argv[1], sys.argv[2]
full = open(f"{out}/full.data", "rb").read()
TIMEOUT = 20
PERF_RECORD_SAMPLE = 9
PERF_RECORD_COMPRESSED = 81
SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME, SAMPLE_IDENTIFIER = 1 << 0, 1 << 1, 1 << 2, 1 << 16

# struct perf_file_header: magic, size, attr_size, attrs, data, event_types
if full[:8] != b"PERFILE2":
    sys.exit(f"{out}/full.data: not a little-endian perf.data")
size, attr_size = struct.unpack_from("<QQ", full, 8)
attrs_off, attrs_size, data_off, data_size = struct.unpack_from("<4Q", full, 24)
data_end = data_off + data_size

# each attr: struct perf_event_attr, then the file section of its ids
sample_types, by_id = set(), {}
for a in range(attrs_off, attrs_off + attrs_size, attr_size):
    sample_type = struct.unpack_from("<Q", full, a + 24)[0]
    ids_off, ids_size = struct.unpack_from("<QQ", full, a + attr_size - 16)
    sample_types.add(sample_type)
    for i in struct.unpack_from(f"<{ids_size // 8}Q", full, ids_off):
        by_id[i] = sample_type

def sample_time(off):
    """The time of the PERF_RECORD_SAMPLE at off, decoded from its fields."""
    if len(sample_types) == 1:
        st = next(iter(sample_types))
    else:
        st = by_id[struct.unpack_from("<Q", full, off + 8)[0]]
    pos = off + 8 + 8 * sum(bool(st & f) for f in (SAMPLE_IDENTIFIER, SAMPLE_IP, SAMPLE_TID))
    return struct.unpack_from("<Q", full, pos)[0] if st & SAMPLE_TIME else None

# the events of the data section: (end offset, time of a sample or None)
events, off = [], data_off
while off < data_end:
    typ, _misc, esize = struct.unpack_from("<IHH", full, off)
    if esize < 8 or typ == PERF_RECORD_COMPRESSED:
        sys.exit(f"{out}/full.data: cannot walk the event at {off} (type {typ}, size {esize})")
    events.append((off + esize, sample_time(off) if typ == PERF_RECORD_SAMPLE else None))
    off += esize
if off != data_end:
    sys.exit(f"{out}/full.data: the last event ends at {off}, past the data at {data_end}")
times = [t for _, t in events if t is not None]
kinds = subprocess.run([perf, "script", "-F", "offcpu", "-i", f"{out}/full.data"],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout.decode().split()
direct, aggregated = kinds.count("direct"), kinds.count("aggregated")
if not direct or not aggregated or direct + aggregated != len(times):
    sys.exit(f"{out}/full.data: want {len(times)} timed samples, direct and written at the "
             f"end: {direct} direct, {aggregated} aggregated")

# cut points: ~40 in the first page, ~80 over the rest, the event boundaries
cuts = {4096 * i // 41 + i % 7 for i in range(1, 41)}
cuts |= {4096 + (len(full) - 4096) * i // 81 + i % 11 for i in range(1, 81)}
bounds = {data_off: 0}
step = max(1, len(events) // 60)
for k in list(range(step, len(events), step)) + [len(events)]:
    bounds[events[k - 1][0]] = k
cuts = sorted((cuts | set(bounds)) - {0, len(full)})

def run(args, cut):
    """Run perf on the cut file: (status or 'hang', stdout, stderr)."""
    try:
        r = subprocess.run([perf] + args + ["-i", f"{out}/cut.data"], timeout=TIMEOUT,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except subprocess.TimeoutExpired:
        return "hang", "", ""
    return (r.returncode, r.stdout.decode(errors="replace"),
            r.stderr.decode(errors="replace"))

MAX_HANGS = 5  # each costs TIMEOUT seconds: enough to fail, then stop
hangs = crashes = errors = good_bounds = bad_bounds = 0
for cut in cuts:
    if hangs >= MAX_HANGS:
        print(f"stopped after {hangs} hangs, before the cut at {cut} bytes")
        break
    open(f"{out}/cut.data", "wb").write(full[:cut])
    where = f"on the first {cut} of {len(full)} bytes (data {data_off}..{data_end})"
    cmds = [["report", "--stdio"], ["script", "-F", "comm,tid,time,period,ip,sym"]]
    if cut in bounds:
        cmds.append(["script", "-F", "tid,time", "--ns"])
    for cmd in cmds:
        status, stdout, stderr = run(cmd, cut)
        name = " ".join(["perf"] + cmd)
        if status == "hang":
            print(f"HANG: {name} still running after {TIMEOUT} s {where}")
            hangs += 1
            if hangs >= MAX_HANGS:
                break
            continue
        if status < 0:
            print(f"CRASH: {name} killed by signal {-status} {where}")
            crashes += 1
            continue
        if data_off < cut < data_end:
            warnings = [l for l in stderr.replace(f"{out}/cut.data", "cut.data").splitlines()
                        if "truncated" in l]
            if status != 0 or len(warnings) != 1:
                print(f"ERROR: {name} exited with {status} and {len(warnings)} "
                      f"truncation warnings {where}:")
                print("  " + "\n  ".join(stderr.splitlines()[:5]))
                errors += 1
        if cmd[-1] == "--ns":
            k = bounds[cut]
            want = collections.Counter(t for _, t in events[:k] if t is not None)
            got = collections.Counter()
            for line in filter(str.strip, stdout.splitlines()):
                try:
                    secs, nsecs = line.split()[-1].rstrip(":").split(".")
                    got[int(secs) * 1000000000 + int(nsecs)] += 1
                except ValueError:
                    got[line] += 1  # not a sample time: counts as a wrong sample
            if got == want:
                good_bounds += 1
            else:
                print(f"WRONG SAMPLES: {name} shows {sum(got.values())} samples, "
                      f"{sum((got - want).values())} not in the first {k} events, "
                      f"and misses {sum((want - got).values())} of their "
                      f"{sum(want.values())} {where}")
                bad_bounds += 1

print(f"read {len(cuts)} cuts of a {len(full)}-byte perf.data ({len(times)} samples, "
      f"{direct} direct) with perf report and perf script: {hangs} hangs, "
      f"{crashes} crashes, {errors} errors, {good_bounds} of {len(bounds)} "
      f"boundary cuts with the expected samples")
sys.exit(1 if hangs or crashes or errors or bad_bounds else 0)
PY
