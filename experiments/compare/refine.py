#!/usr/bin/env python3
"""Refines the oracle's grid at the QoS cliff of each workload of the comparison.

The oracle's candidates are a grid (every 4 SMs on the RTX 3090, 6 on the H100: spec/families.json
`oracle.step`).  Where QoS falls off steeply between two grid points, the best split meeting QoS
may lie between them.  Per workload of every sweep under BUILDDIR, for each oracle mechanism:
the best candidate meeting QoS (reduce.py's oracle rule) and each grid neighbour of it that has
more BE throughput but misses QoS (the cliff); every knob value strictly between the two is
written as an experiment of its own (the workload's resolved experiment with that candidate only,
paths made absolute) under BUILDDIR/<family>_<gpu>/refine/NNNNNN-KK.json for the workload's run
NNNNNN, so that the candidates run in parallel (one file of all a workload's candidates ran them in
turn: 17 runs of 20 s each for the tiny vGASA workload on the H100); reduce.py reads the runs'
outputs (refine/NNNNNN-KK/) as more oracle candidates of that workload.  Prints the experiments
written, one a line (run each with `combosim run FILE --out DIR`: refine/NNNNNN-KK/).

Usage: refine.py SPECDIR BUILDDIR [--most N]
  --most N  at most N knob values per cliff, evenly spaced between its two grid points (the
            tests' tiny families, whose grid is three times coarser: 17 values on the H100)
"""
import json
import os
import sys

import reduce as rd
from common import die, load


def absolute(x, base):
    if isinstance(x, dict):
        return {k: (os.path.normpath(os.path.join(base, y)) if k in ("queue", "trace") and isinstance(y, str)
                    and not os.path.isabs(y) and os.path.exists(os.path.join(base, y)) else absolute(y, base))
                for k, y in x.items()}
    if isinstance(x, list):
        return [absolute(y, base) for y in x]
    return x


def spaced(values, most):
    """At most `most` of the sorted values, evenly spaced (all of them when most is None)."""
    if most is None or len(values) <= most:
        return values
    return [values[(i + 1) * len(values) // (most + 1)] for i in range(most)]


def cliffs(res, max_v, most=None):
    """(mechanism suffix, knob, best knob value, [knob values to try]) per oracle mechanism."""
    out = []
    cand = {k: v for k, v in res.items() if k.startswith("oracle:")}
    by = {}
    for k in cand:
        knob, n, mech = rd.oracle_key(k)
        by.setdefault((knob, mech), []).append(n)
    for (knob, mech), ns in sorted(by.items()):
        ns.sort()
        lab = {n: rd.oracle_label(knob, n, mech) for n in ns}
        ok = [n for n in ns if cand[lab[n]]["meets"]]
        if not ok:
            continue
        best = max(ok, key=lambda n: (cand[lab[n]]["be"], n))
        i = ns.index(best)
        tries = []
        for j in (i - 1, i + 1):
            if 0 <= j < len(ns) and not cand[lab[ns[j]]]["meets"] and cand[lab[ns[j]]]["be"] > cand[lab[best]]["be"]:
                lo, hi = sorted((best, ns[j]))
                tries += spaced([n for n in range(lo + 1, hi) if n not in ns], most)
        if tries:
            out.append((mech, knob, best, tries))
    return out


def main(argv):
    most = None
    if len(argv) == 5 and argv[3] == "--most" and argv[4].isdigit() and int(argv[4]) > 0:
        most = int(argv[4])
        argv = argv[:3]
    if len(argv) != 3:
        die("usage: refine.py SPECDIR BUILDDIR [--most N]   (N a positive whole number)")
    specdir, build = argv[1:]
    fams = load(os.path.join(rd.HERE, "spec", "families.json"))
    max_v = fams["max_violation"]
    for fam in fams["families"]:
        for gpu in fam["gpus"]:
            d = os.path.join(build, "%s_%s" % (fam["name"], gpu))
            if not os.path.isdir(os.path.join(d, "runs")):
                continue
            for run in sorted(os.listdir(os.path.join(d, "runs"))):
                rdir = os.path.join(d, "runs", run)
                sp = os.path.join(rdir, "summary.json")
                if not os.path.exists(sp):
                    continue
                summ = load(sp)
                res = rd.run_metrics(fam, gpu, summ, rdir, max_v)
                todo = cliffs(res, max_v, most)
                if not todo:
                    continue
                cfg = summ["config"]
                tmpl = {p["label"]: p for p in cfg["policies"] if p.get("label", "").startswith("oracle:")}
                pols = []
                for mech, knob, best, tries in todo:
                    base = dict(tmpl[rd.oracle_label(knob, best, mech)])
                    for n in tries:
                        p = dict(base)
                        p[knob] = n
                        p["label"] = rd.oracle_label(knob, n, mech)
                        pols.append(p)
                exp = absolute(dict(cfg), os.path.join(specdir))
                exp["name"] = cfg["name"] + "-refine"
                exp["description"] = ("The oracle's grid refined at the QoS cliff (experiments/compare/refine.py): "
                                      "a knob value between the best split meeting QoS and its grid neighbour "
                                      "that misses it. " + cfg.get("description", ""))
                os.makedirs(os.path.join(d, "refine"), exist_ok=True)
                for i, p in enumerate(pols):
                    exp["policies"] = [p]
                    out = os.path.join(d, "refine", "%s-%02d.json" % (run, i))
                    with open(out, "w") as f:
                        json.dump(exp, f, indent=1)
                        f.write("\n")
                    print(out)


if __name__ == "__main__":
    main(sys.argv)
