#!/usr/bin/env python3
"""Carries a DNN BE queue captured on one GPU to another, per kernel, from Nsight Compute counters.

    python3 traces/dnn/scale.py [--check] [--table] [--bound lower|upper] [GPUS_JSON [OUTDIR]]

Without --check: rewrites traces/dnn/rtx3090/<model>.json from traces/dnn/<model>.json
(captured on the H100) with every kernel's solo_us carried to the RTX 3090.  With --check:
only validates GPUS_JSON (default traces/dnn/gpus.json), the transform's inputs, and exits 2
with the JSON path of the first figure that is missing, not positive, or inconsistent.
--table prints traces/README.md's table of iteration times (the model beside both bounds and
the published RTX 3090 measurement) and writes nothing.

The shipped model (every input in gpus.json or models/rtx3090.json with its source; the
utilisations measured by Nsight Compute on one training iteration: cuda/runs/h100-dnn-ncu for
ResNet-50 and VGG16, cuda/runs/h100-dnn-ncu-2 for Inception-v3 and DenseNet-121, NCU_RUNS):
  a resource R of GPU G serves a kernel of `grid` blocks at
      thr(G, R, grid) = peak_R(G) * min(grid, SMs(G)) / SMs(G)
  R: the Tensor pipe (FP16 with FP32 accumulate), the FMA pipe (FP32 CUDA cores) and DRAM.  The
  ncu run gives, per kernel, each pipe's active share u_R of the elapsed cycles (averaged over all
  the H100's SMs), the DRAM bytes read and written, the SM clock and duration t_ncu, and the
  H100's blocks per SM.  R's work is W_R = u_R x t_ncu x SMs x per-SM rate x the measured clock
  (DRAM: the bytes); on the RTX 3090 it takes W_R / thr(3090, R, grid); as a share of the
  kernel's H100 time that is m_R = W_R / (thr(3090, R, grid) x t_ncu).  The share of the H100
  time no resource explains, rest = 1 - max_R W_R / (thr(H100, R, grid) x t_ncu), is latency
  bound and scales with the clock and the number of waves of blocks:
      r_lat = (H100 clock / RTX 3090 clock) x waves(3090) / waves(H100),
      waves(G) = ceil(grid / (SMs(G) x blocks per SM on G))
  (the SMQoS rule, traces/smqos/make_profiles.py carry_compute).  The kernel's RTX 3090 time is
      solo_us(H100 queue) x (max_R m_R + rest x r_lat).
  A queue kernel is matched to an ncu row by launch order and (grid, threads)
  (difflib's longest matching blocks), or, between matched launches, by name and threads where
  cuDNN sized a persistent kernel's grid differently in the two runs; a kernel without a match
  (launches that differ between the capture and the ncu run, mostly cuDNN convolutions whose
  tiles cudnn.benchmark chose otherwise and the layout transposes around them) keeps the class
  rule's upper bound below and is counted in the queue's notes and totals.
The class rule (--bound upper|lower; the fallback): the kernel's duration times
      max (upper) or min (lower) over the resources its class uses of thr(H100)/thr(RTX 3090)
  CD kernels use the CUDA cores (FP32) and DRAM; TC kernels the Tensor cores and DRAM.  With
  t = max(work/peak) on each GPU (roofline), max is the upper bound of the RTX 3090 time and min
  its lower bound.  Kernels keep their order, grid, threads, registers and shared memory.
"""
import csv
import difflib
import io
import json
import math
import os
import sys
import tarfile

MODELS = ["resnet50", "vgg16", "densenet121", "inception_v3"]
# the ncu runs, each an archive of ncu*.csv members (one row per kernel, a leading "model" column);
# a model's rows come from one run
NCU_RUNS = ["cuda/runs/h100-dnn-ncu/run.tgz",     # ResNet-50, VGG16
            "cuda/runs/h100-dnn-ncu-2/run.tgz"]   # Inception-v3, DenseNet-121
DST_MODEL = "models/rtx3090.json"
# ncu columns (cuda/runs/h100-dnn-ncu/RUN.md; h100-dnn-ncu-2 has the same)
PIPE_COLS = {"tc": "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed",
             "fp32": "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_elapsed"}
OCC_COLS = ["launch__occupancy_limit_blocks", "launch__occupancy_limit_registers",
            "launch__occupancy_limit_shared_mem", "launch__occupancy_limit_warps"]
