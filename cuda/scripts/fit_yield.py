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

usage: fit_yield.py [RUN_DIR]   (default cuda/runs/h100-reshape/call2; reads run.tgz)
"""
import csv
import io
import statistics as st
import sys
import tarfile
from collections import defaultdict


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "cuda/runs/h100-reshape/call2"
    with tarfile.open(f"{d}/run.tgz") as t:
        m = next(x for x in t.getmembers() if x.name.endswith("reshape_tasks.csv"))
        rows = [r for r in csv.DictReader(io.TextIOWrapper(t.extractfile(m))) if r["scenario"] == "yield"]
    Ls, gaps, pred = [], [], []
    print("rep  SMs  leavers  task T (us)  L (us)  last - first (us): measured  spread  mean")
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
        print(f"{rep:>3}  {len(leave):>3}  {sum(map(len, leave.values())):>7}  {T:11.1f}  {L:6.1f}  "
              f"{gap:26.1f}  {pred[-1]:6.1f}  {0:4.1f}")
    print(f"cap_write_us = {st.median(Ls):.1f} (median over the reps); last - first leave "
          f"{st.median(gaps):.1f} us measured, {st.median(pred):.1f} spread, 0 mean")


if __name__ == "__main__":
    main()
