#!/usr/bin/env python3
"""Compares the simulator's policy ranking with the GPU's on the GPU check's families.

Usage: rank.py SIMREPORT GPUREPORT OUT.md
Reads <family>.csv of both reductions (reduce.py on check_runs.sh's runs with combosim and with
combosim-cuda) and writes, per family, each policy's BE throughput and QoS violation rate on
both, the Spearman rank correlation of the two rankings (ties get their mean rank) for each of
the two metrics, and every pair of policies the two order differently by BE throughput.
"""
import csv
import os
import sys


def rows(path):
    with open(path) as f:
        return {r["label"]: r for r in csv.DictReader(f) if r["runs"] == "yes" and r["be"] != ""}


def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra) ** 0.5
    vb = sum((y - mb) ** 2 for y in rb) ** 0.5
    return cov / (va * vb) if va and vb else float("nan")


def main(argv):
    if len(argv) != 4:
        sys.stderr.write("usage: rank.py SIMREPORT GPUREPORT OUT.md\n")
        sys.exit(2)
    sim, gpu, out = argv[1:]
    lines = []
    for fam in ("smqos", "gspace"):
        ps, pg = os.path.join(sim, fam + ".csv"), os.path.join(gpu, fam + ".csv")
        if not (os.path.exists(ps) and os.path.exists(pg)):
            continue
        s, g = rows(ps), rows(pg)
        labels = [l for l in s if l in g]
        be_s = [float(s[l]["be"]) for l in labels]
        be_g = [float(g[l]["be"]) for l in labels]
        v_s = [float(s[l]["viol"]) for l in labels]
        v_g = [float(g[l]["viol"]) for l in labels]
        lines.append("#### %s family on the H100: simulator against combosim-cuda\n" % fam)
        lines.append("Spearman rank correlation over %d policies (the oracle is the best split *as each "
                     "backend measured it*): BE throughput %.2f, QoS violation rate %.2f.\n"
                     % (len(labels), spearman(be_s, be_g), spearman(v_s, v_g)))
        lines.append("| policy | BE sim | BE GPU | QoS viol. sim | QoS viol. GPU |\n|---|---|---|---|---|")
        for l, a, b, c, d in zip(labels, be_s, be_g, v_s, v_g):
            lines.append("| %s | %.4f | %.4f | %.1f %% | %.1f %% |" % (l, a, b, 100 * c, 100 * d))
        dis = []
        for i in range(len(labels)):
            for j in range(i + 1, len(labels)):
                if (be_s[i] - be_s[j]) * (be_g[i] - be_g[j]) < 0:
                    dis.append("%s / %s (sim %.3f vs %.3f, GPU %.3f vs %.3f)"
                               % (labels[i], labels[j], be_s[i], be_s[j], be_g[i], be_g[j]))
        lines.append("\nPairs ordered differently by BE throughput (%d of %d): %s\n"
                     % (len(dis), len(labels) * (len(labels) - 1) // 2, "; ".join(dis) or "none"))
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(sys.argv)
