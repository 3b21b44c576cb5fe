#!/usr/bin/env python3
"""Fits a GPU description's "power" (linear model) and "power_cap" (clock under the cap) to a
`combosim-cuda bench power` run with nvidia-smi sampling beside it (cuda/scripts/device_power.sh);
models/h100.json's were fitted to cuda/runs/h100-power.  The GPU's figures come from its
description (--gpu): sm_count, clock_mhz (the nominal clock), dram_saturation.knee and
class_defaults.MEM.dram (its DRAM curve), sm.units and rt_emulation_unit (which unit RT work loads).

Each phase of power_phases.csv is matched to the nvidia-smi samples inside it (from 0.8 s after
its start, the power reading's ramp, to its end): median power.draw, clocks.sm and power.limit.
A phase's activity is what the simulator integrates for the power model (models/power.h): per
unit, the SMs it keeps busy, each at its load = the class's demand (1 on its unit:
models/kernel.c kclass_default_demand; RT without RT cores on rt_emulation_unit, the H100's lsu)
times the kernel's measured speed (its fastest task time in the run over this phase's, per block:
the 8-block phases' blocks share an SM's units); for MEM the DRAM bandwidth in use as the
simulator integrates it, L / S(L) at its chip demand L = dram n / sm_count and the GPU's DRAM
curve S (models/gpu.c gpu_dram_slowdown; for the H100 dram 2.14 and knee 2.3, fitted to
cuda/runs/h100-bench-2's scaling: the MEM task times of this run do not measure bandwidth).
Least squares (normal equations, Gauss-Jordan in plain Python: no numpy here) of

  P = P0 + cuda_w * cuda_sms + tensor_w * tensor_sms + lsu_w * lsu_sms + dram_w * dram_share

on the calibration phases at the nominal clock (those whose median clock is the description's
clock_mhz); development phases are only predicted.  sm_active_w is not separable (every busy SM
of these kernels loads exactly one unit fully: it would be collinear with the unit terms) and is
left 0; P0 is the chip with no block resident at full clock (const_w + sm_count * sm_static_w:
the split needs SM power gating, which the H100 does not expose).

The rate: a capped phase's kernel time against the same kernel's at the nominal clock in the
nearest phase gives the exponent r of rate ~ f^r (calibration on the H100: TC-132 against TC-99).

The cap: phases whose samples show the SW power cap (clocks_event_reasons bit 0x4) run at a
clock f below nominal while drawing the cap (nvidia-smi power.limit); with the fitted model's
power at the nominal clock P = fixed + clocked (clocked: the unit terms), fixed + clocked * f^k =
cap gives k per phase; the calibration phases' k is the exponent (their median if several), and
their least clock sample min_clock_mhz.  A run with no calibration phase above the cap gives
neither (nor a rate exponent without a calibration phase below the nominal clock).

A pair's kernels start together; the shorter one's activity counts for its share of the
group's time (the phase's power averages both parts).

Usage: python3 cuda/scripts/fit_power.py [--gpu MODEL.json] [--run RUN] [--dev RUN]... [--json]
  --gpu   the GPU description (default models/h100.json)
  --run   the calibration run: a directory holding run.tgz, or the unpacked r/ (bench/
          power_phases.csv, smi.csv, smi2.csv, ...), or a tgz (default cuda/runs/h100-power)
  --dev   a further run whose phases are all development, only predicted (repeatable; without
          --run and --dev: cuda/runs/h100-power-clock)
  --json  print only {"values": {"power": {...}, "power_cap": {...}}, "source": "..."} on stdout
The older form fit_power.py [CALIBRATION_RUN [DEVELOPMENT_RUN...]] still works.
"""
import argparse
import csv
import datetime
import io
import json
import math
import os
import statistics as st
import sys
import tarfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from runtar import run_tar  # noqa: E402


UNIT_ORDER = ["rt", "cuda", "tensor", "lsu"]     # models/gpu.h's units, in the fit's column order
WANTED = ("power_phases.csv", "smi.csv", "smi2.csv", "nvidia-smi-before.txt")


