#!/usr/bin/env python3
"""Fits models/h100.json's "power" (linear model) and "power_cap" (clock under the cap) to
cuda/runs/h100-power (`combosim-cuda bench power` with nvidia-smi sampling beside it).

Each phase of power_phases.csv is matched to the nvidia-smi samples inside it (from 0.8 s after
its start, the power reading's ramp, to its end): median power.draw and clocks.sm.  A phase's
activity is what the simulator integrates for the power model (models/power.h): per unit, the
SMs it keeps busy, each at its load = the class's demand (1 on its unit: models/kernel.c
kclass_default_demand; RT on the H100's lsu, rt_emulation_unit) times the kernel's measured
speed (its fastest task time in the run over this phase's, per block: the 8-block phases' blocks
share an SM's units); for MEM the DRAM bandwidth in use as the simulator integrates it, L / S(L)
at its chip demand L = 2.14 n / 132 and the H100's DRAM curve S (models/h100.json: fitted to
cuda/runs/h100-bench-2's scaling; the MEM task times of this run do not measure bandwidth).  Least squares (normal equations, Gauss-Jordan in plain Python: no numpy here) of

  P = P0 + cuda_w * cuda_sms + tensor_w * tensor_sms + lsu_w * lsu_sms + dram_w * dram_share

on the calibration phases at the nominal clock (those whose median clock is the maximum);
development phases are only predicted.  sm_active_w is not separable (every busy SM of these
kernels loads exactly one unit fully: it would be collinear with the unit terms) and is left 0;
P0 is the chip with no block resident at full clock (const_w + 132 * sm_static_w: the split
needs SM power gating, which the H100 does not expose).

The rate: a capped phase's kernel time against the same kernel's at the nominal clock in the
nearest phase gives the exponent r of rate ~ f^r (calibration: TC-132 against TC-99).

The cap: phases whose samples show the SW power cap (clocks_event_reasons bit 0x4) run at a
clock f below nominal while drawing the cap; with the fitted model's power at the nominal clock
P = fixed + clocked (clocked: the unit terms), fixed + clocked * f^k = cap gives k per phase;
the calibration phases' k is the exponent.

A pair's kernels start together; the shorter one's activity counts for its share of the
group's time (the phase's power averages both parts).

Usage: python3 cuda/scripts/fit_power.py [CALIBRATION_RUN [DEVELOPMENT_RUN...]]   (tgz or directory;
default cuda/runs/h100-power/run.tgz cuda/runs/h100-power-clock/run.tgz)
"""
import csv
import datetime
import io
import math
import os
import statistics as st
import sys
import tarfile


NOMINAL_MHZ = 1980.0
SMS = 132
MEM_DRAM = 2.14                      # models/h100.json class_defaults.MEM.dram (cuda/runs/h100-bench-2)
KNEE = 2.3                           # models/h100.json dram_saturation.knee


def slowdown(L):
    """models/gpu.c gpu_dram_slowdown with the H100's knee"""
    return (1 + L ** KNEE) ** (1 / KNEE)
UNITS = ["cuda", "tensor", "lsu"]
CLASS_UNIT = {"CD": "cuda", "TC": "tensor", "RT": "lsu", "MEM": "lsu"}


def lstsq(X, y):
    """least-squares coefficients of y ~ X (lists) by the normal equations"""
    n = len(X[0])
    A = [[sum(r[i] * r[j] for r in X) for j in range(n)] + [sum(r[i] * v for r, v in zip(X, y))] for i in range(n)]
    for i in range(n):
        piv = max(range(i, n), key=lambda r: abs(A[r][i]))
        A[i], A[piv] = A[piv], A[i]
        for r in range(n):
            if r != i:
                f = A[r][i] / A[i][i]
                A[r] = [a - f * b for a, b in zip(A[r], A[i])]
    return [A[i][n] / A[i][i] for i in range(n)]


def load(path):
    files = {}
    if os.path.isdir(path):
        for root, _, names in os.walk(path):
            for n in names:
                with open(os.path.join(root, n), "rb") as f:
                    files[n] = f.read().decode()
    else:
        with tarfile.open(path) as t:
            for m in t.getmembers():
                if m.isfile():
                    files[os.path.basename(m.name)] = t.extractfile(m).read().decode()
    return files


def samples(text):
    r = csv.reader(io.StringIO(text))
    next(r)
    out = []
    for x in r:
        t = datetime.datetime.strptime(x[0].strip(), "%Y/%m/%d %H:%M:%S.%f")
        out.append([t.replace(tzinfo=datetime.timezone.utc).timestamp()] + [y.strip() for y in x[1:]])
    return out


def phases(files):
    smi = samples(files["smi.csv"])
    smi2 = samples(files["smi2.csv"]) if "smi2.csv" in files else []
    rows = list(csv.DictReader(io.StringIO(files["power_phases.csv"])))
    for p in rows:
        t0, t1 = float(p["start_unix_s"]) + 0.8, float(p["end_unix_s"]) - 0.05
        a = [x for x in smi if t0 <= x[0] <= t1]
        b = [x for x in smi2 if t0 <= x[0] <= t1]
        p["power_w"] = st.median(float(x[1]) for x in a)
        p["clock_mhz"] = st.median(float(x[2]) for x in a)
        p["clock_min_mhz"] = min(float(x[2]) for x in a)
        p["temp_c"] = st.median(float(x[5]) for x in a)
        p["capped"] = any(int(x[4], 16) & 0x4 for x in b)
        p["samples"] = len(a)
    return rows


