#!/usr/bin/env python3
"""Writes experiments/gspace/microbench.json: G-Space's micro-benchmark suite (§4.4) as
simulator kernels, and one brute-force gspace run per ordered (BE, LC) pair of them, whose
trials table.py turns into traces/gspace/microbench.json (the co-run table NN, LR, GNS and SRS
read).

The paper's parameterised kernel has 4 knobs: stride (pressure on L1, L2 and DRAM
throughput), overlap between adjacent warps' working sets (cache hit rates), loop iterations
(arithmetic intensity and instruction count) and a fixed 160K threads.  The simulator's
kernel has no caches, so the knobs map onto its model (all assumptions, no measurement):
  stride level s in {1, 8, 32}   load/store-unit demand 0.3 / 0.6 / 1.0, DRAM share 0.3 / 1.0 / 2.0
  overlap o in {0, 0.2}          DRAM share x (1 - 2.5 o): reuse between warps spares DRAM
  iterations i in {1, 2, 4}      CUDA-core demand 0.3 / 0.6 / 0.9, solo time 40 (1 + i) us
160K threads are 625 blocks of 256 threads (32 registers: 8 blocks per TITAN V SM, §4.3's
N x K with K = 8).  As a BE app each instance runs the same blocks in a grid 1000 times as long,
so one BE kernel spans a whole search (a BE kernel ending during an LC kernel gives the LC
kernel its slots until the next one lands, which would blur the table).  18 instances, 324 ordered pairs (the paper: 180
instances), 80 configurations each.  Deterministic: same file every time.
"""
import json
import sys

STRIDES = [(1, 0.3, 0.3), (8, 0.6, 1.0), (32, 1.0, 2.0)]
OVERLAPS = [0.0, 0.2]
ITERS = [(1, 0.3), (2, 0.6), (4, 0.9)]
BE_SCALE = 1000


def instances():
    for s, lsu, dram in STRIDES:
        for o in OVERLAPS:
            for it, cuda in ITERS:
                yield {
                    "name": f"mb_s{s}_o{int(o * 100)}_i{it}",
                    "class": "CD",
                    "grid": 625,
                    "threads": 256,
                    "regs": 32,
                    "solo_us": 40 * (1 + it),
                    "demand": {"cuda": cuda, "lsu": lsu},
                    "dram": round(dram * (1 - 2.5 * o), 6),
                }


def main():
    gpu = sys.argv[1] if len(sys.argv) > 1 else "titanv"
    mb = list(instances())
    kernels, apps = [], []
    for k in mb:
        be = dict(k, name=k["name"] + "_be", grid=k["grid"] * BE_SCALE, solo_us=k["solo_us"] * BE_SCALE)
        kernels += [k, be]
        apps += [{"name": k["name"], "kernels": [k["name"]], "repeat": 0},
                 {"name": be["name"], "kernels": [be["name"]], "repeat": 0}]
    policies = []
    for i in range(len(mb)):
        for j in range(len(mb)):
            policies.append({"name": "gspace", "label": f"be{i}-lc{j}", "be": 2 * i + 1, "lc": 2 * j,
                             "search": "brute", "deadline_ratio": 2})
    exp = {
        "description": "G-Space micro-benchmark co-run table (§4.4): every ordered pair of 18 synthetic kernels "
                       "under all 80 (n, k) configurations, by brute force; made by experiments/gspace/microbench/make.py",
        "assumptions": f"kernel parameters: experiments/gspace/microbench/make.py (no measurement); GPU: models/{gpu}.json",
        "gpu": gpu,
        "duration_ms": 4000,
        "kernels": kernels,
        "apps": apps,
        "policies": policies,
    }
    json.dump(exp, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