class Gpu:
    """the figures of a GPU description the fit reads (models/gpu.c's defaults where absent)"""

    def __init__(self, path):
        with open(path) as f:
            d = json.load(f)
        self.path = path
        self.sms = int(d["sm_count"])
        self.nominal_mhz = float(d["clock_mhz"])
        units = d.get("sm", {}).get("units", {"cuda": 1, "tensor": 1, "lsu": 1})
        self.units = [u for u in UNIT_ORDER if units.get(u, 0) > 0]
        self.rt_unit = "rt" if units.get("rt", 0) > 0 else d.get("rt_emulation_unit", "cuda")
        self.mem_dram = float(d.get("class_defaults", {}).get("MEM", {}).get("dram", 1.0))
        knee = d.get("dram_saturation", {}).get("knee")
        self.knee = float(knee) if knee is not None else None
        self.class_unit = {"CD": "cuda", "TC": "tensor", "RT": self.rt_unit, "MEM": "lsu"}
        for cls, u in self.class_unit.items():
            if u not in self.units:
                sys.exit("fit_power.py: %s: class %s loads %s, which sm.units lacks" % (path, cls, u))

    def slowdown(self, L):
        """models/gpu.c gpu_dram_slowdown with this GPU's knee (a hard max(1, L) without one)"""
        if self.knee is None:
            return max(1.0, L)
        return (1 + L ** self.knee) ** (1 / self.knee)

    def describe(self):
        return "%d SMs, MEM dram %g, %s, RT on %s" % (
            self.sms, self.mem_dram, "DRAM knee %g" % self.knee if self.knee is not None else "hard max(1, L)",
            self.rt_unit)


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
    """the run's files by name: from a tgz, a directory holding run.tgz, or an unpacked directory"""
    if os.path.isdir(path) and run_tar(path):
        path = run_tar(path)
    files = {}

    def put(name, read):
        if name in files:
            sys.exit("fit_power.py: %s holds more than one %s: name the run's own directory" % (path, name))
        files[name] = read().decode()
    if os.path.isdir(path):
        for root, _, names in sorted(os.walk(path)):
            for n in names:
                if n in WANTED:
                    with open(os.path.join(root, n), "rb") as f:
                        put(n, f.read)
    elif os.path.isfile(path):
        with tarfile.open(path) as t:
            for m in t.getmembers():
                n = os.path.basename(m.name)
                if m.isfile() and n in WANTED:
                    put(n, t.extractfile(m).read)
    else:
        sys.exit("fit_power.py: no run at %s" % path)
    for n in ("power_phases.csv", "smi.csv"):
        if n not in files:
            sys.exit("fit_power.py: %s has no %s" % (path, n))
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
        if not a:
            sys.exit("fit_power.py: no smi.csv sample inside phase %s" % p["phase"])
        p["power_w"] = st.median(float(x[1]) for x in a)
        p["clock_mhz"] = st.median(float(x[2]) for x in a)
        p["clock_min_mhz"] = min(float(x[2]) for x in a)
        p["limit_w"] = st.median(float(x[4]) for x in a)
        p["temp_c"] = st.median(float(x[5]) for x in a)
        p["capped"] = any(int(x[4], 16) & 0x4 for x in b)
        p["samples"] = len(a)
    return rows


def activity(p, ref, gpu):
    """unit SM-loads and DRAM share of a phase (kernel a, and b beside it if any)"""
    act = {u: 0.0 for u in gpu.units}
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
        act[gpu.class_unit[cls]] += n * speed * share
        if cls == "MEM":
            act["dram_load"] += gpu.mem_dram * n / gpu.sms * share
    L = act.pop("dram_load")
    act["dram"] = L / gpu.slowdown(L) if L > 0 else 0.0
    return act


