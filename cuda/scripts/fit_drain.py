#!/usr/bin/env python3
"""Per class, how a grid's block durations spread about their mean, for models/h100.json
"block_drain" (calibration set: the S-alone rows of cuda/runs/h100-pileup-dev2, the first 16384
blocks of each pair's short kernel S run alone; the pair rows of that run stay development).

Blocks that start within 3 us of S's first block (its first wave, which lands at once and runs
shorter) are left out: the blocks a draining grid holds when a later kernel waits are
steady-state ones.  Each block's duration is taken over the mean of its own S; a block averages
over its many accesses, so its deviation from the mean is taken to shrink as 1 / sqrt(its mean
duration) (the shapes of one class agree with it: stderr prints each shape's measured cv beside
the law's), and each shape's deviations are put on the scale of the class's reference duration
(its blocks' pooled mean, "block_us").  The class's pooled ratios give 17 evenly spaced
quantiles (0, 1/16, ..., 1): printed as JSON, {"classes": {CLASS: {"block_us", "quantiles"}}}.

With --speed, for the classes it names each TPC (SMs 2i and 2i + 1) runs the class's blocks at
its own speed: each block's duration is taken over its own SM's mean instead (the quantiles are
the spread within an SM), and the class's "speed_sd" is the sd of the TPCs' mean durations over
the grid's beyond what their blocks' scatter explains (the variance of a mean of n), pooled
over the class's grids.  No description reads speed_sd yet (cuda/README.md, What remains: the
RT pile-ups): the option measures it.

usage: fit_drain.py [RUN_DIR] [--classes LIST] [--speed LIST] [--json]
  RUN_DIR    default cuda/runs/h100-pileup-dev2: a directory holding run.tgz (read from its r/),
             or one holding the run's files unpacked (pileup_blocks.csv, summary.json ...)
  --classes  keep only these classes, comma-separated (e.g. MEM, the one models/h100.json draws);
             default all the run's S classes
  --speed    classes whose TPCs each run at their own speed (above), comma-separated
  --json     print only {"values": {"block_drain": {"classes": ...}}, "source": "..."} on stdout
"""
import argparse
import collections
import csv
import io
import json
import os
import statistics as st
import sys
import tarfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from runtar import run_tar  # noqa: E402

FIRST_WAVE_NS = 3000
Q_FLOOR = 0.001   # models/gpu.c read_quantiles' least value
N_QUANTILES = 17


def read_run(d):
    """The S-alone rows of pileup_blocks.csv and summary.json's "pileup", from d/run.tgz or
    d/run.tar.xz (r/...)
    or from d itself (or d/r) unpacked."""
    tgz = run_tar(d)
    if tgz:
        with tarfile.open(tgz) as t:
            rows = [r for r in csv.DictReader(io.TextIOWrapper(t.extractfile("r/pileup_blocks.csv")))
                    if r["run"] == "S-alone"]
            summ = json.load(t.extractfile("r/summary.json"))["pileup"]
        return rows, summ
    for u in (d, f"{d}/r"):
        if os.path.exists(f"{u}/pileup_blocks.csv"):
            with open(f"{u}/pileup_blocks.csv", newline="") as f:
                rows = [r for r in csv.DictReader(f) if r["run"] == "S-alone"]
            with open(f"{u}/summary.json") as f:
                summ = json.load(f)["pileup"]
            return rows, summ
    sys.exit(f"fit_drain.py: {d} holds neither run.tgz, run.tar.xz nor pileup_blocks.csv")


