#!/usr/bin/env python3
"""G-Space on the H100 at fixed configurations (n SMs, k of the BE kernel's 8 blocks yielded)
for MD (BE, persistent) + LBM (LC): the LC kernel's run time (first block in to last block out)
and wait (launch to first block in), median over the LC kernels of each configuration, on the
GPU and in the simulator, as a Markdown table for VALIDATION.md's G-Space section.

GPU: cuda/runs/h100-gspace-search2/share.tgz (MD's CD stand-in, n = 14 and 132) and
cuda/runs/h100-gspace-share-class/run.tgz (MD as a CD and as a MEM stand-in, n = 132).
Simulator: `combosim run experiments/gspace/h100_search.json` with the same apps, policies and
300 ms (the MEM queue is MD's with "class": "MEM", as on the GPU).

usage: gspace_share.py [COMBOSIM]   (from the project root; default bin/combosim)
"""
import csv
import io
import json
import os
import statistics as st
import subprocess
import sys
import tarfile
import tempfile

SOLO_US = 162.87          # LBM alone, traces/gspace/h100/lbm.json
GPU = [("cuda/runs/h100-gspace-search2/share.tgz", "share/md-lbm/kernels.csv", "CD"),
       ("cuda/runs/h100-gspace-share-class/run.tgz", "share/md-cd-lbm/kernels.csv", "CD"),
       ("cuda/runs/h100-gspace-share-class/run.tgz", "share/md-mem-lbm/kernels.csv", "MEM")]
QUEUE = "experiments/gspace/workloads-h100/md-persistent.json"


def lbm_times(rows):
    out = {}
    for r in rows:
        if r["owner"] != "lbm" or int(r["end_ns"]) < int(r["start_ns"]):
            continue
        out.setdefault(r["policy"], []).append(((int(r["end_ns"]) - int(r["start_ns"])) / 1e3,
                                                (int(r["start_ns"]) - int(r["launch_ns"])) / 1e3))
    return out


def gpu_rows():
    res = {}
    for tgz, member, cls in GPU:
        with tarfile.open(tgz) as t:
            rows = list(csv.DictReader(io.TextIOWrapper(t.extractfile(member))))
        for label, v in lbm_times(rows).items():
            res.setdefault((cls, label), []).extend(v)
    return res


def sim_rows(combosim, configs):
    res = {}
    with tempfile.TemporaryDirectory() as tmp:
        q = json.load(open(QUEUE))
        for k in q["kernels"]:
            k["class"] = "MEM"
        mem = os.path.join(tmp, "md-persistent-mem.json")
        json.dump(q, open(mem, "w"))
        for cls, queue in (("CD", "workloads-h100/md-persistent.json"), ("MEM", mem)):
            pol = [{"name": "gspace", "label": l, "be": 0, "lc": 1, "deadline_ratio": 2, "search": "fixed",
                    "n": int(l[1:l.index("k")]), "k": int(l[l.index("k") + 1:])}
                   for (c, l) in configs if c == cls]
            if not pol:
                continue
            apps = [{"name": "md", "queue": queue}, {"name": "lbm", "queue": "workloads-h100/lbm.json"}]
            out = os.path.join(tmp, cls)
            subprocess.run([combosim, "run", "experiments/gspace/h100_search.json", "--set", "apps=" + json.dumps(apps),
                            "--set", "policies=" + json.dumps(pol), "--set", "duration_ms=300", "--out", out, "--quiet"],
                           check=True, stdout=subprocess.DEVNULL)
            for label, v in lbm_times(csv.DictReader(open(os.path.join(out, "kernels.csv")))).items():
                res[(cls, label)] = v
    return res


def med(v, i):
    return st.median(x[i] for x in v) if v else None


def main():
    combosim = sys.argv[1] if len(sys.argv) > 1 else "bin/combosim"
    g = gpu_rows()
    order = sorted(g, key=lambda c: (c[0], int(c[1][1:c[1].index("k")]), -int(c[1][c[1].index("k") + 1:])))
    s = sim_rows(combosim, order)
    print("| MD stand-in | (n, k) | LBM kernels GPU / sim | LBM ran (us) GPU | sim | waited (us) GPU | sim | ran / alone GPU | sim |")
    print("|---|---|---|---|---|---|---|---|---|")
    f = lambda x, p="%.0f": p % x if x is not None else "-"
    for c in order:
        cls, label = c
        n, k = label[1:label.index("k")], label[label.index("k") + 1:]
        gv, sv = g[c], s.get(c, [])
        gr, sr = med(gv, 0), med(sv, 0)
        print(f"| {cls} | ({n}, {k}) | {len(gv)} / {len(sv)} | {f(gr)} | {f(sr)} | {f(med(gv, 1))} | {f(med(sv, 1))} "
              f"| {f(gr / SOLO_US if gr else None, '%.2f')} | {f(sr / SOLO_US if sr else None, '%.2f')} |")


if __name__ == "__main__":
    main()