# the check against hardware (a test, not an input): traces/README.md names the source
PUBLISHED = {"model": "resnet50", "img_per_s": 1163}
BATCH = 64  # traces/dnn/capture_command.txt
SRC, DST = "h100", "rtx3090"
CLASS_RESOURCES = {"CD": ("fp32", "dram"), "TC": ("tc", "dram")}
# peak field, and (per-SM rate field, clock field) that must reproduce it
PEAKS = {
    "fp32": ("fp32_tflops", "fp32_flops_per_clock_per_sm", "fp32_clock_mhz", 1e-6),
    "tc": ("tc_fp16_fp32acc_tflops", "tc_fp16_fp32acc_flops_per_clock_per_sm", "tensor_clock_mhz", 1e-6),
}
FIELDS = ["sm_count", "fp32_clock_mhz", "tensor_clock_mhz", "fp32_flops_per_clock_per_sm",
          "tc_fp16_fp32acc_flops_per_clock_per_sm", "fp32_tflops", "tc_fp16_fp32acc_tflops",
          "dram_gbps"]


def fail(path, where, expected, got):
    sys.stderr.write(f"{path}: {where}: expected {expected}, got {got!r}\n")
    sys.exit(2)


def load_gpus(path):
    """The transform's inputs, checked: every figure present and positive, sources named,
    each peak equal to SMs x per-SM rate x clock within 1 %."""
    try:
        with open(path) as f:
            root = json.load(f)
    except (OSError, ValueError) as e:
        fail(path, "$", "a readable JSON file", str(e))
    gpus = root.get("gpus") if isinstance(root, dict) else None
    if not isinstance(gpus, dict):
        fail(path, "$.gpus", "an object of GPUs", gpus)
    for name in (SRC, DST):
        g = gpus.get(name)
        if not isinstance(g, dict):
            fail(path, f"$.gpus.{name}", "an object", g)
        src = g.get("sources")
        if not isinstance(src, dict) or not src or not all(isinstance(v, str) and v for v in src.values()):
            fail(path, f"$.gpus.{name}.sources", "an object of non-empty source strings", src)
        for k in FIELDS:
            v = g.get(k)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v <= 0:
                fail(path, f"$.gpus.{name}.{k}", "a positive number", v)
        if not isinstance(g["sm_count"], int):
            fail(path, f"$.gpus.{name}.sm_count", "an integer", g["sm_count"])
        for peak, rate, clock, unit in PEAKS.values():
            derived = g["sm_count"] * g[rate] * g[clock] * unit
            if abs(derived - g[peak]) > 0.01 * g[peak]:
                fail(path, f"$.gpus.{name}.{peak}",
                     f"sm_count x {rate} x {clock} = {derived:.1f} (within 1 %)", g[peak])
    return gpus


def peak(g, res):
    return g["dram_gbps"] if res == "dram" else g[PEAKS[res][0]]


def ratio(gpus, cls, grid, pick=max):
    s, d = gpus[SRC], gpus[DST]
    r = []
    for res in CLASS_RESOURCES[cls]:
        ts = peak(s, res) * min(grid, s["sm_count"]) / s["sm_count"]
        td = peak(d, res) * min(grid, d["sm_count"]) / d["sm_count"]
        r.append(ts / td)
    return pick(r)


def load_ncu(root):
    """The ncu runs' rows (NCU_RUNS), per model in launch order, and the run each model's came from."""
    per, src = {}, {}
    for run in NCU_RUNS:
        path = os.path.join(root, run)
        try:
            with tarfile.open(path) as t:
                members = sorted(m.name for m in t.getmembers()
                                 if os.path.basename(m.name).startswith("ncu") and m.name.endswith(".csv"))
                texts = [(m, t.extractfile(m).read().decode()) for m in members]
        except (OSError, KeyError, tarfile.TarError, AttributeError) as e:
            fail(path, "ncu*.csv", "a readable archive of ncu*.csv members", str(e))
        if not texts:
            fail(path, "ncu*.csv", "at least one ncu*.csv member", [])
        for name, text in texts:
            mine = {}
            for i, r in enumerate(csv.DictReader(io.StringIO(text))):
                where = "%s row %d" % (name, i + 2)
                try:
                    row = {"name": r["Kernel Name"], "grid": int(r["launch__grid_size"]),
                           "threads": int(r["launch__block_size"]),
                           "t_ns": float(r["gpu__time_duration.sum"]), "hz": float(r["sm__cycles_elapsed.avg.per_second"]),
                           "bytes": float(r["dram__bytes_read.sum"]) + float(r["dram__bytes_write.sum"]),
                           "occ": max(1, min(int(float(r[c])) for c in OCC_COLS))}
                    row.update({res: float(r[c]) / 100 for res, c in PIPE_COLS.items()})
                    model = r["model"]
                except (KeyError, ValueError, TypeError) as e:
                    fail(path, where, "a model, numeric launch__grid_size, launch__block_size, duration, "
                         "clock, DRAM bytes, occupancy limits and the two pipe shares", str(e))
                if row["t_ns"] <= 0 or row["hz"] <= 0:
                    fail(path, where, "a positive duration and clock", (row["t_ns"], row["hz"]))
                if model in src and src[model] != run:
                    fail(path, where, "a model no other ncu run has rows of (%s has)" % src[model], model)
                mine.setdefault(model, []).append(row)
            for model, rows in mine.items():
                if model in per and src[model] == run:
                    fail(path, name, "one ncu*.csv member per model", model)
                per[model], src[model] = rows, run
    return per, src


