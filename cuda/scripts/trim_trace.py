"""Trims captures for `make test` (tests/validate/): the first N kernel events of a PyTorch
trace (the fields the importer reads), and of a solo capture the first launches of each kernel
the trimmed trace runs (same name, grid and block), as many as it runs.

Usage: python3 trim_trace.py N TRACE.json SOLO.json OUT_TRACE.json OUT_SOLO.json
"""
import json
import sys


def kernels(path):
    d = json.load(open(path))
    evs = d["traceEvents"] if isinstance(d, dict) else d
    return sorted((e for e in evs if e.get("cat") == "kernel"), key=lambda e: e["ts"])


ARGS = ("stream", "grid", "block", "registers per thread", "shared memory")


def slim(e):
    """What the importer reads of a kernel event, nothing else (the trimmed copies stay small)."""
    return {"ph": "X", "cat": "kernel", "name": e["name"], "ts": e["ts"], "dur": e["dur"],
            "args": {k: e["args"][k] for k in ARGS if k in e["args"]}}


def key(e):
    return (e["name"], tuple(e["args"]["grid"]), tuple(e["args"]["block"]))


def main():
    n, trace, solo, out_t, out_s = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
    kept = kernels(trace)[:n]
    want = {}
    for e in kept:
        want[key(e)] = want.get(key(e), 0) + 1
    solo_kept = []
    for e in kernels(solo):     # each kernel's first launches, as many as the trace keeps
        if want.get(key(e), 0) > 0:
            want[key(e)] -= 1
            solo_kept.append(e)
    json.dump({"traceEvents": [slim(e) for e in kept]}, open(out_t, "w"), indent=0)
    json.dump({"traceEvents": [slim(e) for e in solo_kept]}, open(out_s, "w"), indent=0)


if __name__ == "__main__":
    main()