def knots(x, n):
    """The n knots, at u = 0, 1/(n-1), ..., 1, of the piecewise-linear quantile function closest
    to the sorted sample x (least squares over its order statistics at u = (j + 0.5) / len(x)),
    held non-falling.  The simulator draws a ratio by linear interpolation between them
    (models/gpu.c gpu_quantile_at), so a knot set to the sample's order statistic at u = 1, its
    largest value, would spread the top 1/(n-1) of the draws evenly up to the one slowest block
    of the run (the H200's MEM: sd 0.38 drawn against 0.21 measured); fitted, each segment keeps
    its share of the sample's mean, and the spread drawn is the sample's.  Normal equations of
    the hat functions: tridiagonal, solved by the Thomas algorithm."""
    m = len(x)
    diag, off, rhs = [0.0] * n, [0.0] * n, [0.0] * n
    for j, v in enumerate(x):
        t = (j + 0.5) / m * (n - 1)
        i = min(int(t), n - 2)
        w = t - i                       # weight of knot i + 1; 1 - w of knot i
        diag[i] += (1 - w) ** 2
        diag[i + 1] += w * w
        off[i] += (1 - w) * w           # between knots i and i + 1
        rhs[i] += (1 - w) * v
        rhs[i + 1] += w * v
    c, d = [0.0] * n, [0.0] * n
    for i in range(n):
        den = diag[i] - (off[i - 1] * c[i - 1] if i else 0)
        c[i] = off[i] / den if i < n - 1 else 0
        d[i] = (rhs[i] - (off[i - 1] * d[i - 1] if i else 0)) / den
    q = [0.0] * n
    for i in reversed(range(n)):
        q[i] = d[i] - (c[i] * q[i + 1] if i < n - 1 else 0)
    for i in range(1, n):
        q[i] = max(q[i], q[i - 1])
    return q


