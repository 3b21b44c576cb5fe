#!/usr/bin/env python3
"""Turns the G-Space sweeps' results into OUT/reproduction.csv (metric,unit,paper,simulated,note)
and the data files the plots read (OUT/fig2.csv, fig3.csv, fig4.csv, fig56.csv, fig9.csv,
fig10.csv; fig10_srs_cfd.csv: NN_SRS in the pairs with CFD as BE, trial by trial, for
RESULTS.md).  Called by report.sh; usage: report.py FIG2 FIG34 FIG56 SEARCH OUT (each a
`combosim sweep --out` directory)."""
import csv
import glob
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
METHODS = ["nn", "ns", "gns", "nn_ns", "nn_gns", "nn_srs"]


def points(sweep, index):
    """{point: (row of workloads/INDEX.csv, {policy label: gspace object})}"""
    rows = {r["point"]: r for r in csv.DictReader(open(os.path.join(HERE, "workloads", index + ".csv")))}
    out = {}
    for f in sorted(glob.glob(os.path.join(sweep, "runs", "*", "summary.json"))):
        p = os.path.basename(os.path.dirname(f))
        out[p] = (rows[p], {r["policy"]: r["gspace"] for r in json.load(open(f))["runs"]})
    if not out:
        sys.exit("report.py: no runs under %s" % sweep)
    return out


def first_ratio(g):
    return g["trials"][0]["lc_ratio"] if g["trials"] else float("nan")


def srs_replay(bf, nn_srs, q, profile_step):
    """NN_SRS's rule (policies/gspace_search.c) replayed over brute force's trials, which hold
    every configuration's measured outcome and NN estimate (the simulator is deterministic, so
    a configuration measures the same in every search).  profile_step=True is the shipped rule,
    checked here against NN_SRS's recorded trials: when SRS's first pick at gamma 1 is the
    profiling run's configuration (the whole GPU), its measurement gives SRS's first gamma step.
    False is the rule without that step, under which a first pick already measured ends SRS at
    once.  Returns (trials, violations, chosen, SRS-phase trials, SRS's first pick at gamma 1)."""
    meas = {(t["n"], t["k"]): (t["lc_ratio"], t["be_tput"]) for t in bf}
    est = {(t["n"], t["k"]): (t["nn_lc_ratio"], t["nn_be_tput"]) for t in bf}
    ns, ks = sorted({c[0] for c in meas}), sorted({c[1] for c in meas})
    cfg = [(n, k) for n in ns for k in ks]

    def better(a, b, qq):
        aq, bq = a[0] <= qq, b[0] <= qq
        if aq != bq:
            return aq
        return a[1] > b[1] if aq else a[0] < b[0]

    def best(pts, qq):
        b = cfg[0]
        for c in cfg[1:]:
            if better(pts[c], pts[b], qq):
                b = c
        return b

    def nbrs(c):
        i, j = ns.index(c[0]), ks.index(c[1])
        return [(ns[i + a], ks[j + b]) for a in (-1, 0, 1) for b in (-1, 0, 1)
                if (a or b) and 0 <= i + a < len(ns) and 0 <= j + b < len(ks)]

    start = cfg[-1]
    tried, gamma, steps, first = [start], 1.0, 0, best(est, q)
    if profile_step and first in tried:
        gamma *= q / meas[first][0]
    while True:                                   # SRS: the estimates' best at q x gamma
        c = best(est, q * gamma)
        if c in tried:
            break
        tried.append(c)
        steps += 1
        gamma *= q / meas[c][0]
    anchor = tried[-1]
    while True:                                   # local refinement: NS from the last trial
        tried += [c for c in nbrs(anchor) if c not in tried]
        b = anchor
        for c in nbrs(anchor):
            if better(meas[c], meas[b], q):
                b = c
        if b == anchor:
            break
        anchor = b
    if profile_step and tried != [(t["n"], t["k"]) for t in nn_srs["trials"]]:
        sys.exit("report.py: the NN_SRS replay does not reproduce the recorded trials")
    return tried, sum(meas[c][0] > q for c in tried), anchor, steps, first


