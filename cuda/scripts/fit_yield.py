#!/usr/bin/env python3
"""The H100's yield timing for models/h100.json "yield" (calibration set: cuda/runs/h100-reshape
call2, `combosim-cuda bench reshape`, scenario yield: k = 2 of 4 blocks yielded on 66 SMs, the
host's call at t = 0 on the GPU clock).

A worker told to leave finishes the task it holds, so on an SM whose n workers leave, with the
word landing at L and phases uniform over a task of T, the i-th leaves at L + i / (n + 1) T on
average ("spread"), all of them at L + T / 2 if they left together ("mean").  Per SM the mean of
the leave times is L + T / 2 either way, so L = mean(leave) - T / 2 (median over the SMs, then
over the reps).  The last-minus-first leave per SM tells the two rules apart: "spread" predicts
(n - 1) / (n + 1) T, "mean" 0.

usage: fit_yield.py [RUN_DIR] [--json]
  RUN_DIR  default cuda/runs/h100-reshape/call2: a directory holding run.tgz, or one holding the
           run unpacked (reshape_tasks.csv and the bench's summary.json, in it or in a folder below,
           e.g. bench-reshape/)
  --json   print only {"values": {"yield": {"cap_write_us", "leave"}}, "source": "..."} on stdout;
           "leave" is the rule whose last - first prediction is nearer the measured one
The bench's summary.json, where found, is checked against the scenario assumed here (132 SMs, so
[0, 66) yielded, 2 workers leaving each); a mismatch is reported on stderr.
"""
import argparse
import csv
import io
import json
import os
import statistics as st
import sys
import tarfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from runtar import run_tar  # noqa: E402
from collections import defaultdict


def read_run(d):
    """The yield rows of reshape_tasks.csv and the bench's summary.json (None if absent), from
    d/run.tgz or from the files unpacked under d."""
    tgz = run_tar(d)
    if tgz:
        with tarfile.open(tgz) as t:
            m = next(x for x in t.getmembers() if x.name.endswith("reshape_tasks.csv"))
            rows = [r for r in csv.DictReader(io.TextIOWrapper(t.extractfile(m))) if r["scenario"] == "yield"]
            sm = [x for x in t.getmembers() if x.name == os.path.dirname(m.name) + "/summary.json"]
            summ = json.load(t.extractfile(sm[0])) if sm else None
        return rows, summ
    for root, dirs, files in sorted(os.walk(d)):
        dirs.sort()
        m = [f for f in sorted(files) if f.endswith("reshape_tasks.csv")]
        if m:
            with open(os.path.join(root, m[0]), newline="") as f:
                rows = [r for r in csv.DictReader(f) if r["scenario"] == "yield"]
            summ = None
            if os.path.exists(os.path.join(root, "summary.json")):
                with open(os.path.join(root, "summary.json")) as f:
                    summ = json.load(f)
            return rows, summ
    sys.exit(f"fit_yield.py: {d} holds neither run.tgz, run.tar.xz nor reshape_tasks.csv")


def check(summ):
    """Warns on stderr where the bench's summary departs from the scenario fitted here: k = 2 of
    4 workers yielded on SMs [0, 66) of 132.  Returns (reps, host-seen landing times)."""
    if summ is None:
        print("# no summary.json beside reshape_tasks.csv: scenario not checked", file=sys.stderr)
        return None, []
    ok = True
    if summ.get("sm_count") != 132:
        print(f"# WARNING: sm_count {summ.get('sm_count')}, not 132: the yielded SMs are not [0, 66)", file=sys.stderr)
        ok = False
    y = summ.get("reshape", {}).get("yield", [])
    for r in y:
        if r.get("workers_left") != 132:
            print(f"# WARNING: rep {r.get('rep')}: {r.get('workers_left')} workers left, not 2 on each of 66 SMs",
                  file=sys.stderr)
            ok = False
    what = summ.get("reshape", {}).get("what", "")
    if "yielding 2 of its 4 workers per SM on [0,N/2) 400 us after launch" not in what or "900 us" not in what:
        print(f"# WARNING: the bench describes another scenario: {what}", file=sys.stderr)
        ok = False
    if ok:
        print(f"# scenario checked: {summ.get('device')}, 132 SMs, yield k = 2 of 4 on [0, 66) at 400 us, "
              f"take-back at 900 us, 132 workers left in each of {len(y)} reps", file=sys.stderr)
    return len(y), [r["write_seen_landed_us"] for r in y if "write_seen_landed_us" in r]


