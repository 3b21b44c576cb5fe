#!/usr/bin/env python3
"""Carries a DNN BE queue captured on one GPU to another by a per-class roofline model.

    python3 traces/dnn/scale.py [--check] [--bound lower] [GPUS_JSON [OUTDIR]]

Without --check: rewrites traces/dnn/rtx3090/<model>.json from traces/dnn/<model>.json
(captured on the H100) with every kernel's solo_us scaled to the RTX 3090.  With --check:
only validates GPUS_JSON (default traces/dnn/gpus.json), the transform's inputs, and exits 2
with the JSON path of the first figure that is missing, not positive, or inconsistent.

The model (one formula, every input in gpus.json with its source):
  a resource R of GPU G serves a kernel of `grid` blocks at
      thr(G, R, grid) = peak_R(G) * min(grid, SMs(G)) / SMs(G)
  (a grid smaller than the GPU uses only grid SMs, and gets their share of R); the kernel's
  duration on the target is its captured duration times
      ratio = max over the resources its class uses of thr(src, R, grid) / thr(dst, R, grid)
  CD kernels use the CUDA cores (FP32) and DRAM; TC kernels the Tensor cores (FP16 with FP32
  accumulate: the AMP capture's GEMMs) and DRAM.  With t = max(work/peak) on each GPU
  (roofline), the captured time bounds every term, so the ratio is the roofline's upper bound:
  exact for a kernel bound on the source by the resource the target loses most of, long for
  one bound by another.  Kernels keep their order, grid, threads, registers and shared memory.
--bound lower takes the minimum over the class's resources instead (the roofline's lower bound:
every kernel bound by the resource the target loses least of), for a sensitivity check; the
shipped queues are the upper bound.
"""
import json
import os
import sys

MODELS = ["resnet50", "vgg16", "densenet121", "inception_v3"]
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


def scale_queue(gpus, q, model, pick=max):
    out = dict(q)
    kernels = []
    tot = {"CD": [0, 0.0], "TC": [0, 0.0]}
    for k in q["kernels"]:
        k2 = dict(k)
        k2["solo_us"] = round(k["solo_us"] * ratio(gpus, k["class"], k["grid"], pick), 3)
        tot[k["class"]][0] += 1
        tot[k["class"]][1] += k2["solo_us"]
        kernels.append(k2)
    all_us = tot["CD"][1] + tot["TC"][1]
    s, d = gpus[SRC], gpus[DST]
    out["name"] = model
    out["generator"] = "traces/dnn/scale.py (from traces/dnn/%s.json and traces/dnn/gpus.json)" % model
    out["source"] = "traces/dnn/%s.json" % model
    out["notes"] = (
        "The H100 queue traces/dnn/%s.json with each kernel's solo_us carried to the %s by "
        "traces/dnn/scale.py: times the roofline upper bound max over the kernel's class "
        "resources (CD: CUDA-core FP32 and DRAM; TC: FP16 Tensor cores with FP32 accumulate and "
        "DRAM) of thr(H100)/thr(RTX 3090), thr = peak x min(grid, SMs)/SMs.  Inputs "
        "(traces/dnn/gpus.json, NVIDIA whitepapers/datasheet): H100 SXM5 %d SMs, FP32 %.1f TFLOPS, "
        "FP16 Tensor %.1f TFLOPS, %d GB/s; RTX 3090 %d SMs, FP32 %.1f TFLOPS, FP16 Tensor (FP32 "
        "accumulate) %.1f TFLOPS, %d GB/s.  Whole-GPU ratios: CD %.2f, TC %.2f.  Captured "
        "iteration %.1f ms on the H100, %.1f ms here.  An upper bound: a kernel not bound on the "
        "H100 by the resource the RTX 3090 loses most of is made too long (see traces/README.md "
        "for the check against a published RTX 3090 measurement).  Order, grid, threads, "
        "registers and shared memory are the H100 queue's." % (
            model, d["name"], s["sm_count"], s["fp32_tflops"], s["tc_fp16_fp32acc_tflops"],
            s["dram_gbps"], d["sm_count"], d["fp32_tflops"], d["tc_fp16_fp32acc_tflops"],
            d["dram_gbps"], ratio(gpus, "CD", 1 << 30), ratio(gpus, "TC", 1 << 30),
            q["totals"]["solo_us"] / 1000, all_us / 1000))
    out["kernels"] = kernels
    totals = {"kernels": len(kernels), "solo_us": round(all_us, 3)}
    for c in ("CD", "TC"):
        totals[c] = {"kernels": tot[c][0], "solo_us": round(tot[c][1], 3),
                     "share": round(tot[c][1] / all_us, 4) if all_us else 0}
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


def main(argv):
    check = "--check" in argv
    pick = max
    if "--bound" in argv:
        i = argv.index("--bound")
        if i + 1 >= len(argv) or argv[i + 1] not in ("lower", "upper"):
            sys.stderr.write("scale.py: --bound: expected lower or upper\n")
            return 2
        pick = min if argv[i + 1] == "lower" else max
        argv = argv[:i] + argv[i + 2:]
    args = [a for a in argv if a != "--check"]
    here = os.path.dirname(os.path.abspath(__file__))
    gpath = args[0] if args else os.path.join(here, "gpus.json")
    gpus = load_gpus(gpath)
    if check:
        return 0
    outdir = args[1] if len(args) > 1 else os.path.join(here, DST)
    os.makedirs(outdir, exist_ok=True)
    for m in MODELS:
        with open(os.path.join(here, m + ".json")) as f:
            q = json.load(f)
        out = scale_queue(gpus, q, m, pick)
        if pick is min:
            out["notes"] = out["notes"].replace("times the roofline upper bound max", "times the roofline LOWER bound min")
        text = dump(out)
        tmp = os.path.join(outdir, m + ".json.tmp")
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, os.path.join(outdir, m + ".json"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