def rate_pairs(rows, nominal):
    """(set, capped phase, reference phase) for the rate exponent: each single-kernel calibration
    phase below the nominal clock against the calibration phase of the same kernel (class,
    blocks) at the nominal clock nearest to it in SMs (the larger on a tie); then the H100
    runs' development pairs (same class, same neighbour class)"""
    out = []
    single = [p for p in rows if p["set"] == "calibration" and p["a_class"] and not p["b_class"]]
    for pa in single:
        if pa["clock_mhz"] >= nominal:
            continue
        refs = [p for p in single if p["clock_mhz"] >= nominal and p["a_class"] == pa["a_class"]
                and p["a_blocks"] == pa["a_blocks"]]
        if refs:
            pb = min(refs, key=lambda p: (abs(int(p["a_sms"]) - int(pa["a_sms"])), -int(p["a_sms"])))
            out.append(("calibration", pa["phase"], pb["phase"]))
    out += [("development", "TC-116", "TC-99"), ("development", "TC8-132", "TC-99"),
            ("development", "CD-16+TC-116", "CD-16+TC-66"), ("development", "TC-16+TC-116", "TC-16+none"),
            ("development", "MEM-16+TC-116", "MEM-16+none")]
    return out


def parse_args():
    ap = argparse.ArgumentParser(description="fits a GPU description's power and power_cap to a bench power run")
    ap.add_argument("--gpu", default="models/h100.json")
    ap.add_argument("--run")
    ap.add_argument("--dev", action="append", default=[])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("runs", nargs="*", help="older form: CALIBRATION_RUN [DEVELOPMENT_RUN...]")
    a = ap.parse_args()
    runs = list(a.runs)
    if a.run is None:
        if runs:
            a.run = runs.pop(0)
        else:
            a.run = "cuda/runs/h100-power"
            if not a.dev:
                a.dev = ["cuda/runs/h100-power-clock"]
    a.dev = runs + a.dev
    return a