SRS_COLS = ("pair", "nn_pick", "est_meet_qos", "meas_meet_qos", "configs", "min_est_over_meas",
            "srs_first_pick", "srs_steps", "trials", "violations", "violating_configs", "same_as_ns",
            "replay_no_profile_step_trials", "replay_no_profile_step_violations",
            "replay_no_profile_step_chosen")


def srs_cfd_row(pair, bf, runs):
    """NN_SRS in one pair, trial by trial (RESULTS.md's table after the gaps)."""
    g, q = runs["nn_srs"], runs["nn_srs"]["deadline_ratio"]
    t = bf["trials"]
    cfgs = lambda r: [(x["n"], x["k"]) for x in r["trials"]]
    _, _, _, steps, first = srs_replay(t, g, q, True)
    tried2, v2, ch2, _, _ = srs_replay(t, g, q, False)
    fmt = lambda c: "(%d,%d)" % c
    return (pair, fmt((runs["nn"]["chosen"]["n"], runs["nn"]["chosen"]["k"])),
            sum(x["nn_lc_ratio"] <= q for x in t), sum(x["lc_ratio"] <= q for x in t), len(t),
            round(min(x["nn_lc_ratio"] / x["lc_ratio"] for x in t), 2), fmt(first), steps,
            g["search_trials"], g["search_violations"],
            " ".join(fmt((x["n"], x["k"])) for x in g["trials"] if x["lc_ratio"] > q),
            "yes" if cfgs(g) == cfgs(runs["ns"]) else "no", len(tried2), v2, fmt(ch2))


