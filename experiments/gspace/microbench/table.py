#!/usr/bin/env python3
"""Turns the brute-force runs of experiments/gspace/microbench.json (RUN/summary.json) into the
co-run table traces/gspace/microbench.json (format in policies/gspace_table.c): each
micro-benchmark's features as the policy profiled it, and for every ordered (BE, LC) pair the
LC latency ratio and BE throughput measured at every configuration.

usage: table.py RUN/summary.json [GPU] > traces/gspace/microbench.json
(GPU: the description make.py was given, default titanv; for h100 the table is
traces/gspace/microbench-h100.json)
       table.py --suite 180 SHARD/summary.json... > build/suite180/microbench180.json
(the paper-size suite of suite180.py, its co-runs split over shards; TITAN V)
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make import instances  # noqa: E402  the instances' names, in app order
import suite180  # noqa: E402

FEATURES = ["l1_hit_rate", "l2_hit_rate", "dram_bw_util", "l2_bw_util", "l1_bw_util", "arith_intensity",
            "total_instructions"]
COMMANDS = {
    "titanv": ("python3 experiments/gspace/microbench/make.py > experiments/gspace/microbench.json && "
               "bin/combosim run experiments/gspace/microbench.json --out OUT && "
               "python3 experiments/gspace/microbench/table.py OUT/summary.json > traces/gspace/microbench.json"),
    "suite180": "sh experiments/gspace/microbench/suite180.sh (build/suite180/microbench180.json)",
    "h100": ("python3 experiments/gspace/microbench/make.py h100 > experiments/gspace/microbench-h100.json && "
             "bin/combosim run experiments/gspace/microbench-h100.json --out OUT && "
             "python3 experiments/gspace/microbench/table.py OUT/summary.json h100 > traces/gspace/microbench-h100.json"),
}


def fail(msg):
    sys.stderr.write(f"table.py: {msg}\n")
    sys.exit(2)


def main():
    suite = instances
    if sys.argv[1:2] == ["--suite"] and len(sys.argv) > 3 and sys.argv[2] == "180":
        suite, gpu, files = suite180.instances, "titanv", sys.argv[3:]
        command = COMMANDS["suite180"]
    elif len(sys.argv) in (2, 3):
        gpu = sys.argv[2] if len(sys.argv) == 3 else "titanv"
        if gpu not in COMMANDS or gpu == "suite180":
            fail(f"GPU {gpu!r}: expected one of titanv, h100")
        files, command = sys.argv[1:2], COMMANDS[gpu]
    else:
        fail("usage: table.py RUN/summary.json [GPU] | table.py --suite 180 SHARD/summary.json...")
    runs = []
    for f in files:
        s = json.load(open(f))
        runs += s["runs"]
    n_values, k_max, micro, pairs = None, None, {}, []
    for r in runs:
        g = r.get("gspace")
        if not g or g["search"] != "brute":
            fail(f"run {r.get('policy')}: expected a brute-force gspace run")
        if not g["search_done"]:
            fail(f"run {r.get('policy')}: the brute-force search did not finish; lengthen duration_ms")
        be, lc = g["be_app"] // 2, g["lc_app"] // 2
        # an instance's profile is its 625-block kernel's, the LC role's (its BE role runs
        # the same blocks in a longer grid)
        micro.setdefault(lc, g["features"]["lc"])
        trials = {(t["n"], t["k"]): t for t in g["trials"]}
        ns = sorted({n for n, _ in trials})
        ks = sorted({k for _, k in trials})
        if n_values is None:
            n_values, k_max = ns, max(ks)
        if ns != n_values or ks != list(range(1, k_max + 1)) or len(trials) != len(ns) * k_max:
            fail(f"run {r.get('policy')}: its configurations differ from the first run's")
        cfgs = [trials[(n, k)] for n in n_values for k in range(1, k_max + 1)]
        pairs.append({"be": be, "lc": lc,
                      "lc_ratio": [round(t["lc_ratio"], 6) for t in cfgs],
                      "be_tput": [round(t["be_tput"], 6) for t in cfgs]})
    names = [k["name"] for k in suite()]
    if sorted(micro) != list(range(len(names))):
        fail(f"expected runs covering all {len(names)} micro-benchmarks, got {len(micro)}")
    table = {
        "format": "combosim gspace-table",
        "version": 1,
        "gpu": s["gpu"]["name"],
        "command": command,
        "source": f"simulated: models/{gpu}.json, kernels of experiments/gspace/microbench/"
                  f"{'suite180' if suite is not instances else 'make'}.py (assumptions)",
        "features": FEATURES,
        "n_values": n_values,
        "k_max": k_max,
        "micro": [{"name": names[i], "features": [round(v, 9) for v in micro[i]]} for i in sorted(micro)],
        "pairs": sorted(pairs, key=lambda p: (p["be"], p["lc"])),
    }
    json.dump(table, sys.stdout, indent=0, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