def main():
    args = parse_args()
    gpu = Gpu(args.gpu)
    nominal = gpu.nominal_mhz
    UNITS = gpu.units
    out = io.StringIO() if args.json else sys.stdout

    def say(*a, **k):
        print(*a, file=out, **k)
    rows = phases(load(args.run))
    for extra in args.dev:           # further runs: development phases only, predicted
        rows += [dict(p, set="development") for p in phases(load(extra))]
    single = [p for p in rows if p["a_class"] and not p["b_class"] and p["a_blocks"] == "4"]
    ref = {}
    for cls in gpu.class_unit:
        t = [float(p["a_task_us_per_sm_round"]) for p in single if p["a_class"] == cls and p["set"] == "calibration"]
        if t:
            ref[cls] = min(t)
    cols = ["const"] + UNITS + ["dram"]
    X, y, names = [], [], []
    for p in rows:
        p["act"] = activity(p, ref, gpu)
        if p["set"] != "calibration" or p["clock_mhz"] < nominal:
            continue
        X.append([1.0] + [p["act"][u] for u in UNITS] + [p["act"]["dram"]])
        y.append(p["power_w"])
        names.append(p["phase"])
    if len(y) < len(cols):
        sys.exit("fit_power.py: %d calibration phases at the nominal clock %.0f MHz (%s clock_mhz), %d needed; "
                 "the run's calibration clocks: %s" % (len(y), nominal, gpu.path, len(cols), " ".join(
                     "%s %.0f" % (p["phase"], p["clock_mhz"]) for p in rows if p["set"] == "calibration")))
    coef = lstsq(X, y)
    c = dict(zip(cols, coef))
    say("fit on %d calibration phases at the nominal clock (%s)" % (len(y), " ".join(names)))
    for k in cols:
        say("  %-7s %8.3f W%s" % (k, c[k], "" if k in ("const", "dram") else " per fully loaded SM"))
    res = [abs(v - sum(a * b for a, b in zip(r, coef))) for r, v in zip(X, y)]
    say("  residuals W: median |r| %.1f, max |r| %.1f" % (st.median(res), max(res)))
    worst = names[res.index(max(res))]

    def predict(p):
        a = p["act"]
        clocked = sum(c[u] * a[u] for u in UNITS)
        return c["const"] + clocked + c["dram"] * a["dram"], clocked

    say("\nphase             set           power  model(nominal)  err%   clock  capped  a_us/round")
    ks = {"calibration": [], "development": []}
    kphases = []                     # calibration phases above the cap: (phase, P, fixed, clocked, k)
    for p in rows:
        P, clocked = predict(p)
        err = 100 * (P - p["power_w"]) / p["power_w"]
        k = ""
        cap = p["limit_w"]
        if p["capped"] and p["clock_mhz"] < nominal and P > cap:
            f = p["clock_mhz"] / nominal
            fixed = P - clocked
            kk = math.log((cap - fixed) / clocked) / math.log(f)
            ks[p["set"]].append(kk)
            if p["set"] == "calibration":
                kphases.append((p, P, fixed, clocked, kk))
            k = " k=%.2f" % kk
        say("%-17s %-12s %6.1f  %7.1f        %+6.1f  %5.0f  %-5s  %s%s" % (
            p["phase"], p["set"], p["power_w"], P, err if p["clock_mhz"] >= nominal else float("nan"),
            p["clock_mhz"], "yes" if p["capped"] else "no", p["a_task_us_per_sm_round"], k))
    dev = [p for p in rows if p["set"] == "development" and p["clock_mhz"] >= nominal]
    errs = [abs(predict(p)[0] - p["power_w"]) / p["power_w"] * 100 for p in dev]
    if errs:
        say("\ndevelopment phases at the nominal clock: median |err| %.1f %%, max %.1f %% (%d phases)"
            % (st.median(errs), max(errs), len(errs)))
    for s in ks:
        if ks[s]:
            say("clock exponent k, %s phases under the cap: %s" % (s, ", ".join("%.2f" % v for v in ks[s])))
    # how a kernel's rate follows the clock: a capped phase against the same kernel at the
    # nominal clock in the phase nearest to it (same class, same neighbour class)
    by = {p["phase"]: p for p in rows}
    rates, unused = [], []           # calibration: (a, b, time ratio, clock ratio, r)
    kset = {kp[0]["phase"] for kp in kphases}
    for s, a, b in rate_pairs(rows, nominal):
        if a in by and b in by:
            pa, pb = by[a], by[b]
            ratio = float(pa["a_task_us_per_sm_round"]) / float(pb["a_task_us_per_sm_round"])
            if pa["a_blocks"] != pb["a_blocks"]:
                ratio /= int(pa["a_blocks"]) / int(pb["a_blocks"])
            f = pa["clock_mhz"] / pb["clock_mhz"]
            if f >= 1:
                say("rate exponent (%s): %s against %s: time x%.4f at clock x%.3f -> none (clock not lower)"
                    % (s, a, b, ratio, f))
                continue
            r = math.log(1 / ratio) / math.log(f)
            note = ""
            if s == "calibration":   # the exponent's phases above the cap give the rate exponent
                (rates if a in kset else unused).append((a, b, ratio, f, r))
                note = "" if a in kset else " (not above the cap: not used)"
            say("rate exponent (%s): %s against %s: time x%.4f at clock x%.3f -> %.3f%s" % (s, a, b, ratio, f, r, note))
    if kphases:
        say("least clock sample under the cap (calibration): %.0f MHz" % min(kp[0]["clock_min_mhz"] for kp in kphases))
    else:
        say("no calibration phase above the cap: no clock exponent, no min_clock_mhz")
    if not args.json:
        return

    # --json: the description's values and one source text
    lim = [p["limit_w"] for p in rows if p["set"] == "calibration"]
    watts = st.median(lim)
    power = {"model": "linear", "const_w": round(c["const"], 1), "sm_static_w": 0,
             "unit_w": {u: round(c[u], 3) for u in UNITS}, "dram_w": round(c["dram"], 1)}
    cap = {"watts": int(watts) if watts == int(watts) else round(watts, 1)}
    run = args.run.rstrip("/")
    s1 = ("cuda/scripts/fit_power.py --gpu %s (%s, nominal clock %.0f MHz) on %s (calibration phases; nvidia-smi "
          "power.draw medians at 50 ms from 0.8 s into each phase): power fitted at the nominal clock to %d "
          "calibration phases (%s); residuals median %.1f W, max %.1f W (%s)"
          % (gpu.path, gpu.describe(), nominal, run, len(y), " ".join(names), st.median(res), max(res), worst))
    if errs:
        worst_dev = dev[errs.index(max(errs))]["phase"]
        s1 += ("; development phases at the nominal clock (%s): median |err| %.1f %%, max %.1f %% (%s), %d phases"
               % (", ".join([run] + args.dev), st.median(errs), max(errs), worst_dev, len(errs)))
    s1 += ("; idle phases %s W measured" % "/".join("%.1f" % p["power_w"] for p in rows
                                                 if p["set"] == "calibration" and not p["a_class"]))
    neg = [k for k in cols if c[k] < 0]
    if neg:
        s1 += "; NEGATIVE coefficients (the model refuses them): %s" % ", ".join(neg)
    s1 += "."
    s2 = "power_cap: watts: nvidia-smi power.limit %g W (smi.csv%s)" % (
        watts, "" if min(lim) == max(lim) else ", varying %g-%g W over the phases" % (min(lim), max(lim)))
    if kphases:
        kk = st.median(kp[4] for kp in kphases)
        cap["exponent"] = round(kk, 2)
        cap["min_clock_mhz"] = int(round(min(kp[0]["clock_min_mhz"] for kp in kphases)))
        s2 += "; exponent: %s above the cap: %s%s; min_clock_mhz: the least clocks.sm sample of %s, %d MHz" % (
            "the calibration phase" if len(kphases) == 1 else "the median k of the %d calibration phases" % len(kphases),
            "; ".join("%s (modelled %.1f W at %.0f MHz) drew %.1f W at a median clocks.sm of %.0f MHz with the SW power "
                      "cap: %.1f + %.1f x (%.0f/%.0f)^k = %g gives k = %.2f" % (
                          p["phase"], P, nominal, p["power_w"], p["clock_mhz"], fixed, clocked, p["clock_mhz"],
                          nominal, p["limit_w"], k) for p, P, fixed, clocked, k in kphases),
            " (median %.2f)" % kk if len(kphases) > 1 else "",
            "it" if len(kphases) == 1 else "them", cap["min_clock_mhz"])
        if ks["development"]:
            s2 += " (development phases under the cap: k %.2f-%.2f)" % (min(ks["development"]), max(ks["development"]))
    else:
        capped = [p["phase"] for p in rows if p["set"] == "calibration" and p["capped"]]
        top = max((p for p in rows if p["set"] == "calibration"), key=lambda p: predict(p)[0])
        s2 += ("; exponent and min_clock_mhz not fitted (left out): no calibration phase modelled above the cap ran "
               "below the nominal clock (the highest modelled at %.0f MHz: %s, %.1f W; it drew %.1f W at a median "
               "clocks.sm of %.0f MHz, least %.0f; SW power cap flagged in %s)"
               % (nominal, top["phase"], predict(top)[0], top["power_w"], top["clock_mhz"], top["clock_min_mhz"],
                  " ".join(capped) if capped else "no calibration phase"))
    if rates:
        rr = st.median(r[4] for r in rates)
        cap["rate_exponent"] = round(rr, 3)
        s2 += "; rate_exponent (rate ~ f^r): %s%s" % ("; ".join(
            "%s against %s: time x%.4f at clock x%.3f gives r = %.3f" % r for r in rates),
            " (median %.3f)" % rr if len(rates) > 1 else "")
    else:
        s2 += "; rate_exponent not fitted (left out): no calibration phase above the cap"
        for a, b, ratio, f, r in unused:
            pa = by[a]
            same = [float(p["a_task_us_per_sm_round"]) for p in rows if p["set"] == "calibration" and not p["b_class"]
                    and p["a_class"] == pa["a_class"] and p["a_blocks"] == pa["a_blocks"] and p["clock_mhz"] >= nominal]
            s2 += (" (%s against %s: time x%.4f at clock x%.3f would give r = %.2f, from a %.1f %% clock dip against a "
                   "%.1f %% spread of the %s phases' times at the nominal clock)"
                   % (a, b, ratio, f, r, 100 * (1 - f), 100 * (max(same) / min(same) - 1), pa["a_class"]))
    s2 += "."
    print(json.dumps({"values": {"power": power, "power_cap": cap}, "source": s1 + "\n" + s2}))


if __name__ == "__main__":
    main()