def main():
    fig2, fig34, fig56, search, out = sys.argv[1:6]
    os.makedirs(out, exist_ok=True)
    rep = [("metric", "unit", "paper", "simulated", "note")]

    # Fig. 2: the first LC kernel's latency over its solo time, nothing yielded
    p2 = points(fig2, "fig2")
    with open(os.path.join(out, "fig2.csv"), "w") as f:
        f.write("pair,lc_ratio\n")
        ratios = []
        for _, (row, runs) in sorted(p2.items()):
            r = first_ratio(runs["no-yield"])
            ratios.append(r)
            f.write("%s_%s,%.4f\n" % (row["be"], row["lc"], r))
    n = len(ratios)
    rep.append(("fig2_pairs_over_10x", "%", 100, round(100 * sum(r > 10 for r in ratios) / n, 1),
                "pairs whose LC kernel launched right after the BE kernel took over 10 x its solo time (paper: all; %d pairs)" % n))
    rep.append(("fig2_pairs_over_2x", "%", "", round(100 * sum(r > 2 for r in ratios) / n, 1),
                "the same over 2 x (the QoS target of the other experiments)"))
    rep.append(("fig2_median_lc_ratio", "x", "", round(statistics.median(ratios), 2), "median over the pairs"))

    # Fig. 3-4: speed over the full GPU's, alone on n SMs (k = K) and on k blocks (n = 80)
    p34 = points(fig34, "fig34")
    sp = {}
    with open(os.path.join(out, "fig3.csv"), "w") as f3, open(os.path.join(out, "fig4.csv"), "w") as f4:
        f3.write("bench,sms,speed\n")
        f4.write("bench,blocks,speed\n")
        for _, (row, runs) in sorted(p34.items()):
            b = row["bench"]
            for lab, g in runs.items():
                kind, v = lab.split("-")
                s = 1 / first_ratio(g)
                sp[b, kind, int(v)] = s
                (f3 if kind == "sm" else f4).write("%s,%s,%.4f\n" % (b, v, s))
    rep.append(("fig3_cfd_speed_at_24_sms", "fraction", 1.0, round(sp["cfd", "sm", 24], 3),
                "CFD alone on 24 SMs over the whole GPU; paper: saturated at 20 SMs (Fig. 3)"))
    rep.append(("fig3_nn_speed_at_48_sms", "fraction", 1.0, round(sp["nn", "sm", 48], 3),
                "NN on 48 SMs over the whole GPU; paper: saturates around 50 SMs (Fig. 3)"))
    best_md = max(sp["md", "sm", n] for n in range(8, 81, 8))
    rep.append(("fig3_md_peak_over_full", "x", "", round(best_md, 3),
                "MD's best speed over n SMs / the whole GPU's; paper: above 1 around 20 SMs, then falling (Fig. 3)"))
    best_sc = max(sp["sc", "sm", n] for n in range(8, 81, 8))
    rep.append(("fig3_sc_peak_over_full", "x", "", round(best_sc, 3),
                "SC's best speed over n SMs / the whole GPU's (DRAM-bound: fewer SMs, less DRAM contention)"))
    rep.append(("fig3_pf_80x4_over_40x8", "x", 2, round(sp["pf", "blk", 4] / sp["pf", "sm", 40], 3),
                "PF on (80 SMs, 4 blocks) over (40 SMs, 8 blocks), the same half of the slots; paper: over 2 x (§3.2 item 3)"))

    # Fig. 5-6: each 280-block configuration's LC speed (1 / latency ratio) and BE throughput
    p56 = points(fig56, "fig56")
    best = {}
    with open(os.path.join(out, "fig56.csv"), "w") as f:
        f.write("pair,config,lc_speed,be_tput\n")
        for _, (row, runs) in sorted(p56.items()):
            pair = "%s_%s" % (row["be"], row["lc"])
            pts = []
            for lab, g in runs.items():
                t = g["trials"]
                s = 1 / statistics.fmean(x["lc_ratio"] for x in t) if t else 0
                b = statistics.fmean(x["be_tput"] for x in t) if t else 0
                pts.append((lab, s, b))
                f.write("%s,%s,%.4f,%.4f\n" % (pair, lab, s, b))
            best[pair] = (max(pts, key=lambda x: x[1])[0], max(pts, key=lambda x: x[2])[0])
    for pair, lc_k, be_k in (("nn_pf", 8, 4), ("nn_lbm", 4, 4)):
        lab_lc, lab_be = best[pair]
        rep.append(("fig5_%s_lc_best_k" % pair, "blocks", lc_k, int(lab_lc.split("-")[1]),
                    "k of the 280-block configuration fastest for the LC kernel (8: whole SMs, inter-SM; 4: intra-SM); paper §3.3"))
        rep.append(("fig6_%s_be_best_k" % pair, "blocks", be_k, int(lab_be.split("-")[1]),
                    "k of the configuration with the highest BE throughput; paper §3.3"))

    # Fig. 9-10: prediction errors (brute force's trials: every configuration), searches
    ps = points(search, "search")
    err = {x: [] for x in ("nn_be", "nn_lc", "lr_be", "lr_lc")}
    tput = {m: [] for m in METHODS}
    tput_own = {m: [] for m in METHODS}
    over = {m: [] for m in METHODS}
    viol = {m: [] for m in METHODS}
    nn_miss = 0
    srs_cfd = []
    srs_rows = []
    with open(os.path.join(out, "fig9.csv"), "w") as f9, open(os.path.join(out, "fig10_pairs.csv"), "w") as f10:
        f9.write("pair,nn_be,nn_lc,lr_be,lr_lc\n")
        f10.write("pair,method,n,k,tput_over_opt,own_tput_over_opt,overhead_over_brute,trials,violations\n")
        for _, (row, runs) in sorted(ps.items()):
            pair = "%s_%s" % (row["be"], row["lc"])
            bf = runs["brute"]
            if not all(g["search_done"] for g in runs.values()):
                sys.exit("report.py: %s: a search did not finish within duration_ms (generate.sh's dursearch)" % pair)
            e = bf["prediction_error"]
            for x in err:
                err[x].append(e[x])
            f9.write("%s,%.4f,%.4f,%.4f,%.4f\n" % (pair, e["nn_be"], e["nn_lc"], e["lr_be"], e["lr_lc"]))
            table = {(t["n"], t["k"]): t for t in bf["trials"]}
            opt = bf["chosen_be_tput"]
            for m in METHODS:
                g = runs[m]
                c = (g["chosen"]["n"], g["chosen"]["k"])
                r = table[c]["be_tput"] / opt if opt > 0 else float("nan")
                own = g["chosen_be_tput"] / opt if opt > 0 else float("nan")
                o = g["search_lc_ms"] / bf["search_lc_ms"]
                tput[m].append(r)
                tput_own[m].append(own)
                over[m].append(o)
                viol[m].append(g["search_violations"] / g["search_trials"])
                if m == "nn" and g["chosen_lc_ratio"] > g["deadline_ratio"]:
                    nn_miss += 1
                if m == "nn_srs" and row["be"] == "cfd":
                    srs_cfd.append(g["search_violations"] / g["search_trials"])
                    srs_rows.append(srs_cfd_row(pair, bf, runs))
                f10.write("%s,%s,%d,%d,%.4f,%.4f,%.4f,%d,%d\n" % (pair, m, c[0], c[1], r, own, o, g["search_trials"],
                                                                  g["search_violations"]))
    npair = len(ps)
    mean = statistics.fmean
    for x, paper, what in (("nn_be", 35.7, "NN, BE"), ("nn_lc", 35.1, "NN, LC"), ("lr_be", 32.8, "LR, BE"), ("lr_lc", 62, "LR, LC")):
        rep.append(("fig9_%s_error" % x, "%", paper, round(100 * mean(err[x]), 1),
                    "%s: mean relative error |D' - D| / max(D, D') over every configuration and %d pairs (§5.4)" % (what, npair)))
    paper10 = {"nn": 59.3, "ns": 75.1, "nn_srs": 83.6}
    with open(os.path.join(out, "fig10.csv"), "w") as f:
        f.write("method,tput_over_opt,overhead_over_brute,qos_ok_trials\n")
        for m in METHODS:
            f.write("%s,%.4f,%.4f,%.4f\n" % (m, mean(tput[m]), mean(over[m]), 1 - mean(viol[m])))
            rep.append(("fig10_%s_tput_over_opt" % m, "%", paper10.get(m, ""), round(100 * mean(tput[m]), 1),
                        "BE throughput of %s's final configuration over brute force's best, both as brute force measured them; mean over %d pairs" % (m.upper(), npair)))
            rep.append(("fig10_%s_own_tput_over_opt" % m, "%", paper10.get(m, ""), round(100 * mean(tput_own[m]), 1),
                        "the same with the final configuration's throughput as %s's own run measured it" % m.upper()))
    for a, b, paper in (("nn_ns", "ns", 66), ("nn_gns", "gns", 29)):
        rep.append(("fig10_%s_overhead_below_%s" % (a, b), "%", paper, round(100 * (1 - mean(over[a]) / mean(over[b])), 1),
                    "search time (LC time of the trials) of %s below %s's, each over brute force's, mean over pairs" % (a.upper(), b.upper())))
    rep.append(("fig10_nn_pairs_missing_qos", "%", 44.0, round(100 * nn_miss / npair, 1),
                "pairs whose NN configuration misses QoS (paper: 11 of 25)"))
    rep.append(("fig10_nn_srs_violating_trials_cfd", "%", 42, round(100 * mean(srs_cfd), 1) if srs_cfd else "",
                "share of NN_SRS's trials over the QoS target in the pairs with CFD as BE (§5.5)"))
    for m in METHODS:
        rep.append(("fig10_%s_violating_trials" % m, "%", "", round(100 * mean(viol[m]), 1),
                    "share of %s's search trials over the QoS target, mean over pairs (the profiling run included)" % m.upper()))
    with open(os.path.join(out, "fig10_srs_cfd.csv"), "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows([SRS_COLS] + srs_rows)
    with open(os.path.join(out, "reproduction.csv"), "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rep)
    print("wrote %s/reproduction.csv" % out)


if __name__ == "__main__":
    main()
