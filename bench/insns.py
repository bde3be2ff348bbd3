#!/usr/bin/python3
# bench/insns.py PERF [ARGS...]: the BPF programs that 'PERF record ARGS
# -- sleep 2' loads (those whose fds it holds), with their translated
# (xlated_prog_len / 8) and verified (verified_insns) instructions, as
# veristat counts them: one markdown table row per program.  Needs root
# and Linux 5.16 or later.
import ctypes, ctypes.util, os, struct, subprocess, sys, time

libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
SYS_BPF, PROG_GET_FD_BY_ID, OBJ_GET_INFO_BY_FD = 321, 13, 15

def bpf(cmd, attr):
    buf = ctypes.create_string_buffer(attr, 128)
    ret = libc.syscall(SYS_BPF, cmd, buf, 128)
    return ret, buf.raw

def prog_info(pid):
    fd, _ = bpf(PROG_GET_FD_BY_ID, struct.pack("III", pid, 0, 0))
    if fd < 0:
        return None
    info = ctypes.create_string_buffer(256)
    bpf(OBJ_GET_INFO_BY_FD, struct.pack("IIQ", fd, 256, ctypes.addressof(info)))
    os.close(fd)
    raw = info.raw
    name = raw[64:80].split(b"\0")[0].decode()
    return name, struct.unpack_from("I", raw, 20)[0] // 8, struct.unpack_from("I", raw, 216)[0]

def own_ids(pid):
    """the programs whose fds perf holds: not those of other tools"""
    ids = set()
    d = "/proc/%d/fdinfo" % pid
    for fd in os.listdir(d):
        try:
            for line in open(os.path.join(d, fd)):
                if line.startswith("prog_id:"):
                    ids.add(int(line.split()[1]))
        except OSError:
            pass
    return ids

perf = subprocess.Popen([sys.argv[1], "record"] + sys.argv[2:] +
                        ["-o", "/tmp/insns.data", "--", "sleep", "2"],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
rows = {}
# until perf exits: a large program may take seconds to load
while perf.poll() is None:
    try:
        for p in own_ids(perf.pid):
            rows.setdefault(p, prog_info(p))
    except OSError:
        pass
    time.sleep(0.05)
for r in sorted(x for x in rows.values() if x and x[0] != "libbpf_nametest"):
    print("| `%s` | %s | %d | %d |" % (" ".join(sys.argv[2:]), r[0], r[1], r[2]))