def load_dst_sm(root):
    """The RTX 3090's per-SM limits (models/rtx3090.json, sourced there) for its blocks per SM."""
    path = os.path.join(root, DST_MODEL)
    try:
        with open(path) as f:
            sm = json.load(f)["sm"]
        return {k: sm[k] for k in ("max_threads", "max_blocks", "registers", "reg_alloc_unit", "warp_size",
                                   "smem_compute_kb", "smem_reserved_per_block_b", "smem_alloc_unit_b")}
    except (OSError, ValueError, KeyError, TypeError) as e:
        fail(path, "$.sm", "the SM limits (max_threads, max_blocks, registers, ...)", str(e))


def blocks_per_sm(sm, k):
    """A kernel's resident blocks per SM of the RTX 3090 (threads, registers, shared memory)."""
    warps = -(-k["threads"] // sm["warp_size"])
    lim = [sm["max_blocks"], sm["max_threads"] // (warps * sm["warp_size"])]
    if k.get("regs"):
        per_warp = -(-k["regs"] * sm["warp_size"] // sm["reg_alloc_unit"]) * sm["reg_alloc_unit"]
        lim.append(sm["registers"] // (per_warp * warps))
    if k.get("smem"):
        unit = sm["smem_alloc_unit_b"]
        per_block = -(-(k["smem"] + sm["smem_reserved_per_block_b"]) // unit) * unit
        lim.append(sm["smem_compute_kb"] * 1024 // per_block)
    return max(1, min(lim))


def match(q, rows):
    """Queue index -> ncu row, by launch order and (grid, threads)."""
    a = [(k["grid"], k["threads"]) for k in q["kernels"]]
    b = [(r["grid"], r["threads"]) for r in rows]
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    out = {}
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            out.update({i1 + n: rows[j1 + n] for n in range(i2 - i1)})
        elif op == "replace" and i2 - i1 == j2 - j1:
            # same place between matched launches, another grid (a persistent kernel sized by
            # cuDNN's heuristics): the same kernel if its name and block size agree
            out.update({i1 + n: rows[j1 + n] for n in range(i2 - i1)
                        if q["kernels"][i1 + n]["threads"] == rows[j1 + n]["threads"]
                        and q["kernels"][i1 + n]["name"] in rows[j1 + n]["name"]})
    return out


def measured_factor(gpus, sm, k, r):
    """The kernel's RTX 3090 time over its H100 time from its ncu row r (module docstring)."""
    s, d = gpus[SRC], gpus[DST]
    g, t = k["grid"], r["t_ns"] * 1e-9
    m, busy = [], []
    for res in ("tc", "fp32"):
        rate = s[PEAKS[res][1]]
        work = r[res] * t * s["sm_count"] * rate * r["hz"]            # FLOP
        m.append(work / (peak(d, res) * 1e12 * min(g, d["sm_count"]) / d["sm_count"]) / t)
        busy.append(r[res] * s["sm_count"] / min(g, s["sm_count"]))
    m.append(r["bytes"] / (peak(d, "dram") * 1e9 * min(g, d["sm_count"]) / d["sm_count"]) / t)
    busy.append(r["bytes"] / (peak(s, "dram") * 1e9 * min(g, s["sm_count"]) / s["sm_count"]) / t)
    rest = max(0.0, 1 - max(busy))
    waves = lambda n, occ: math.ceil(g / (n * occ))
    r_lat = (r["hz"] / (d["fp32_clock_mhz"] * 1e6)) * waves(d["sm_count"], blocks_per_sm(sm, k)) / \
        waves(s["sm_count"], r["occ"])
    return max(m) + rest * r_lat


def scale_queue(gpus, q, model, pick=max, factors=None, ncu_run=NCU_RUNS[0]):
    """The queue with each kernel's solo_us carried over: by factors[i] (the measured model) where
    the kernel has one, else by the class rule's ratio (pick max: upper bound, min: lower);
    ncu_run: the ncu run the factors come from, named in the notes."""
    factors = factors or {}
    out = dict(q)
    kernels = []
    tot = {"CD": [0, 0.0], "TC": [0, 0.0]}
    n_meas, h_meas = 0, 0.0
    for i, k in enumerate(q["kernels"]):
        k2 = dict(k)
        if i in factors:
            f = factors[i]
            n_meas += 1
            h_meas += k["solo_us"]
        else:
            f = ratio(gpus, k["class"], k["grid"], pick)
        k2["solo_us"] = round(k["solo_us"] * f, 3)
        tot[k["class"]][0] += 1
        tot[k["class"]][1] += k2["solo_us"]
        kernels.append(k2)
    all_us = tot["CD"][1] + tot["TC"][1]
    s, d = gpus[SRC], gpus[DST]
    out["name"] = model
    out["generator"] = "traces/dnn/scale.py (from traces/dnn/%s.json, traces/dnn/gpus.json, %s and %s)" % (
        model, ncu_run, DST_MODEL)
    out["source"] = "traces/dnn/%s.json" % model
    rule = ("the roofline upper bound max" if pick is max else "the roofline LOWER bound min") + \
        " over the kernel's class resources (CD: CUDA-core FP32 and DRAM; TC: FP16 Tensor cores with FP32 " \
        "accumulate and DRAM) of thr(H100)/thr(RTX 3090), thr = peak x min(grid, SMs)/SMs"
    out["notes"] = (
        "The H100 queue traces/dnn/%s.json with each kernel's solo_us carried to the %s by "
        "traces/dnn/scale.py.  %d of %d kernels (%.1f %% of the H100 time) by their measured "
        "utilisations (%s: Nsight Compute on one training iteration on the H100): the largest of "
        "Tensor-pipe, FMA-pipe and DRAM work over the RTX 3090's throughput for the grid, plus the "
        "share of the time no resource explains scaled by clock and waves of blocks; the others "
        "(no ncu match) by %s.  Inputs (traces/dnn/gpus.json, NVIDIA whitepapers/datasheet): "
        "H100 SXM5 %d SMs, FP32 %.1f TFLOPS, FP16 Tensor %.1f TFLOPS, %d GB/s; RTX 3090 %d SMs, "
        "%d MHz, FP32 %.1f TFLOPS, FP16 Tensor (FP32 accumulate) %.1f TFLOPS, %d GB/s.  Captured "
        "iteration %.1f ms on the H100, %.1f ms here (traces/README.md: the bounds and a check "
        "against a published RTX 3090 measurement).  Order, grid, threads, registers and shared "
        "memory are the H100 queue's." % (
            model, d["name"], n_meas, len(kernels), 100 * h_meas / q["totals"]["solo_us"], ncu_run, rule,
            s["sm_count"], s["fp32_tflops"], s["tc_fp16_fp32acc_tflops"], s["dram_gbps"], d["sm_count"],
            d["fp32_clock_mhz"], d["fp32_tflops"], d["tc_fp16_fp32acc_tflops"], d["dram_gbps"],
            q["totals"]["solo_us"] / 1000, all_us / 1000))
    out["kernels"] = kernels
    totals = {"kernels": len(kernels), "solo_us": round(all_us, 3)}
    for c in ("CD", "TC"):
        totals[c] = {"kernels": tot[c][0], "solo_us": round(tot[c][1], 3),
                     "share": round(tot[c][1] / all_us, 4) if all_us else 0}
    totals["measured"] = {"kernels": n_meas, "h100_share": round(h_meas / q["totals"]["solo_us"], 4)}
    if "shrunk_to_fit" in q.get("totals", {}):
        totals["shrunk_to_fit"] = q["totals"]["shrunk_to_fit"]
    out["totals"] = totals
    return out


def dump(q):
    """The importer's layout: header fields, one kernel per line, totals."""
    lines = ["{"]
    for k, v in q.items():
        if k in ("kernels", "totals"):
            continue
        lines.append("  %s: %s," % (json.dumps(k), json.dumps(v)))
    lines.append('  "kernels": [')
    ks = q["kernels"]
    for i, k in enumerate(ks):
        body = ", ".join("%s: %s" % (json.dumps(a), ("%.3f" % b) if a == "solo_us" else json.dumps(b))
                         for a, b in k.items())
        lines.append("    { %s }%s" % (body, "," if i + 1 < len(ks) else ""))
    lines.append("  ],")
    lines.append('  "totals": %s' % json.dumps(q["totals"]))
    lines.append("}")
    return "\n".join(lines) + "\n"


def model_factors(gpus, sm, q, rows):
    return {i: measured_factor(gpus, sm, q["kernels"][i], r) for i, r in match(q, rows).items()}


def table(root, here, gpus):
    """traces/README.md's table: per model the H100 iteration, the model, both bounds."""
    (ncu, src), sm = load_ncu(root), load_dst_sm(root)
    lines = ["| model | H100 (ms / iteration) | RTX 3090, measured model (shipped) | kernels by ncu "
             "(share of H100 time) | upper bound | lower bound | TC share shipped |",
             "|---|---|---|---|---|---|---|"]
    check = None
    for m in MODELS:
        with open(os.path.join(here, m + ".json")) as f:
            q = json.load(f)
        out = scale_queue(gpus, q, m, max, model_factors(gpus, sm, q, ncu.get(m, [])),
                          src.get(m, NCU_RUNS[0]))
        up = scale_queue(gpus, q, m, max)["totals"]["solo_us"] / 1000
        lo = scale_queue(gpus, q, m, min)["totals"]["solo_us"] / 1000
        ms = out["totals"]["solo_us"] / 1000
        ips = lambda t: " (%s img/s)" % format(round(BATCH * 1000 / t), ",").replace(",", " ") \
            if m == PUBLISHED["model"] else ""
        meas = out["totals"]["measured"]
        lines.append("| %s | %.1f | %.1f%s | %d of %d (%.1f %%) | %.1f%s | %.1f%s | %.1f %% |" % (
            m, q["totals"]["solo_us"] / 1000, ms, ips(ms), meas["kernels"], len(q["kernels"]),
            100 * meas["h100_share"], up, ips(up), lo, ips(lo), 100 * out["totals"]["TC"]["share"]))
        if m == PUBLISHED["model"]:
            check = (BATCH * 1000 / ms, BATCH * 1000 / up, BATCH * 1000 / lo)
    lines.append("")
    lines.append("Check (not an input): %s at %.0f img/s against the published %d img/s (%+.0f %%); "
                 "bounds %.0f-%.0f img/s." % (PUBLISHED["model"], check[0], PUBLISHED["img_per_s"],
                                             100 * (check[0] / PUBLISHED["img_per_s"] - 1), check[1], check[2]))
    return "\n".join(lines) + "\n"


def main(argv):
    check = "--check" in argv
    want_table = "--table" in argv
    bound = "--bound" in argv
    pick = max
    if "--bound" in argv:
        i = argv.index("--bound")
        if i + 1 >= len(argv) or argv[i + 1] not in ("lower", "upper"):
            sys.stderr.write("scale.py: --bound: expected lower or upper\n")
            return 2
        pick = min if argv[i + 1] == "lower" else max
        argv = argv[:i] + argv[i + 2:]
    args = [a for a in argv if a not in ("--check", "--table")]
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    gpath = args[0] if args else os.path.join(here, "gpus.json")
    gpus = load_gpus(gpath)
    if check:
        return 0
    if want_table:
        sys.stdout.write(table(root, here, gpus))
        return 0
    ncu, src = ({}, {}) if bound else load_ncu(root)
    sm = None if bound else load_dst_sm(root)
    outdir = args[1] if len(args) > 1 else os.path.join(here, DST)
    os.makedirs(outdir, exist_ok=True)
    for m in MODELS:
        with open(os.path.join(here, m + ".json")) as f:
            q = json.load(f)
        out = scale_queue(gpus, q, m, pick, None if bound else model_factors(gpus, sm, q, ncu.get(m, [])),
                          src.get(m, NCU_RUNS[0]))
        text = dump(out)
        tmp = os.path.join(outdir, m + ".json.tmp")
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, os.path.join(outdir, m + ".json"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
