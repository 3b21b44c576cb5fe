#!/usr/bin/env python3
"""The LC kernels of a G-Space GPU run, trial by trial: where each search's trial kernels waited
and ran (kernels.csv: launch_ns host enqueue, start_ns first block entry, end_ns last block exit;
the trials' configurations from summary.json), to tell a wait to start from a slow run.
usage: gspace_lc_times.py RUN.tgz PAIR [POLICY...]   (e.g. call3/run.tgz md+lbm brute ns)"""
import csv
import io
import json
import sys
import tarfile


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    tgz, pair, want = sys.argv[1], sys.argv[2], set(sys.argv[3:])
    with tarfile.open(tgz) as t:
        summ = json.load(t.extractfile("r/%s/summary.json" % pair))
        rows = list(csv.DictReader(io.TextIOWrapper(t.extractfile("r/%s/kernels.csv" % pair))))
    lc_app = {r["policy"]: r["gspace"]["lc_app"] for r in summ["runs"]}
    names = [a["name"] for a in summ["apps"]] if "apps" in summ else None
    print("policy\ttrial\tn\tk\tlc_ratio\twait_us\trun_us\tsolo_us")
    for run in summ["runs"]:
        p = run["policy"]
        if want and p not in want:
            continue
        owner = names[lc_app[p]] if names else pair.split("+")[1]
        lc = [r for r in rows if r["policy"] == p and r["owner"] == owner]
        lc.sort(key=lambda r: int(r["launch_ns"]))
        for i, tr in enumerate(run["gspace"]["trials"]):
            if i >= len(lc):
                break
            r = lc[i]
            wait = (int(r["start_ns"]) - int(r["launch_ns"])) / 1e3
            ran = (int(r["end_ns"]) - int(r["start_ns"])) / 1e3
            print("%s\t%d\t%d\t%d\t%.2f\t%.1f\t%.1f\t%.1f" % (p, i, tr["n"], tr["k"], tr["lc_ratio"], wait, ran,
                                                          int(r["solo_ns"]) / 1e3))


if __name__ == "__main__":
    main()
