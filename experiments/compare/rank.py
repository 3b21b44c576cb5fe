#!/usr/bin/env python3
"""Compares the simulator's policy ranking with the GPU's on the GPU check's families.

Usage: rank.py SIMREPORT GPUREPORT OUT.md
Reads <family>.csv of both reductions (reduce.py on check_runs.sh's runs with combosim and with
combosim-cuda) and writes, per family, each policy's BE throughput and QoS violation rate on
both, the Spearman rank correlation of the two rankings (ties get their mean rank) for each of
the two metrics, and every pair of policies the two order differently by BE throughput, each
with its reason: within the resolution (on one side the two differ by less than one BE kernel:
the largest BE kernel's solo time over the run, over the number of workloads, from the check's
experiments experiments/compare/h100check), else what the pair's policies do differently on the
GPU (spec/policies.json `gpu_difference`), else "not explained".
"""
import csv
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def rows(path):
    with open(path) as f:
        return {r["label"]: r for r in csv.DictReader(f) if r["runs"] == "yes" and r["be"] != ""}


def resolution(fam):
    """One BE kernel's share of the family's mean BE throughput: the largest kernel of the
    non-LS apps' queues, solo time over the run, over the number of workloads."""
    exps = sorted(glob.glob(os.path.join(HERE, "h100check", "%s_h100_w*.json" % fam)))
    if not exps:
        return 0.0
    q = 0.0
    for e in exps:
        ex = json.load(open(e))
        apps = ex["apps"] if not ex.get("games") else ex["apps"]
        for a in (apps[1:] if not ex.get("games") else apps):
            qp = os.path.join(os.path.dirname(e), a["queue"])
            ks = json.load(open(qp))["kernels"] if os.path.exists(qp) else []
            q = max(q, max([k["solo_us"] for k in ks], default=0) / (ex["duration_ms"] * 1e3))
    return q / len(exps)


def gpu_log(report, fam):
    """The last line of the GPU run's log of the family's first workload (check_runs.sh's
    layout: REPORT/../<family>_h100/runs/000000.log)."""
    p = os.path.join(report, "..", fam + "_h100", "runs", "000000.log")
    try:
        with open(p) as f:
            ls = [l.strip() for l in f if l.strip()]
        return ls[-1] if ls else "empty"
    except OSError:
        return "none"


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
    pols = {p["label"]: p for p in json.load(open(os.path.join(HERE, "spec", "policies.json")))["policies"]}
    lines = []
    for fam in ("combo", "vgasa", "smqos", "gspace"):
        ps, pg = os.path.join(sim, fam + ".csv"), os.path.join(gpu, fam + ".csv")
        if not (os.path.exists(ps) and os.path.exists(pg)):
            continue
        s, g = rows(ps), rows(pg)
        labels = [l for l in s if l in g]
        if len(labels) < 2:
            lines.append("#### %s family on the H100: no GPU result (the GPU run's log: %s)\n" % (fam, gpu_log(gpu, fam)))
            continue
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
        res = resolution(fam)
        cited = set()
        dis = []
        for i in range(len(labels)):
            for j in range(i + 1, len(labels)):
                if (be_s[i] - be_s[j]) * (be_g[i] - be_g[j]) < 0:
                    if min(abs(be_s[i] - be_s[j]), abs(be_g[i] - be_g[j])) <= res:
                        why = "within the resolution (%.3f)" % res
                    else:
                        d = [l for l in (labels[i], labels[j]) if pols.get(l, {}).get("gpu_difference")]
                        cited.update(d)
                        why = ", ".join(d) + " on the GPU (below)" if d else "not explained"
                    dis.append((labels[i], labels[j], be_s[i], be_s[j], be_g[i], be_g[j], why))
        lines.append("\nPairs ordered differently by BE throughput: %d of %d%s\n"
                     % (len(dis), len(labels) * (len(labels) - 1) // 2, ":" if dis else "."))
        if dis:
            lines.append("| pair | BE sim | BE GPU | why |\n|---|---|---|---|")
            for a, b, s1, s2, g1, g2, why in dis:
                lines.append("| %s / %s | %.3f / %.3f | %.3f / %.3f | %s |" % (a, b, s1, s2, g1, g2, why))
            lines.append("")
            for l in labels:
                if l in cited:
                    lines.append("- %s on the GPU: %s" % (l, pols[l]["gpu_difference"]))
            lines.append("")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(sys.argv)
