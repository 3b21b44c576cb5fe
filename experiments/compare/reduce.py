#!/usr/bin/env python3
"""Reduces the cross-policy comparison's sweeps to one table and one figure's data per family.

Usage: reduce.py SPECDIR BUILDDIR OUTDIR [--check]
  SPECDIR   the folder holding applicability.csv (experiments/compare, or the tiny one)
  BUILDDIR  holds <family>_<gpu>/ sweep outputs (sweep.csv, runs/NNNNNN/summary.json, kernels.csv)
  OUTDIR    gets <family>.csv (every policy x GPU: means over the workloads), <family>.md,
            <family>_runs.csv (every policy x GPU x workload), <family>_<gpu>.dat (gnuplot),
            findings.md (winners, oracle beaten), values.json (numbers for README.md)
  --check   exit 1 when a policy that applies to a family has no result on one of its
            workloads, or when an online policy whose mechanism lies inside the oracle's space
            (spec/policies.json `oracle`: inside) meets QoS with more BE throughput than the
            oracle beyond the grid tolerance

Metrics, the same for every policy of a family (the family's QoS units, never the policy's own
report): frame families count frames over 1/fps (summary.json's per-game counts, dropped frames
and frames a game never delivered below fps x duration as violations: a closed loop slowed down
makes fewer frames, not later ones), BE throughput is COMBO Eq. 6 (summary.json be_throughput.total); app families
count, for an LC deadline (G-Space), the LC app's kernels whose latency (kernels.csv: launch to
end) exceeds deadline_ratio x solo, and for an LS rate target (SMQoS), the windows of window_ms
in which the LS app's progress rate is below qos; BE throughput is Eq. 6 over the other app's
kernels finished within the run (kernels.csv, so that a combosim-cuda run, whose summary.json has
no Eq. 6, is read alike).  p99 latency: the worst game's
p99 frame latency, or the LS/LC kernels' p99.  Energy: summary.json power.energy_j where the GPU
description has a power model, else empty.  The oracle per workload: the oracle:* candidate with
the most BE throughput among those whose violation rate is at most max_violation
(spec/families.json); its tolerance: the relative BE difference to its grid neighbours (a policy
may sit between two grid points).
"""
import csv
import json
import math
import os
import sys

from common import die, load

HERE = os.path.dirname(os.path.abspath(__file__))


def p99(xs):
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(math.ceil(0.99 * len(xs))) - 1)]


def fmt(x, nd=3):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return ""
    if isinstance(x, float) and math.isinf(x):
        return "inf"
    return ("%." + str(nd) + "f") % x


def mean(xs):
    xs = [x for x in xs if x is not None and not (isinstance(x, float) and math.isnan(x))]
    return sum(xs) / len(xs) if xs else float("nan")


def ls_kernels(rundir, ls, dur_ns):
    """LS/LC kernels per policy label: (latency_ns, solo_ns, start_ns, end_ns) of each one
    finished within the run; and per label the solo time of the other apps' kernels finished
    within it (the BE work)."""
    out = {}
    be = {}
    path = os.path.join(rundir, "kernels.csv")
    try:
        f = open(path)
    except OSError as e:
        die("%s: %s (an app family's runs need kernels.csv)" % (path, e))
    with f:
        for row in csv.DictReader(f):
            if int(row["end_ns"]) > dur_ns:
                continue              # a GPU run writes the kernels that ended after the duration
            if row["owner"] != ls:
                be[row["policy"]] = be.get(row["policy"], 0) + int(row["solo_ns"])
                continue
            out.setdefault(row["policy"], []).append(
                (int(row["end_ns"]) - int(row["launch_ns"]), int(row["solo_ns"]), int(row["start_ns"]),
                 int(row["end_ns"])))
    return out, be


def frames_csv(rundir, dur_ns, fps):
    """Per policy label, from frames.csv (both backends write it alike): per game the frames
    whose deadline fell within the run (units), those that missed it (dropped, unfinished by
    then, or finished late) and the finished frames' latencies."""
    out = {}
    with open(os.path.join(rundir, "frames.csv")) as f:
        for row in csv.DictReader(f):
            rel = int(row["release_ns"])
            # deadline_ns is absolute (release + the frame period)
            dl = int(row["deadline_ns"]) - rel if row["deadline_ns"] not in ("", "-1") else int(1e9 / fps)
            if rel + dl > dur_ns:
                continue
            g = out.setdefault(row["policy"], {}).setdefault(row["game"], {"units": 0, "bad": 0, "lat": []})
            g["units"] += 1
            fin = int(row["finish_ns"]) if row["finish_ns"] not in ("", "-1") else None
            if row["dropped"] == "1" or fin is None or fin - rel > dl:
                g["bad"] += 1
            if fin is not None and row["dropped"] != "1":
                g["lat"].append((fin - rel) / 1e6)
    return out


