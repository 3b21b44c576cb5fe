#!/usr/bin/env python3
"""reduce.py - keeps the columns of an `ncu --csv --page raw` output that scale.py reads.

Usage: python3 reduce.py MODEL < ncu_raw.csv >> ncu.csv  (adds a leading "model" column; the
units row and the device attributes are dropped; the header is written when the output is
empty, i.e. pass HEADER=1; M: the comma-separated metrics to keep in the environment for the first model)."""
import csv
import os
import sys

KEEP = ["ID", "Kernel Name", "Grid Size", "Block Size", "profiler__replayer_passes"]


def main():
    model = sys.argv[1]
    rows = [r for r in csv.reader(line for line in sys.stdin if line.startswith('"'))]
    if not rows:
        return 1
    head = rows[0]
    want = set(KEEP) | set(os.environ.get("M", "").split(","))
    cols = [c for c in head if c in want]
    idx = [head.index(c) for c in cols]
    w = csv.writer(sys.stdout, lineterminator="\n")
    if os.environ.get("HEADER") == "1":
        w.writerow(["model"] + cols)
    for r in rows[1:]:
        if r[0] in ("", "ID") or len(r) != len(head):
            continue
        w.writerow([model] + [r[i].replace(",", "") if i != head.index("Kernel Name") else r[i] for i in idx])
    return 0


if __name__ == "__main__":
    sys.exit(main())
