#!/usr/bin/env python3
"""The paper-size micro-benchmark suite (§4.4: 9 stride lengths, 5 overlap ratios from 0 to 0.2,
iteration counts 1 to 4, 160K threads: 180 instances) as simulator kernels, and its co-run
experiments split into shards (every ordered pair under brute force over the 80 (n, k)
configurations, as make.py's 18-instance table; kernels.csv and frames.csv off; 400 ms, in
which every brute force finishes: table.py refuses a run that did not).

The paper names the ranges, not the values: strides 1, 4, 8, 12, 16, 20, 24, 28, 32 (up to
the L2 line of 32 words, where §4.4 puts the maximum pressure), overlaps 0, 0.05, 0.1, 0.15, 0.2,
iterations 1, 2, 3, 4 (assumptions).  The knobs map onto the kernel model as make.py's do,
interpolated between make.py's assumed points: load/store-unit demand and DRAM share linear in
log2(stride) through (1: 0.3, 0.3), (8: 0.6, 1.0), (32: 1.0, 2.0); DRAM x (1 - 2.5 overlap);
CUDA-core demand 0.3 / 0.6 / 0.75 / 0.9 and solo time 40 (1 + iterations) us.  make.py's 18
instances are among the 180.

usage: suite180.py GPU SHARDS SHARD > experiment.json   (SHARD in 0..SHARDS-1: the BE instances
i with i % SHARDS == SHARD); suite180.py --names prints the instances' names in app order.
"""
import json
import math
import sys

STRIDES = [1, 4, 8, 12, 16, 20, 24, 28, 32]
OVERLAPS = [0.0, 0.05, 0.1, 0.15, 0.2]
ITERS = [(1, 0.3), (2, 0.6), (3, 0.75), (4, 0.9)]
POINTS = [(0.0, 0.3, 0.3), (3.0, 0.6, 1.0), (5.0, 1.0, 2.0)]   # log2(stride), lsu, dram (make.py)
BE_SCALE = 1000


def interp(x, i):
    for (x0, *a), (x1, *b) in zip(POINTS, POINTS[1:]):
        if x <= x1:
            return a[i] + (b[i] - a[i]) * (x - x0) / (x1 - x0)
    return POINTS[-1][i + 1]


def instances():
    for s in STRIDES:
        lsu, dram = interp(math.log2(s), 0), interp(math.log2(s), 1)
        for o in OVERLAPS:
            for it, cuda in ITERS:
                yield {"name": f"mb_s{s}_o{int(round(o * 100))}_i{it}", "class": "CD", "grid": 625, "threads": 256,
                       "regs": 32, "solo_us": 40 * (1 + it), "demand": {"cuda": cuda, "lsu": round(lsu, 6)},
                       "dram": round(dram * (1 - 2.5 * o), 6)}


def main():
    if sys.argv[1:] == ["--names"]:
        print("\n".join(k["name"] for k in instances()))
        return
    gpu, shards, shard = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    mb = list(instances())
    kernels, apps = [], []
    for k in mb:
        be = dict(k, name=k["name"] + "_be", grid=k["grid"] * BE_SCALE, solo_us=k["solo_us"] * BE_SCALE)
        kernels += [k, be]
        apps += [{"name": k["name"], "kernels": [k["name"]], "repeat": 0},
                 {"name": be["name"], "kernels": [be["name"]], "repeat": 0}]
    policies = [{"name": "gspace", "label": f"be{i}-lc{j}", "be": 2 * i + 1, "lc": 2 * j, "search": "brute",
                 "deadline_ratio": 2}
                for i in range(len(mb)) if i % shards == shard for j in range(len(mb))]
    json.dump({"description": f"G-Space micro-benchmark co-run table, paper-size suite (180 instances), shard {shard} "
                              f"of {shards}: made by experiments/gspace/microbench/suite180.py",
               "assumptions": "kernel parameters: experiments/gspace/microbench/suite180.py (no measurement)",
               "gpu": gpu, "duration_ms": 400, "kernels": kernels, "apps": apps, "policies": policies,
               "outputs": {"kernels_csv": False, "frames_csv": False}}, sys.stdout, indent=0)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
