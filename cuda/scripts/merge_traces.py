"""Joins PyTorch profiler traces of processes that shared one GPU into one trace for
`combosim validate --real`: kernel events only, each file's streams renumbered (file i's
stream s becomes 1000 * i + s, so two processes' default streams stay apart), times on one
clock (Kineto writes each file's ts from its baseTimeNanoseconds when it has one).

Usage: python3 merge_traces.py OUT.json IN1.json IN2.json ...
"""
import json
import sys


def main():
    out, ins = sys.argv[1], sys.argv[2:]
    docs = [json.load(open(p)) for p in ins]
    bases = [d.get("baseTimeNanoseconds", 0) if isinstance(d, dict) else 0 for d in docs]
    b0 = min(bases)
    events = []
    for i, d in enumerate(docs):
        evs = d["traceEvents"] if isinstance(d, dict) else d
        shift_us = (bases[i] - b0) / 1e3
        for e in evs:
            if e.get("cat") != "kernel":
                continue
            e = dict(e)
            e["ts"] = e["ts"] + shift_us
            e["args"] = dict(e["args"], stream=1000 * i + e["args"]["stream"])
            e["tid"] = e["args"]["stream"]
            e["pid"] = i
            events.append(e)
    events.sort(key=lambda e: e["ts"])
    json.dump({"traceEvents": events, "merged_from": ins}, open(out, "w"), indent=0)


if __name__ == "__main__":
    main()
