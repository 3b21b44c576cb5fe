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

usage: fit_drain.py [RUN_DIR]   (default cuda/runs/h100-pileup-dev2; reads run.tgz)
"""
import collections
import csv
import io
import json
import statistics as st
import sys
import tarfile

FIRST_WAVE_NS = 3000
N_QUANTILES = 17


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "cuda/runs/h100-pileup-dev2"
    with tarfile.open(f"{d}/run.tgz") as t:
        rows = [r for r in csv.DictReader(io.TextIOWrapper(t.extractfile("r/pileup_blocks.csv")))
                if r["run"] == "S-alone"]
        summ = json.load(t.extractfile("r/summary.json"))["pileup"]
    per_pair = collections.defaultdict(list)
    for r in rows:
        per_pair[r["pair"]].append((int(r["start_ns"]), int(r["end_ns"])))
    shapes = collections.defaultdict(list)
    for pair in sorted(per_pair):
        b = per_pair[pair]
        t0 = min(s for s, _ in b)
        dur = [e - s for s, e in b if s - t0 > FIRST_WAVE_NS]
        m = st.mean(dur)
        sh = summ[pair]
        shapes[sh["short_class"]].append((m, dur))
        print(f"# {pair}: S {sh['short_class']} {sh['short_grid']}x{sh['short_threads']}, {len(dur)} blocks, "
              f"mean {m / 1e3:.2f} us, cv {st.pstdev(dur) / m:.3f}", file=sys.stderr)
    out = {}
    for cls in sorted(shapes):
        # a block averages over its own accesses: the deviation from the mean shrinks as
        # 1 / sqrt(duration); each shape's deviations are put on the scale of the class's
        # reference duration, the blocks' pooled mean
        ref = st.mean(x for _, dur in shapes[cls] for x in dur)
        x = sorted(1 + (v / m - 1) * (m / ref) ** 0.5 for m, dur in shapes[cls] for v in dur)
        q = [round(x[min(len(x) - 1, round(i * (len(x) - 1) / (N_QUANTILES - 1)))], 3) for i in range(N_QUANTILES)]
        out[cls] = {"block_us": round(ref / 1e3, 3), "quantiles": q}
        print(f"# {cls}: {len(x)} blocks pooled, reference {ref / 1e3:.2f} us, cv at it "
              f"{st.pstdev(x) / st.mean(x):.3f}", file=sys.stderr)
        for m, dur in shapes[cls]:
            print(f"#   shape of mean {m / 1e3:.2f} us: cv {st.pstdev(dur) / m:.3f} measured, "
                  f"{st.pstdev(x) / st.mean(x) * (ref / m) ** 0.5:.3f} by the 1 / sqrt(duration) law", file=sys.stderr)
    print(json.dumps({"classes": out}))


if __name__ == "__main__":
    main()