def main():
    ap = argparse.ArgumentParser(description="fit yield.cap_write_us to a bench reshape run's yield tasks")
    ap.add_argument("run_dir", nargs="?", default="cuda/runs/h100-reshape/call2", metavar="RUN_DIR")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    d = args.run_dir
    rows, summ = read_run(d)
    if not rows:
        sys.exit(f"fit_yield.py: no yield rows in {d}")
    _, seen = check(summ)
    out = sys.stderr if args.json else sys.stdout
    Ls, gaps, pred, Ts = [], [], [], []
    print("rep  SMs  leavers  task T (us)  L (us)  last - first (us): measured  spread  mean", file=out)
    for rep in sorted({r["rep"] for r in rows}):
        R = [r for r in rows if r["rep"] == rep]
        last = defaultdict(float)
        for r in R:
            w = (int(r["sm"]), r["worker"])
            last[w] = max(last[w], float(r["end_us"]))
        # yielded SMs [0, 66): the workers whose last task ends after the call and before the
        # take-back (500 us after the call: 900 us after the launch) are the ones that left
        leave = defaultdict(list)
        for (sm, _), e in last.items():
            if sm < 66 and 0 < e < 500:
                leave[sm].append(e)
        T = st.median(float(r["end_us"]) - float(r["start_us"]) for r in R
                      if float(r["start_us"]) < 0 and int(r["sm"]) < 66)
        L = st.median(st.fmean(v) - T / 2 for v in leave.values())
        n = st.median(len(v) for v in leave.values())
        gap = st.median(max(v) - min(v) for v in leave.values())
        Ls.append(L)
        gaps.append(gap)
        pred.append((n - 1) / (n + 1) * T)
        Ts.append(T)
        print(f"{rep:>3}  {len(leave):>3}  {sum(map(len, leave.values())):>7}  {T:11.1f}  {L:6.1f}  "
              f"{gap:26.1f}  {pred[-1]:6.1f}  {0:4.1f}", file=out)
        if n != 2:
            print(f"# WARNING: rep {rep}: median {n} leavers per SM, not 2", file=sys.stderr)
    print(f"cap_write_us = {st.median(Ls):.1f} (median over the reps); last - first leave "
          f"{st.median(gaps):.1f} us measured, {st.median(pred):.1f} spread, 0 mean", file=out)
    if not args.json:
        return
    cap = round(st.median(Ls), 1)
    leave = "spread" if abs(st.median(gaps) - st.median(pred)) <= abs(st.median(gaps)) else "mean"
    sl = lambda v: " / ".join(f"{x:.1f}" for x in v)
    host = (f"; the host saw the copy land at {min(seen):.1f}-{max(seen):.1f} us, an upper bound" if seen else "")
    src = (f"cuda/scripts/fit_yield.py on {os.path.normpath(d)} (combosim-cuda bench reshape, k = 2 of 4 blocks "
           f"yielded on 66 SMs, {len(Ls)} reps, per-task records): per SM the leaving workers' mean leave time less "
           f"half a task ({min(Ts):.1f}-{max(Ts):.1f} us) is the word's landing, median {sl(Ls)} us over the reps "
           f"(median {cap:.1f}{host}); last minus first leave on an SM {sl(gaps)} us, against "
           f"{st.median(pred):.1f} for workers leaving one by one at i / (n + 1) of a task (spread, n = 2) and 0 "
           f"for leaving together (mean): {leave}")
    print(json.dumps({"values": {"yield": {"cap_write_us": cap, "leave": leave}}, "source": src}))


if __name__ == "__main__":
    main()