def activity(p, ref):
    """unit SM-loads and DRAM share of a phase (kernel a, and b beside it if any)"""
    act = {u: 0.0 for u in UNITS}
    act["dram_load"] = 0.0
    for side in ("a", "b"):
        cls = p[side + "_class"]
        if not cls:
            continue
        n = int(p[side + "_sms"])
        # the two kernels of a pair start together; the shorter one's share of the group's time
        da = float(p["a_median_us"])
        db = float(p["b_median_us"]) if p["b_class"] else da
        share = (da if side == "a" else db) / max(da, db)
        per_round = float(p["a_task_us_per_sm_round"]) if side == "a" else None
        if side == "b":     # b ran 1.5x the rounds; its duration is b_median_us
            per_round = float(p["b_median_us"]) / 12
        blocks = int(p[side + "_blocks"])
        speed = min(1.0, ref[cls] * blocks / 4 / per_round)
        act[CLASS_UNIT[cls]] += n * speed * share
        if cls == "MEM":
            act["dram_load"] += MEM_DRAM * n / SMS * share
    L = act.pop("dram_load")
    act["dram"] = L / slowdown(L) if L > 0 else 0.0
    return act


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if not args:
        args = ["cuda/runs/h100-power/run.tgz", "cuda/runs/h100-power-clock/run.tgz"]
    rows = phases(load(args[0]))
    for extra in args[1:]:           # further runs: development phases only, predicted
        rows += [dict(p, set="development") for p in phases(load(extra))]
    single = [p for p in rows if p["a_class"] and not p["b_class"] and p["a_blocks"] == "4"]
    ref = {}
    for cls in CLASS_UNIT:
        ref[cls] = min(float(p["a_task_us_per_sm_round"]) for p in single if p["a_class"] == cls
                       and p["set"] == "calibration")
    ref["MEM132"] = float([p for p in single if p["phase"] == "MEM-132"][0]["a_task_us_per_sm_round"])
    cols = ["const"] + UNITS + ["dram"]
    X, y, names = [], [], []
    for p in rows:
        p["act"] = activity(p, ref)
        if p["set"] != "calibration" or p["clock_mhz"] < NOMINAL_MHZ:
            continue
        X.append([1.0] + [p["act"][u] for u in UNITS] + [p["act"]["dram"]])
        y.append(p["power_w"])
        names.append(p["phase"])
    coef = lstsq(X, y)
    c = dict(zip(cols, coef))
    print("fit on %d calibration phases at the nominal clock (%s)" % (len(y), " ".join(names)))
    for k in cols:
        print("  %-7s %8.3f W%s" % (k, c[k], "" if k in ("const", "dram") else " per fully loaded SM"))
    res = [abs(v - sum(a * b for a, b in zip(r, coef))) for r, v in zip(X, y)]
    print("  residuals W: median |r| %.1f, max |r| %.1f" % (st.median(res), max(res)))

    def predict(p):
        a = p["act"]
        clocked = sum(c[u] * a[u] for u in UNITS)
        return c["const"] + clocked + c["dram"] * a["dram"], clocked

    print("\nphase             set           power  model(nominal)  err%   clock  capped  a_us/round")
    ks = {"calibration": [], "development": []}
    for p in rows:
        P, clocked = predict(p)
        err = 100 * (P - p["power_w"]) / p["power_w"]
        k = ""
        if p["capped"] and p["clock_mhz"] < NOMINAL_MHZ and P > 700:
            f = p["clock_mhz"] / NOMINAL_MHZ
            fixed = P - clocked
            kk = math.log((700 - fixed) / clocked) / math.log(f)
            ks[p["set"]].append(kk)
            k = " k=%.2f" % kk
        print("%-17s %-12s %6.1f  %7.1f        %+6.1f  %5.0f  %-5s  %s%s" % (
            p["phase"], p["set"], p["power_w"], P, err if p["clock_mhz"] >= NOMINAL_MHZ else float("nan"),
            p["clock_mhz"], "yes" if p["capped"] else "no", p["a_task_us_per_sm_round"], k))
    dev = [p for p in rows if p["set"] == "development" and p["clock_mhz"] >= NOMINAL_MHZ]
    errs = [abs(predict(p)[0] - p["power_w"]) / p["power_w"] * 100 for p in dev]
    if errs:
        print("\ndevelopment phases at the nominal clock: median |err| %.1f %%, max %.1f %% (%d phases)"
              % (st.median(errs), max(errs), len(errs)))
    for s in ks:
        if ks[s]:
            print("clock exponent k, %s phases under the cap: %s" % (s, ", ".join("%.2f" % v for v in ks[s])))
    # how a kernel's rate follows the clock: a capped phase against the same kernel at the
    # nominal clock in the phase nearest to it (same class, same neighbour class)
    by = {p["phase"]: p for p in rows}
    for s, a, b in (("calibration", "TC-132", "TC-99"), ("development", "TC-116", "TC-99"),
                    ("development", "TC8-132", "TC-99"), ("development", "CD-16+TC-116", "CD-16+TC-66"),
                    ("development", "TC-16+TC-116", "TC-16+none"), ("development", "MEM-16+TC-116", "MEM-16+none")):
        if a in by and b in by:
            pa, pb = by[a], by[b]
            ratio = float(pa["a_task_us_per_sm_round"]) / float(pb["a_task_us_per_sm_round"])
            if pa["a_blocks"] != pb["a_blocks"]:
                ratio /= int(pa["a_blocks"]) / int(pb["a_blocks"])
            f = pa["clock_mhz"] / pb["clock_mhz"]
            print("rate exponent (%s): %s against %s: time x%.4f at clock x%.3f -> %.3f"
                  % (s, a, b, ratio, f, math.log(1 / ratio) / math.log(f)))
    capped = [p for p in rows if p["capped"] and p["set"] == "calibration"]
    if capped:
        print("least clock sample under the cap (calibration): %.0f MHz" % min(p["clock_min_mhz"] for p in capped))


if __name__ == "__main__":
    main()
