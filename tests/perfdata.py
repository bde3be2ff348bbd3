#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Read the offcpu-time samples of a perf.data file the way perf 6.16 and
later (upstream) read them, and write a copy in upstream's plain layout.

    perfdata.py attr FILE         the offcpu-time attr's sample_type; fails
                                  unless it has RAW and not CALLCHAIN
    perfdata.py decode FILE       one line per offcpu-time sample, by upstream's
                                  rule: pid tid period ip nr cgroup ext, where
                                  ext is what the extension says (state and
                                  direct/aggregated) or "-" if there is none
    perfdata.py plain FILE OUT    OUT: FILE with the extension removed from
                                  every offcpu-time sample (the raw data and
                                  the sample shrink, the data section and the
                                  feature sections are moved up)

Plain python3, little-endian files only.  Anything it does not know (a
sample_type bit, a compressed or AUX file) makes it fail, not guess.
"""
import struct
import sys

PERF_TYPE_SOFTWARE = 1
PERF_COUNT_SW_BPF_OUTPUT = 10
PERF_RECORD_SAMPLE = 9
PERF_RECORD_COMPRESSED = 81
PERF_CONTEXT_MAX = 2**64 - 4095

# sample_type bits, in the order of the fields in a sample (see
# perf_output_sample() in kernel/events/core.c), limited to what our files
# have; CALLCHAIN and RAW are variable, the others one u64 each.
SAMPLE_BITS = [
    ("IDENTIFIER", 1 << 16), ("IP", 1 << 0), ("TID", 1 << 1), ("TIME", 1 << 2),
    ("ADDR", 1 << 3), ("ID", 1 << 6), ("STREAM_ID", 1 << 9), ("CPU", 1 << 7),
    ("PERIOD", 1 << 8), ("CALLCHAIN", 1 << 5), ("RAW", 1 << 10),
    ("CGROUP", 1 << 21),
]
KNOWN_BITS = sum(bit for _, bit in SAMPLE_BITS)
IDENTIFIER, CALLCHAIN, RAW = 1 << 16, 1 << 5, 1 << 10

# feature bits whose data holds file offsets (of AUX data): not handled
HEADER_AUXTRACE = 18
HEADER_COMPRESSED = 27

OFF_CPU_EXT_MAGIC = 0x7866666F
OFF_CPU_ITEM_INFO = 1
OFF_CPU_ITEM_SPLIT = 2    # u64 blocked, u64 runq: their sum is the period
OFF_CPU_ITEM_WAKER = 3    # u32 pid, tid, context, reserved; comm[16]; u64 nr, ips[nr]
OFF_CPU_F_AGGREGATED = 1


def fail(msg):
    sys.exit(f"perfdata.py: {msg}")


def bit_names(sample_type):
    names = [n for n, b in SAMPLE_BITS if sample_type & b]
    if sample_type & ~KNOWN_BITS:
        names.append(hex(sample_type & ~KNOWN_BITS))
    return "|".join(names)


class PerfData:
    HEADER = struct.Struct("<8sQQ QQ QQ QQ 32s")

    def __init__(self, path):
        self.buf = open(path, "rb").read()
        (magic, self.header_size, self.attr_size, self.attrs_off, self.attrs_size,
         self.data_off, self.data_size, self.types_off, self.types_size,
         features) = self.HEADER.unpack_from(self.buf)
        if magic != b"PERFILE2":
            fail(f"{path}: not a little-endian perf.data file")
        self.features = int.from_bytes(features, "little")
        for bit in (HEADER_AUXTRACE, HEADER_COMPRESSED):
            if self.features & (1 << bit):
                fail(f"{path}: feature {bit} (AUX data or compression) not handled")
        self.attrs = []
        for off in range(self.attrs_off, self.attrs_off + self.attrs_size, self.attr_size):
            type_, _, config, _, sample_type = struct.unpack_from("<IIQQQ", self.buf, off)
            ids_off, ids_size = struct.unpack_from("<QQ", self.buf, off + self.attr_size - 16)
            ids = struct.unpack_from(f"<{ids_size // 8}Q", self.buf, ids_off)
            self.attrs.append(dict(type=type_, config=config, sample_type=sample_type,
                                   ids=ids, ids_off=ids_off))
        self.by_id = {i: a for a in self.attrs for i in a["ids"]}
        if len(self.attrs) > 1 and any(not a["sample_type"] & IDENTIFIER for a in self.attrs):
            fail(f"{path}: several events and not all have PERF_SAMPLE_IDENTIFIER")

    def offcpu_attr(self):
        found = [a for a in self.attrs if a["type"] == PERF_TYPE_SOFTWARE
                 and a["config"] == PERF_COUNT_SW_BPF_OUTPUT]
        if len(found) != 1:
            fail(f"{len(found)} BPF output events, expected the offcpu-time one")
        return found[0]

    def events(self):
        """(offset in the file, type, event bytes) of each event of the data section"""
        off, end = self.data_off, self.data_off + self.data_size
        while off < end:
            type_, misc, size = struct.unpack_from("<IHH", self.buf, off)
            if size < 8 or off + size > end:
                fail(f"bad event size {size} at {off}")
            if type_ == PERF_RECORD_COMPRESSED:
                fail("compressed events not handled")
            yield off, type_, self.buf[off:off + size]
            off += size

    def sample_attr(self, ev):
        if len(self.attrs) == 1:
            return self.attrs[0]
        ident = struct.unpack_from("<Q", ev, 8)[0]
        if ident not in self.by_id:
            fail(f"sample with unknown id {ident}")
        return self.by_id[ident]

    def offcpu_samples(self):
        """(event bytes, parsed sample) of each offcpu-time sample"""
        attr = self.offcpu_attr()
        for _, type_, ev in self.events():
            if type_ == PERF_RECORD_SAMPLE and self.sample_attr(ev) is attr:
                yield ev, parse_sample(ev, attr["sample_type"])


def parse_sample(ev, sample_type):
    """The fields of a sample; 'raw_at' is where its raw size is in ev."""
    if sample_type & ~KNOWN_BITS:
        fail(f"sample_type {bit_names(sample_type)} not handled")
    s, off = {}, 8
    for name, bit in SAMPLE_BITS:
        if not sample_type & bit:
            continue
        if name == "CALLCHAIN":
            nr = struct.unpack_from("<Q", ev, off)[0]
            s[name] = struct.unpack_from(f"<{nr}Q", ev, off + 8)
            off += 8 + nr * 8
        elif name == "RAW":
            size = struct.unpack_from("<I", ev, off)[0]
            s["raw_at"] = off
            s[name] = ev[off + 4:off + 4 + size]
            off += 4 + size
        else:
            s[name] = struct.unpack_from("<Q", ev, off)[0]
            off += 8
        if off > len(ev):
            fail(f"sample of {len(ev)} bytes shorter than its sample_type says")
    if off != len(ev):
        fail(f"sample of {len(ev)} bytes, its sample_type says {off}")
    return s


def upstream_decode(raw):
    """perf 6.16's reading of the raw data of an offcpu-time sample, plus
    where its plain part ends (the extension, if any, starts there)"""
    if len(raw) < 32:
        fail(f"raw data of {len(raw)} bytes")
    pid, tid, period, nr = struct.unpack_from("<IIQQ", raw, 0)
    end = 24 + nr * 8 + 8
    if end > len(raw):
        fail(f"callchain of {nr} entries does not fit in {len(raw)} bytes of raw data")
    ips = struct.unpack_from(f"<{nr}Q", raw, 24)
    cgroup = struct.unpack_from("<Q", raw, end - 8)[0]
    ip = ips[1] if nr > 1 else 0
    return dict(pid=pid, tid=tid, period=period, ips=ips, ip=ip, cgroup=cgroup, end=end)


def our_extension(raw, end, period=None):
    """'S direct', 'D aggregated', ... from the extension at raw[end:], or '-'
    if there is none (only the 4 padding bytes); fails if it is malformed"""
    rest = raw[end:]
    if rest == b"\0" * 4:
        return "-"
    if len(rest) < 12:
        fail(f"{len(rest)} bytes after the cgroup, neither padding nor an extension")
    magic, size = struct.unpack_from("<II", rest)
    if magic != OFF_CPU_EXT_MAGIC or size % 8 or size + 4 != len(rest) \
       or rest[size:] != b"\0" * 4:
        fail(f"bad extension: magic {magic:#x} size {size}, {len(rest)} bytes left")
    info, off = None, 8
    while off < size:
        type_, isize = struct.unpack_from("<II", rest, off)
        if isize < 8 or off + isize > size:
            fail(f"bad extension item: type {type_} size {isize}")
        if type_ == OFF_CPU_ITEM_INFO:
            flags, state = struct.unpack_from("<II", rest, off + 8)
            info = "%c %s" % (state, "aggregated" if flags & OFF_CPU_F_AGGREGATED else "direct")
        elif type_ == OFF_CPU_ITEM_SPLIT:
            blocked, runq = struct.unpack_from("<QQ", rest, off + 8)
            if period is not None and blocked + runq != period:
                fail(f"split: blocked {blocked} + runq {runq} != period {period}")
        elif type_ == OFF_CPU_ITEM_WAKER:
            (nr,) = struct.unpack_from("<Q", rest, off + 8 + 32)
            if isize != 48 + nr * 8:
                fail(f"waker item of {isize} bytes with {nr} ips")
        off += isize
    if info is None:
        fail("extension without an INFO item")
    return info


def plain_copy(pd, out):
    """Write pd with every offcpu-time sample's extension removed."""
    attr = pd.offcpu_attr()
    data, n = bytearray(), 0
    for _, type_, ev in pd.events():
        if type_ == PERF_RECORD_SAMPLE and pd.sample_attr(ev) is attr:
            s = parse_sample(ev, attr["sample_type"])
            raw = s["RAW"]
            d = upstream_decode(raw)
            our_extension(raw, d["end"])    # checks it is there and well formed
            plain = raw[:d["end"]] + b"\0" * 4
            at = s["raw_at"]
            ev = bytearray(ev[:at] + struct.pack("<I", len(plain)) + plain
                           + ev[at + 4 + len(raw):])
            struct.pack_into("<H", ev, 6, len(ev))
            n += 1
        data += ev
    delta = len(data) - pd.data_size
    old_end = pd.data_off + pd.data_size

    # everything before the data (header, attrs, ids) is kept in place;
    # after it come the feature sections, moved by delta
    buf = bytearray(pd.buf[:pd.data_off])
    for sec in (pd.attrs_off, pd.types_off) + tuple(a["ids_off"] for a in pd.attrs):
        if sec >= old_end and sec != 0:
            fail("a header section after the data: not handled")
    struct.pack_into("<Q", buf, 48, len(data))           # header.data.size
    tail = bytearray(pd.buf[old_end:])
    for i in range(bin(pd.features).count("1")):        # one section per feature
        off = struct.unpack_from("<Q", tail, i * 16)[0]
        if off < old_end:
            fail(f"feature section at {off}, before the end of the data")
        struct.pack_into("<Q", tail, i * 16, off + delta)
    open(out, "wb").write(buf + data + tail)
    return n


def main(argv):
    if len(argv) < 3:
        fail(__doc__)
    cmd, pd = argv[1], PerfData(argv[2])
    if cmd == "attr":
        st = pd.offcpu_attr()["sample_type"]
        print(bit_names(st))
        if not st & RAW or st & CALLCHAIN:
            fail("offcpu-time sample_type: want RAW and not CALLCHAIN")
    elif cmd == "decode":
        for _, s in pd.offcpu_samples():
            d = upstream_decode(s["RAW"])
            print(d["pid"], d["tid"], d["period"], "%x" % d["ip"], len(d["ips"]),
                  d["cgroup"], our_extension(s["RAW"], d["end"], d["period"]))
    elif cmd == "plain" and len(argv) == 4:
        print(plain_copy(pd, argv[3]), "samples rewritten")
    else:
        fail(__doc__)


if __name__ == "__main__":
    main(sys.argv)
