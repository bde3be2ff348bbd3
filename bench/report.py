#!/usr/bin/env python3
"""Turn bench/run.sh's medians into bench/RESULTS.md (stdout) and chart data."""
import os
import platform
import subprocess
import sys
import time

medians, rounds = sys.argv[1], sys.argv[2]
m = {}
for line in open(medians):
    config, metric, value = line.split()
    m[(config, metric)] = float(value)


def get(config, metric):
    return m.get((config, metric))


NAMES = {
    "floor": "empty tp_btf/sched_switch program (floor)",
    "ours": "ours: --off-cpu -a (kernel + user, wakers)",
    "ours_nowake": "ours: --off-cpu --no-off-cpu-wakers -a",
    "ours_user": "ours: --off-cpu --user-callchains -a",
    "ours_t0": "ours: --off-cpu --off-cpu-thresh 0 -a",
    "ours_t0_nowake": "ours: --off-cpu --off-cpu-thresh 0 --no-off-cpu-wakers -a",
    "ours_dwarf": "ours: --off-cpu --call-graph dwarf -a",
    "ours_s100": "ours: --off-cpu --off-cpu-sample 100 -a",
    "ours_s1000": "ours: --off-cpu --off-cpu-sample 1000 -a",
    "ours_s10000": "ours: --off-cpu --off-cpu-sample 10000 -a",
    "base": "perf 6.12 --off-cpu -a (user only)",
    "offcputime": "libbpf-tools offcputime (kernel + user)",
    "sched_switch": "perf record -e sched:sched_switch -g -a",
}


def added_pipe(c):
    # perf bench sched pipe: 2 context switches per op, usecs per op
    return (get(c, "pipe") - get("none", "pipe")) * 1000 / 2


def added_msg(c):
    # added seconds over the context switches of the run
    return (get(c, "msg") - get("none", "msg")) * 1e9 / get(c, "msg.ctxt")


def fmt(v, unit=""):
    return "-" if v is None else f"{v:,.0f}{unit}"


def mib(v):
    return "-" if v is None else f"{v / 2**20:.1f} MiB"


def ms(v):
    return "-" if v is None else f"{v / 1e6:.0f} ms"


cpu = ""
for line in open("/proc/cpuinfo"):
    if line.startswith("model name"):
        cpu = line.split(":", 1)[1].strip()
        break
print("# Off-CPU profiler overhead\n")
print(f"{time.strftime('%Y-%m-%d')}, {platform.node()}: {os.cpu_count()} CPUs ({cpu}), "
      f"kernel {platform.release()}; medians of {rounds} interleaved rounds "
      + ("(`QUICK=1 bench/run.sh`: shorter workloads).\n" if os.environ.get("QUICK")
         else "(`make bench`).\n"))
print(f"Baseline, no profiler: perf bench sched pipe {get('none', 'pipe'):.3f} usec/op "
      f"(2 switches per op, one CPU), perf bench sched messaging "
      f"{get('none', 'msg'):.3f} s, offcpu-demo {get('none', 'mix'):.0f} ms.\n")
print("| configuration | BPF ns/switch | pipe: added ns/switch "
      "| messaging: added ns/switch | demo wall | output bytes (messaging) "
      "| finish (messaging) | perf report (messaging) | BPF map memory |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
chart = []
for c in NAMES:
    if get(c, "pipe") is None:
        continue
    print(f"| {NAMES[c]} | {fmt(get(c, 'pipe.bpfns'))} "
          f"| {added_pipe(c):,.0f} | {added_msg(c):,.0f} "
          f"| {fmt(get(c, 'mix'), ' ms')} | {mib(get(c, 'msg.bytes'))} "
          f"| {ms(get(c, 'msg.finish'))} | {ms(get(c, 'msg.report'))} "
          f"| {mib(get(c, 'pipe.maps'))} |")
    if get(c, "pipe.bpfns") is not None:
        chart.append((c, get(c, "pipe.bpfns")))
print("\nbcc `offcputime-bpfcc`: " + os.environ.get("BCC_NOTE", "not run") + "\n")

with open(os.path.join(os.path.dirname(medians), "chart.dat"), "w") as f:
    for c, v in chart:
        f.write(f"{c} {v:.1f}\n")

print("BPF ns/switch: run time of all the profiler's BPF programs (sched_switch, "
      "and sched_waking, irq, softirq, hrtimer for ours) over the runs of its "
      "sched_switch program (kernel.bpf_stats_enabled) during perf bench sched "
      "pipe; the added time "
      "per switch is the same measured from the outside, noisier on these "
      "machines.  The chart shows BPF ns/switch.\n")
print("## Targets (ratios within this run)\n")
print("| target | BPF ns/switch | pipe, added ns/switch | |")
print("|---|---:|---:|---|")
for what, num, den, limit in [
        ("ours default / base perf 6.12", "ours", "base", 1.0),
        ("ours default / libbpf-tools offcputime", "ours", "offcputime", 0.3),
        ("ours --user-callchains / base perf 6.12", "ours_user", "base", 0.7),
        ("ours wakers / ours --no-off-cpu-wakers", "ours", "ours_nowake", 1.15),
        ("ours --off-cpu-sample 1000 / base perf 6.12", "ours_s1000", "base", 0.5),
        ("ours --off-cpu-sample 1000 / base perf 6.12 (stretch)", "ours_s1000", "base", 0.2)]:
    if get(num, "pipe") is None or get(den, "pipe") is None:
        continue
    r = get(num, "pipe.bpfns") / get(den, "pipe.bpfns")
    a, b = added_pipe(num), added_pipe(den)
    r2 = f"{a / b:.2f}" if a > 0 and b > 0 else "inconclusive"
    print(f"| {what} <= {limit} | {r:.2f} | {r2} | {'met' if r <= limit else 'NOT met'} |")
fin = os.environ.get("FINISH_NOTE")
if fin:
    secs = float(fin.split()[0])
    print(f"| finishing with ~100,000 aggregated entries < 1 s | | {fin} "
          f"| {'met' if secs < 1 else 'NOT met'} |")