def tpc_speed(steady):
    """steady: [(duration, smid)].  Each SM's mean duration, and the variance of the TPCs'
    (SMs 2i, 2i + 1) means over the grid's mean beyond their blocks' own scatter."""
    by = collections.defaultdict(list)
    for d, sm in steady:
        by[sm].append(d)
    gm = st.mean(d for d, _ in steady)
    m_sm = {sm: st.mean(v) for sm, v in by.items()}
    tpcs = collections.defaultdict(list)
    for sm, v in by.items():
        tpcs[sm // 2].extend(v)
    tpcs = {t: v for t, v in tpcs.items() if len(v) >= 3}
    noise = st.mean(st.variance([x / gm for x in v]) / len(v) for v in tpcs.values())
    var = st.pvariance([st.mean(v) / gm for v in tpcs.values()])
    return m_sm, max(0.0, var - noise)


def main():
    ap = argparse.ArgumentParser(description="fit block_drain to a pileup run's S-alone blocks")
    ap.add_argument("run_dir", nargs="?", default="cuda/runs/h100-pileup-dev2", metavar="RUN_DIR")
    ap.add_argument("--classes", default=None)
    ap.add_argument("--speed", default=None)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    d = args.run_dir
    rows, summ = read_run(d)
    if not rows:
        sys.exit(f"fit_drain.py: no S-alone rows in {d}")
    per_pair = collections.defaultdict(list)
    for r in rows:
        per_pair[r["pair"]].append((int(r["start_ns"]), int(r["end_ns"]), int(r["smid"])))
    speed = set(args.speed.split(",")) if args.speed else set()
    shapes = collections.defaultdict(list)
    tpc_var = collections.defaultdict(list)
    for pair in sorted(per_pair):
        b = per_pair[pair]
        t0 = min(s for s, _, _ in b)
        sh = summ[pair]
        steady = [(e - s, sm) for s, e, sm in b if s - t0 > FIRST_WAVE_NS]
        m = st.mean(d for d, _ in steady)
        if sh["short_class"] in speed:
            m_sm, var = tpc_speed(steady)
            dur = [d * m / m_sm[sm] for d, sm in steady]
            tpc_var[sh["short_class"]].append(var)
        else:
            dur = [d for d, _ in steady]
        shapes[sh["short_class"]].append((m, dur))
        print(f"# {pair}: S {sh['short_class']} {sh['short_grid']}x{sh['short_threads']}, {len(dur)} blocks, "
              f"mean {m / 1e3:.2f} us, cv {st.pstdev(dur) / m:.3f}", file=sys.stderr)
    out, notes = {}, []
    keep = set(args.classes.split(",")) if args.classes else set(shapes)
    for c in keep - set(shapes):
        print(f"# {c}: no S of this class in the run", file=sys.stderr)
    for cls in sorted(shapes):
        # a block averages over its own accesses: the deviation from the mean shrinks as
        # 1 / sqrt(duration); each shape's deviations are put on the scale of the class's
        # reference duration, the blocks' pooled mean
        ref = st.mean(x for _, dur in shapes[cls] for x in dur)
        x = sorted(1 + (v / m - 1) * (m / ref) ** 0.5 for m, dur in shapes[cls] for v in dur)
        q = [round(v, 3) for v in knots(x, N_QUANTILES)]
        # the law stretches a long grid's short outliers: a rescaled duration at or below 0 is no
        # duration; such a quantile is held at the least models/gpu.c reads (a block of no time)
        short = sum(1 for v in x if v < Q_FLOOR)
        if short:
            q = [max(Q_FLOOR, v) for v in q]
            print(f"# {cls}: {short} of {len(x)} blocks rescaled below {Q_FLOOR}: quantiles held at it", file=sys.stderr)
        out[cls] = {"block_us": round(ref / 1e3, 3), "quantiles": q}
        if cls in speed:
            out[cls]["speed_sd"] = round(st.mean(tpc_var[cls]) ** 0.5, 4)
            notes.append(f"{cls} blocks over their own SM's mean; a TPC's own speed sd "
                         f"{out[cls]['speed_sd']:.4f} (" + ", ".join(f"{v ** 0.5:.4f}" for v in tpc_var[cls])
                         + " per grid)")
        print(f"# {cls}: {len(x)} blocks pooled, reference {ref / 1e3:.2f} us, cv at it "
              f"{st.pstdev(x) / st.mean(x):.3f}", file=sys.stderr)
        for m, dur in shapes[cls]:
            print(f"#   shape of mean {m / 1e3:.2f} us: cv {st.pstdev(dur) / m:.3f} measured, "
                  f"{st.pstdev(x) / st.mean(x) * (ref / m) ** 0.5:.3f} by the 1 / sqrt(duration) law", file=sys.stderr)
        sh = sorted(shapes[cls], key=lambda s: s[0])
        if short:
            notes.append(f"{cls}: {short} of {len(x)} blocks rescaled below {Q_FLOOR}, the quantiles held at it")
        notes.append(f"{cls} block_us {ref / 1e3:.3f} over {len(x)} blocks of {len(sh)} grids, cv "
                     + ", ".join(f"{st.pstdev(dur) / m:.3f}" for m, dur in sh) + " measured at "
                     + ", ".join(f"{m / 1e3:.1f}" for m, _ in sh) + " us against "
                     + ", ".join(f"{st.pstdev(x) / st.mean(x) * (ref / m) ** 0.5:.2f}" for m, _ in sh)
                     + " by the law")
    if args.classes:
        out = {c: v for c, v in out.items() if c in keep}
        notes = [n for n in notes if n.split(" ", 1)[0] in keep]
    if not args.json:
        print(json.dumps({"classes": out}))
        return
    src = (f"calibration: the S-alone rows of {os.path.normpath(d)} (pileup_blocks.csv, run S-alone: each pair's "
           f"short kernel S run alone), fitted by cuda/scripts/fit_drain.py: blocks starting more than "
           f"{FIRST_WAVE_NS / 1e3:g} us after the grid's first (steady state), each block's duration over its own "
           f"grid's mean, its deviation put on the scale of the class's pooled mean duration (block_us) by the "
           f"1 / sqrt(duration) law, pooled; the knots at 0, 1/{N_QUANTILES - 1}, ..., 1 of the piecewise-linear "
           f"quantile function closest to the pooled sample (least squares).  " + "; ".join(notes) + ".")
    print(json.dumps({"values": {"block_drain": {"classes": out}}, "source": src}))


if __name__ == "__main__":
    main()
