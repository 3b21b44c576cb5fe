#!/usr/bin/env python3
"""G-Space on the H100 against the simulator (cuda/runs/h100-gspace-search): for each BE + LC
pair and search method, the simulated and the measured run of the same experiment
(experiments/gspace/h100_search.json) side by side, as a Markdown section for VALIDATION.md.

Per method: the configuration (n SMs, k blocks) chosen, the trials the search ran and how many
broke the QoS target (2 x the LC solo time), the LC latency over solo after the search (mean
over the LC kernels run with the chosen configuration) and the BE throughput the policy read
over those kernels (1 = the BE kernel alone on the whole GPU).  Then NN's and LR's prediction
errors over brute force's trials (Fig. 9's measure, here against each side's own trials).

usage: compare_gspace.py RUN_DIR [SIM_DIR]   (RUN_DIR/gpu/PAIR.summary.json against
SIM_DIR/PAIR.summary.json, default RUN_DIR/sim: the simulator's run stored with the GPU's)
"""
import glob
import json
import os
import statistics
import sys

ORDER = ["mm+lbm", "md+lbm", "cfd+spmv", "mm+sc"]


def runs(path):
    return {r["gspace"]["search"]: r for r in json.load(open(path))["runs"]}


def cfg(g):
    return f"({g['chosen']['n']}, {g['chosen']['k']})" if g["search_done"] else "not done"


def fmt(x, f="%.2f"):
    return f % x if x is not None else "-"


def main():
    d = sys.argv[1]
    sd = sys.argv[2] if len(sys.argv) > 2 else f"{d}/sim"
    pairs = sorted((os.path.basename(p)[:-len(".summary.json")] for p in glob.glob(f"{d}/gpu/*.summary.json")),
                   key=lambda p: ORDER.index(p) if p in ORDER else len(ORDER))
    rows, lc_err, same, n, viol = [], [], 0, 0, [0, 0, 0, 0]
    errs = []
    for p in pairs:
        sim, gpu = runs(f"{sd}/{p}.summary.json"), runs(f"{d}/gpu/{p}.summary.json")
        for m, rs in sim.items():
            rg = gpu.get(m)
            if not rg:
                continue
            s, g = rs["gspace"], rg["gspace"]
            ls, lg = s.get("after_lc_ratio"), g.get("after_lc_ratio")
            if ls and lg:
                lc_err.append(abs(ls - lg) / lg)
            n += 1
            same += s["search_done"] and g["search_done"] and s["chosen"] == g["chosen"]
            viol[0] += s["search_violations"]
            viol[1] += s["search_trials"]
            viol[2] += g["search_violations"]
            viol[3] += g["search_trials"]
            rows.append(f"| {p} | {m} | {cfg(s)} | {cfg(g)} | {s['search_trials']} / {g['search_trials']} "
                        f"| {s['search_violations']} / {g['search_violations']} | {fmt(ls)} | {fmt(lg)} "
                        f"| {fmt(s.get('after_be_tput'))} | {fmt(g.get('after_be_tput'))} |")
            if m == "brute":
                for side, r in (("sim", s), ("GPU", g)):
                    e = r.get("prediction_error")
                    if e:
                        errs.append((p, side, r["search_trials"], e))
    print("| pair | search | chosen (n, k) sim | GPU | trials sim / GPU | QoS misses in search sim / GPU "
          "| LC latency / solo after, sim | GPU | BE tput read, sim | GPU |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    print()
    print(f"{n} pair-method runs on each side; the same final configuration in {same} "
          f"({100 * same / n:.0f} %); QoS misses during the searches: {viol[0]} of {viol[1]} trials simulated, "
          f"{viol[2]} of {viol[3]} on the GPU; LC latency after the search: median |sim - GPU| / GPU "
          f"{100 * statistics.median(lc_err):.1f} %, max {100 * max(lc_err):.1f} %.")
    print()
    print("Prediction errors over brute force's trials (mean |predicted - measured| / max of the two, "
          "Fig. 9's measure; paper: NN 35.7 % BE, 35.1 % LC; LR 32.8 %, 62 %):")
    print()
    print("| pair | side | trials | NN BE | NN LC | LR BE | LR LC |")
    print("|---|---|---|---|---|---|---|")
    for p, side, t, e in errs:
        print(f"| {p} | {side} | {t} | {100 * e['nn_be']:.1f} | {100 * e['nn_lc']:.1f} | "
              f"{100 * e.get('lr_be', 0):.1f} | {100 * e.get('lr_lc', 0):.1f} |")


if __name__ == "__main__":
    main()
