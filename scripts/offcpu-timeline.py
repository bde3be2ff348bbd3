# SPDX-License-Identifier: GPL-2.0
# offcpu-timeline.py - off-cpu waits and their wakers as a timeline
#
# Writes the offcpu-time samples of perf record --off-cpu that have a time,
# those output directly as their waits ended, as Chrome trace events (JSON),
# that Perfetto (ui.perfetto.dev) and chrome://tracing open and speedscope
# imports:
#
#   perf record --off-cpu=wakers --off-cpu-thresh 1 -g -e dummy -- command
#   perf script -s scripts/offcpu-timeline.py -- -o offcpu.json
#
# Each wait is a slice of its thread from where it began to where it
# ended, as deep as its stack, outermost frame first, from where the task
# waited (without the scheduler's frames), with two slices under it, the
# time it was blocked and the time it then waited for a CPU ("[run
# queue]"), where perf recorded them; the innermost frame's slice has the
# state, wait site and waker as arguments.  A task that woke it up has a
# slice of no duration at the time of the wakeup, with a flow from it to
# the run-queue slice.  Times are in whole microseconds.  The waits under
# --off-cpu-thresh were added up in perf record and have no time: each
# thread has their total as an instant event at the end, and the script
# says how much time they are; the lower the threshold, the more of the
# time has a place in the timeline.

from __future__ import print_function

import argparse
import json
import sys

parser = argparse.ArgumentParser(description="off-cpu waits as Chrome trace events")
parser.add_argument("-o", "--output", default="offcpu-timeline.json",
                    help="the trace to write (default offcpu-timeline.json)")
opts = parser.parse_args()

events = []
threads = {}
untimed = {}
seen = {"waits": 0, "untimed": 0, "untimed_ns": 0, "end": 0}


def us(ns):
    """Chrome trace times are in microseconds: whole ones, so that a slice
    ends where the slices in it end"""
    return int(round(ns / 1000))


def frames(param_dict, offcpu):
    """the sample's frame names, outermost first, from where the task waited"""
    chain = param_dict.get("callchain", [])
    wchan = offcpu.get("wchan")
    if wchan and any(e.get("sym", {}).get("name") == wchan for e in chain):
        while chain and chain[0].get("sym", {}).get("name") != wchan:
            chain = chain[1:]
    names = [e.get("sym", {}).get("name") or "[unknown] 0x%x" % e.get("ip", 0)
             for e in chain]
    if not names:
        names = [wchan or "[off-cpu]"]
    return names[::-1]


def waker_name(waker):
    if waker is None:
        return "-"
    if waker.get("context") != "task":
        return "[%s]" % waker.get("context")
    return "%s %d" % (waker.get("comm", "?"), waker.get("tid", 0))


def process_event(param_dict):
    sample = param_dict.get("sample", {})
    offcpu = sample.get("offcpu")
    if param_dict.get("ev_name") != "offcpu-time" or offcpu is None:
        return
    pid, tid, period = sample["pid"], sample["tid"], sample["period"]
    threads[(pid, tid)] = param_dict.get("comm", "?")
    if offcpu.get("aggregated") or offcpu.get("exited"):
        seen["untimed"] += 1
        seen["untimed_ns"] += period
        untimed[(pid, tid)] = untimed.get((pid, tid), 0) + period
        return
    seen["waits"] += 1
    end = sample["time"]
    start = end - period
    seen["end"] = max(seen["end"], end)
    runq = offcpu.get("runq")
    waker = offcpu.get("waker")
    args = {"state": offcpu["state"], "wchan": offcpu.get("wchan", "-"),
            "waker": waker_name(waker)}
    names = frames(param_dict, offcpu)
    base = {"pid": pid, "tid": tid, "cat": "off-cpu"}
    t0, t1 = us(start), us(end)
    for name in names:
        events.append(dict(base, ph="X", name=name, ts=t0, dur=t1 - t0))
    # the innermost says how the task waited, in words (a viewer that sums
    # slices by name and arguments, as speedscope does, keeps them apart)
    events[-1]["args"] = args
    if runq is not None and runq <= period:
        tw = us(end - runq)
        events.append(dict(base, ph="X", name="blocked", ts=t0, dur=tw - t0))
        events.append(dict(base, ph="X", name="[run queue]", ts=tw, dur=t1 - tw))
        if waker and waker.get("context") == "task":
            # the waker, as it woke the task up, and a flow from it to the wait
            flow = len(events)
            events[-1].update(bind_id=flow, flow_in=True)
            # as a begin and an end, not a complete event of no duration, that
            # speedscope can take for the end of a wait the waker begins then
            mark = {"pid": waker.get("pid", 0), "tid": waker.get("tid", 0),
                    "cat": "wakeup", "ts": tw,
                    "name": "wakes %s %d" % (threads[(pid, tid)], tid)}
            events.append(dict(mark, ph="B", bind_id=flow, flow_out=True))
            events.append(dict(mark, ph="E"))
            threads.setdefault((waker.get("pid", 0), waker.get("tid", 0)),
                               waker.get("comm", "?"))


def trace_end():
    if not threads:
        print("offcpu-timeline: no off-cpu samples: record with perf record --off-cpu",
              file=sys.stderr)
        sys.exit(1)
    out = [{"ph": "M", "name": "thread_name", "pid": pid, "tid": tid,
            "args": {"name": "%s %d" % (comm, tid)}} for (pid, tid), comm in threads.items()]
    for (pid, tid), ns in untimed.items():
        out.append({"ph": "i", "s": "t", "pid": pid, "tid": tid, "ts": us(seen["end"]),
                    "name": "%.3f ms off CPU in waits under the threshold, at no known time" %
                    (ns / 1e6), "args": {"ms": ns / 1e6}})
    with open(opts.output, "w") as f:
        json.dump({"traceEvents": out + events, "displayTimeUnit": "ms"}, f,
                  separators=(",", ":"))
    print("offcpu-timeline: %d waits to %s" % (seen["waits"], opts.output), file=sys.stderr)
    if seen["untimed"]:
        print("offcpu-timeline: %d samples, %.3f ms, of waits under the threshold have no"
              " time: an instant event of each thread at the end says how long"
              " (record with a lower --off-cpu-thresh)" %
              (seen["untimed"], seen["untimed_ns"] / 1e6), file=sys.stderr)