def be_solo(rundir, dur_ns):
    """Per policy label, the solo ns of BE kernels (no frame) that ended within the run: from
    be_solo.csv (check_runs.sh's sum of a frame family's kernels.csv) or kernels.csv."""
    out = {}
    p = os.path.join(rundir, "be_solo.csv")
    if os.path.exists(p):
        with open(p) as f:
            for row in csv.DictReader(f):
                out[row["policy"]] = out.get(row["policy"], 0) + int(row["solo_ns"])
        return out
    with open(os.path.join(rundir, "kernels.csv")) as f:
        for row in csv.DictReader(f):
            if row["frame"] == "-1" and int(row["end_ns"]) <= dur_ns:
                out[row["policy"]] = out.get(row["policy"], 0) + int(row["solo_ns"])
    return out


def run_metrics(fam, gpu, summ, rundir, max_v):
    """Every policy run of one workload: label -> metrics."""
    q = fam["qos"]
    # combosim's summary.json holds the resolved experiment; combosim-cuda's names its file
    cfg = summ.get("config") or load(summ["experiment"])
    dur_ns = cfg["duration_ms"] * 1e6
    res = {}
    lsk = None
    if q["kind"] != "frame":
        lsk, bek = ls_kernels(rundir, cfg["apps"][0]["name"], dur_ns)
        ratio = q.get("deadline_ratio") or 1 / q["qos"]
    fcsv = None
    if q["kind"] == "frame" and os.path.exists(os.path.join(rundir, "frames.csv")):
        # the GPU check (frames.csv on both backends; combosim-cuda's summary.json has no game
        # metrics nor Eq. 6): every game owes its fps x duration frames as below
        fcsv = frames_csv(rundir, dur_ns, q["fps"])
        besolo = be_solo(rundir, dur_ns)
    elif q["kind"] == "frame" and "config" not in summ:
        die("%s: a frame family's GPU run needs frames.csv (outputs.frames_csv)" % rundir)
    for r in summ["runs"]:
        m = {"be": r["be_throughput"]["total"] if "be_throughput" in r else float("nan"),
             "sm_busy": r["utilisation"]["sm_busy"] if "utilisation" in r else float("nan")}
        pw = r.get("power") or {}
        m["energy_j"] = pw.get("energy_j")
        m["gated_sm_ms"] = pw.get("gated_sm_ms", 0)
        if fcsv is not None:
            games = fcsv.get(r["policy"], {})
            names = [g["name"] for g in cfg["games"]]
            owed = int(q["fps"] * dur_ns / 1e9) - 1
            units = viol = 0
            lat = []
            for n in names:
                g = games.get(n, {"units": 0, "bad": 0, "lat": []})
                deficit = max(0, owed - g["units"])
                units += g["units"] + deficit
                viol += g["bad"] + deficit
                lat.append(p99(g["lat"]) if g["lat"] else float("inf"))
            m["units"] = units
            m["viol"] = viol / units if units else 1.0
            m["p99_ms"] = max(lat) if lat else float("nan")
            m["p99_norm"] = m["p99_ms"] / (1000.0 / q["fps"])
            m["be"] = (besolo.get(r["policy"], 0) - r.get("solo_ms_of_work_not_done", 0) * 1e6) / dur_ns
        elif q["kind"] == "frame":
            # a game owes fps x duration frames (less the one in flight at the end): frames it
            # never delivered (a closed loop slowed down, or starved) count as violations
            units = viol = 0
            for g in r["games"]:
                done = g["frames_finished"] + g["frames_dropped"]
                deficit = max(0, int(g["fps_target"] * dur_ns / 1e9) - 1 - done)
                units += done + deficit
                viol += g["qos_violation_rate"] * g["frames_finished"] + g["frames_dropped"] + deficit
            m["units"] = units
            m["viol"] = viol / units if units else 1.0
            # a game that finished no frame has no p99 (null): its latency is unbounded
            lat = [g["latency_p99_ms"] for g in r["games"]]
            m["p99_ms"] = float("inf") if None in lat else max(lat) if lat else float("nan")
            m["p99_norm"] = m["p99_ms"] / (1000.0 / q["fps"])
        else:
            ks = lsk.get(r["policy"], [])
            if q["kind"] == "lc-deadline":
                # G-Space's QoS: each LC kernel's latency within deadline_ratio x its solo time
                m["units"] = len(ks)
                m["viol"] = sum(1 for lat, solo, _, _ in ks if lat > ratio * solo * (1 + 1e-9)) / len(ks) if ks else 1.0
            else:
                # SMQoS's QoS: the LS app's progress rate (solo-time of its work per unit time,
                # 1 = alone on the whole GPU) at least qos, here per window of window_ms; a
                # kernel's work is spread evenly over its run; kernels.csv has no kernel in
                # flight at the end, so only windows before the LS app's last finished kernel
                # count (the whole run but its last window where LS kernels are short)
                wm = q["window_ms"]
                w = (wm[gpu] if isinstance(wm, dict) else wm) * 1e6
                last = max([en for _, _, _, en in ks], default=dur_ns)
                nw = min(int(dur_ns // w) - 1, int(last // w))
                work = [0.0] * max(nw, 0)
                for _, solo, st, en in ks:
                    span = max(en - st, 1)
                    for i in range(int(st // w), min(int(en // w), nw - 1) + 1):
                        ov = min(en, (i + 1) * w) - max(st, i * w)
                        if ov > 0:
                            work[i] += solo * ov / span
                m["units"] = nw
                m["viol"] = sum(1 for x in work if x < q["qos"] * w * (1 - 1e-9)) / nw if nw > 0 else 1.0
            # SMQoS's ls_norm measured alike for every policy: the LS rate over the run / qos
            # (up to its last finished kernel, for the same reason)
            m["ls_rate"] = (sum(solo for _, solo, _, _ in ks) / max([en for _, _, _, en in ks], default=dur_ns)
                            / q["qos"] if "qos" in q else float("nan"))
            m["p99_ms"] = p99([lat / 1e6 for lat, _, _, _ in ks])
            m["p99_norm"] = p99([lat / solo for lat, solo, _, _ in ks]) / ratio if ks else float("nan")
            # the other apps' kernels finished within the run, from kernels.csv (both backends)
            # a GPU run lists kernels that ended with work left (kernels_incomplete) at their
            # full solo time: that work (solo_ms_of_work_not_done) is taken off
            m["be"] = (bek.get(r["policy"], 0) - r.get("solo_ms_of_work_not_done", 0) * 1e6) / dur_ns
        m["meets"] = m["viol"] <= max_v
        res[r["policy"]] = m
    return res


def refined_runs(refdir, run):
    """The output folders of refine.py's experiments for the sweep's run RUN: REFDIR/RUN-KK."""
    if not os.path.isdir(refdir):
        return []
    pre = run + "-"
    return [os.path.join(refdir, f[:-5]) for f in sorted(os.listdir(refdir))
            if f.startswith(pre) and f.endswith(".json") and f[len(pre):-5].isdigit()]


def oracle_key(label):
    """oracle:<knob>-<n>[-<mechanism>] (generate.py) as (knob, n, mechanism suffix or "")."""
    body = label.split(":", 1)[1]
    knob, rest = body.split("-", 1)
    num, _, mech = rest.partition("-")
    return knob, int(num), mech


def oracle_label(knob, n, mech):
    return "oracle:%s-%d%s" % (knob, n, "-" + mech if mech else "")


def oracle(res, max_v):
    """The best oracle:* candidate meeting QoS (else the least violating), and its tolerance."""
    cand = {k: v for k, v in res.items() if k.startswith("oracle:")}
    if not cand:
        return None
    ok = [k for k, v in cand.items() if v["meets"]]
    if ok:
        best = max(ok, key=lambda k: (cand[k]["be"], k))
    else:
        best = min(cand, key=lambda k: (cand[k]["viol"], -cand[k]["be"], k))
    # grid neighbours: same mechanism suffix, the nearest knob values either side
    kb, nb, mb = oracle_key(best)
    same = sorted((oracle_key(k)[1], k) for k in cand if oracle_key(k)[0] == kb and oracle_key(k)[2] == mb)
    idx = [n for n, _ in same].index(nb)
    tol = 0.0
    for j in (idx - 1, idx + 1):
        if 0 <= j < len(same):
            b = cand[same[j][1]]["be"]
            if cand[best]["be"] > 0:
                tol = max(tol, abs(b - cand[best]["be"]) / cand[best]["be"])
    o = dict(cand[best])
    o["config"] = best.split(":", 1)[1]
    o["feasible"] = bool(ok)
    o["tol"] = tol
    return o


def power_model(gpu):
    """The GPU description's power model name (models/<gpu>.json power.model; "none" without)."""
    return (load(os.path.join(HERE, "..", "..", "models", gpu + ".json")).get("power") or {}).get("model", "none")


def energy_cell(x, gpu):
    if x is not None:
        return fmt(x, 3)
    return "no power model" if power_model(gpu) == "none" else "n/a"


def read_applicability(specdir):
    """applicability.csv (generate.py), or a GPU check's check.csv (generate.py --gpu-check:
    the policies that run there and why the others do not; its oracle row is the oracle's)."""
    rows = {}
    p = os.path.join(specdir, "applicability.csv")
    if not os.path.exists(p):
        p = os.path.join(specdir, "check.csv")
    with open(p) as f:
        for r in csv.DictReader(f):
            if r["label"] != "oracle":
                rows.setdefault(r["family"], []).append(r)
    return rows


def main(argv):
    args = [a for a in argv[1:] if a != "--check"]
    check = "--check" in argv
    if len(args) != 3:
        die("usage: reduce.py SPECDIR BUILDDIR OUTDIR [--check]")
    specdir, build, outdir = args
    fams = load(os.path.join(HERE, "spec", "families.json"))
    pols = {p["label"]: p for p in load(os.path.join(HERE, "spec", "policies.json"))["policies"]}
    max_v = fams["max_violation"]
    appl = read_applicability(specdir)
    os.makedirs(outdir, exist_ok=True)
    fails = []
    findings = []
    values = {}
    for fam in fams["families"]:
        name = fam["name"]
        runs_rows = []
        table = []
        gpus = [g for g in fam["gpus"] if os.path.isdir(os.path.join(build, "%s_%s" % (name, g)))]
        for g in fam["gpus"]:
            if g not in gpus:
                fails.append("%s on the %s: no sweep output under %s" % (name, g, build))
        if not gpus:
            fails.append("%s: no sweep output under %s" % (name, build))
            continue
        for gpu in gpus:
            d = os.path.join(build, "%s_%s" % (name, gpu))
            with open(os.path.join(d, "sweep.csv")) as f:
                sw = list(csv.DictReader(f))
            keys = [k for k in fam["grid"]]
            per_run = {}
            for row in sw:
                per_run.setdefault(row["run"], "/".join(row[k] for k in keys) if all(k in row for k in keys)
                                   else row["workload"])     # check_runs.sh's layout
            per = {}   # workload -> label -> metrics
            for run, wl in sorted(per_run.items()):
                rd = os.path.join(d, "runs", run)
                sp = os.path.join(rd, "summary.json")
                if not os.path.exists(sp):
                    fails.append("%s on the %s, workload %s: no summary.json (the run failed)" % (name, gpu, wl))
                    continue
                per[wl] = run_metrics(fam, gpu, load(sp), rd, max_v)
                # the oracle's grid refined at the QoS cliff (refine.py): more oracle:* candidates,
                # one experiment each
                for rf in refined_runs(os.path.join(d, "refine"), run):
                    if os.path.exists(os.path.join(rf, "summary.json")):
                        per[wl].update(run_metrics(fam, gpu, load(os.path.join(rf, "summary.json")), rf, max_v))
                    else:
                        fails.append("%s on the %s, workload %s: the refined oracle run %s has no summary.json"
                                     % (name, gpu, wl, rf))
            wls = sorted(per)
            orc = {wl: oracle(per[wl], max_v) for wl in wls}
            # per-workload winner among online policies meeting QoS
            winner = {}
            for wl in wls:
                ok = [(m["be"], l) for l, m in per[wl].items()
                      if not l.startswith("oracle:") and pols.get(l, {}).get("role") == "online" and m["meets"]]
                winner[wl] = max(ok)[1] if ok else None
            for a in appl.get(name, []):
                lab = a["label"]
                rec = {"family": name, "gpu": gpu, "label": lab, "policy": a["policy"], "runs": a["runs"],
                       "role": pols.get(lab, {}).get("role", ""), "note": a["why_not"]}
                if a["runs"] == "yes":
                    ms = []
                    for wl in wls:
                        m = per[wl].get(lab)
                        if m is None or math.isnan(m["be"]):
                            fails.append("%s dropped out of the %s family on the %s (workload %s): it applies "
                                         "(applicability.csv) but has no result" % (lab, name, gpu, wl))
                            continue
                        o = orc[wl]
                        m = dict(m)
                        m["vs_oracle"] = m["be"] / o["be"] if o and o["feasible"] and o["be"] > 0 else float("nan")
                        ms.append(m)
                        runs_rows.append([name, gpu, wl, lab, fmt(m["be"], 4), fmt(m["viol"], 4), int(m["meets"]),
                                          fmt(m["p99_ms"], 3), fmt(m["p99_norm"], 3), fmt(m["sm_busy"], 3),
                                          fmt(m["energy_j"], 4), fmt(m["vs_oracle"], 3), m["units"]])
                        inside = pols.get(lab, {}).get("oracle")
                        if (rec["role"] == "online" and m["meets"] and o and o["feasible"]
                                and m["be"] > o["be"] * (1 + o["tol"]) + 1e-9):
                            gain = m["be"] / o["be"] - 1 if o["be"] > 0 else float("inf")
                            msg = ("%s beats the oracle (%s, BE %.4f) by %.1f %% on the %s, %s workload %s, "
                                   "beyond the grid tolerance %.1f %%" % (lab, o["config"], o["be"], 100 * gain,
                                                                          gpu, name, wl, 100 * o["tol"]))
                            if inside == "inside":
                                fails.append(msg + ": its mechanism lies inside the oracle's space")
                            else:
                                findings.append(msg + ": " + pols[lab].get("oracle_reason", ""))
                    rec.update(be=mean([m["be"] for m in ms]), viol=mean([m["viol"] for m in ms]),
                               met="%d/%d" % (sum(m["meets"] for m in ms), len(ms)),
                               p99_ms=mean([m["p99_ms"] for m in ms]), p99_norm=mean([m["p99_norm"] for m in ms]),
                               sm_busy=mean([m["sm_busy"] for m in ms]),
                               energy_j=mean([m["energy_j"] for m in ms]) if ms and all(m["energy_j"] is not None for m in ms) else None,
                               vs_oracle=mean([m["vs_oracle"] for m in ms]),
                               ls_rate=mean([m.get("ls_rate", float("nan")) for m in ms]),
                               wins=sum(1 for wl in wls if winner[wl] == lab))
                table.append(rec)
            om = [orc[wl] for wl in wls if orc[wl]]
            if om:
                for wl in wls:
                    o = orc[wl]
                    runs_rows.append([name, gpu, wl, "oracle", fmt(o["be"], 4), fmt(o["viol"], 4), int(o["meets"]),
                                      fmt(o["p99_ms"], 3), fmt(o["p99_norm"], 3), fmt(o["sm_busy"], 3),
                                      fmt(o["energy_j"], 4), "1.000" if o["feasible"] else "", o["units"],
                                      ])
                    runs_rows[-1].append(o["config"])
                table.append({"family": name, "gpu": gpu, "label": "oracle", "policy": fam["oracle"]["policy"],
                              "runs": "yes", "role": "oracle",
                              "note": "best static %s meeting QoS, per workload: %s" % (
                                  fam["oracle"]["knob"], ", ".join("%s %s%s" % (wl, orc[wl]["config"], "" if orc[wl]["feasible"] else " (none meets QoS: least violating)") for wl in wls)),
                              "be": mean([o["be"] for o in om]), "viol": mean([o["viol"] for o in om]),
                              "met": "%d/%d" % (sum(o["meets"] for o in om), len(om)),
                              "p99_ms": mean([o["p99_ms"] for o in om]), "p99_norm": mean([o["p99_norm"] for o in om]),
                              "sm_busy": mean([o["sm_busy"] for o in om]),
                              "energy_j": mean([o["energy_j"] for o in om]) if all(o["energy_j"] is not None for o in om) else None,
                              "vs_oracle": 1.0, "wins": "", "ls_rate": mean([o.get("ls_rate", float("nan")) for o in om])})
            # the best online policy over the family's workloads (most BE among those meeting QoS on all)
            on = [r for r in table if r["gpu"] == gpu and r["role"] == "online" and r["runs"] == "yes"]
            full = [r for r in on if r["met"].split("/")[0] == r["met"].split("/")[1]]
            best = max(full, key=lambda r: r["be"]) if full else None
            values.setdefault("power_models", {})[gpu] = power_model(gpu)
            values["%s/%s" % (name, gpu)] = {
                r["label"]: {k: r.get(k) for k in ("be", "viol", "met", "p99_ms", "p99_norm", "vs_oracle", "wins", "ls_rate", "energy_j")}
                for r in table if r["gpu"] == gpu and r["runs"] == "yes"}
            findings.append("%s family on the %s: %s" % (
                name, gpu, ("best online policy meeting QoS on every workload: %s (BE %.4f, %s)"
                            % (best["label"], best["be"], "%.0f %% of the oracle's" % (100 * best["vs_oracle"])
                               if best["vs_oracle"] == best["vs_oracle"] else "no oracle split meets QoS to compare with")
                            if best else "no online policy meets QoS on every workload")
                + "; workload winners: " + ", ".join("%s %s" % (wl, winner[wl] or "none") for wl in wls)))
            # gnuplot data: online and oracle points
            with open(os.path.join(outdir, "%s_%s.dat" % (name, gpu)), "w") as f:
                f.write("# label be viol_pct p99_norm sm_busy energy_j role energy_over_max\n")
                shown = [r for r in table if r["gpu"] == gpu and r["runs"] == "yes"]
                emax = max([r["energy_j"] for r in shown if r["energy_j"] is not None] or [0])
                for r in shown:
                    f.write('"%s" %s %s %s %s %s %s %s\n' % (
                        r["label"], fmt(r["be"], 5), fmt(100 * r["viol"], 3), fmt(r["p99_norm"], 4) or "NaN",
                        fmt(r["sm_busy"], 4) or "NaN", fmt(r["energy_j"], 4) or "NaN", r["role"],
                        fmt(r["energy_j"] / emax, 4) if r["energy_j"] is not None and emax > 0 else "NaN"))
        cols = ["gpu", "label", "policy", "role", "runs", "be", "vs_oracle", "viol", "met", "p99_ms", "p99_norm",
                "ls_rate", "sm_busy", "energy_j", "wins", "note"]
        with open(os.path.join(outdir, name + ".csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(cols)
            for r in table:
                w.writerow([fmt(r.get(c), 4) if isinstance(r.get(c), float) else ("" if r.get(c) is None else r.get(c))
                            for c in cols])
        with open(os.path.join(outdir, name + "_runs.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["family", "gpu", "workload", "label", "be", "viol", "meets", "p99_ms", "p99_norm", "sm_busy",
                        "energy_j", "vs_oracle", "qos_units", "oracle_config"])
            w.writerows(runs_rows)
        with open(os.path.join(outdir, name + ".md"), "w") as f:
            f.write("#### %s\n\nQoS: %s; met: violation rate <= %.0f %%.  Means over the workloads (%s).\n\n" % (
                fam["title"], fam["qos"]["text"], 100 * max_v, " x ".join(
                    "%s: %s" % (k, ", ".join(fam["grid"][k])) for k in fam["grid"])))
            for gpu in gpus:
                f.write("%s:\n\n| policy | BE throughput | x oracle | QoS viol. | QoS met | p99 latency ms | p99 / target | LS rate / target | SM busy | energy J | wins | note |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n" % gpu)
                for r in table:
                    if r["gpu"] != gpu:
                        continue
                    if r["runs"] != "yes":
                        f.write("| %s | - | - | - | - | - | - | - | - | - | - | %s: %s |\n" % (
                            r["label"], "pending" if r["runs"] == "pending" else "does not apply", r["note"]))
                        continue
                    f.write("| %s%s | %s | %s | %s %% | %s | %s | %s | %s | %s | %s | %s | %s |\n" % (
                        r["label"], " (reference)" if r["role"] == "reference" else "", fmt(r["be"], 4),
                        fmt(r["vs_oracle"], 2), fmt(100 * r["viol"], 1), r["met"], fmt(r["p99_ms"], 2),
                        fmt(r["p99_norm"], 2), fmt(r.get("ls_rate"), 2) or "-", fmt(r["sm_busy"], 2),
                        energy_cell(r["energy_j"], gpu), r["wins"], r["note"]))
                f.write("\n")
    with open(os.path.join(outdir, "families.txt"), "w") as f:
        for fam in fams["families"]:
            f.write("%s\t%s\t%s\n" % (fam["name"], fam["title"], " ".join(fam["gpus"])))
    with open(os.path.join(outdir, "findings.md"), "w") as f:
        for x in findings:
            f.write("- " + x + "\n")
    with open(os.path.join(outdir, "values.json"), "w") as f:
        json.dump(values, f, indent=1, sort_keys=True)
    if check:
        for x in fails:
            print("FAIL " + x)
        if fails:
            sys.exit(1)
        print("compare check: every applicable policy has a result on every workload; no policy inside the "
              "oracle's space beats it")


if __name__ == "__main__":
    main(sys.argv)
