#!/usr/bin/env python3
"""Writes the G-Space Table 2 BE profiles (traces/gspace/{h100,titanv}/*.json) and
traces/gspace/measured.tsv.  Ten benchmarks come from Nsight Compute on the H100:
cuda/runs/h100-gspace-kernels/raw/ncu.csv (CFD, MD, MM, NN, BP, SC, SPMV) and the SMQoS run's
cuda/runs/h100-smqos-kernels/raw/ncu.csv (LBM, HOTSPOT, PF: the same Parboil / Rodinia 3.1
sources and inputs).  The H100 numbers follow traces/smqos/make_profiles.py's rules (its
functions are reused); the TITAN V ones (models/titanv.json, the paper's GPU) come from them by
the same roofline transform as its GPGPU-Sim profiles (an assumption; traces/smqos/make_profiles.py
carry_compute: issuing share with SMs x lanes x clock, latency rest with clock x waves, DRAM
with bandwidth).  CC, whose Graphie build [15] is not public, is ECL-CC (Jaiganesh and Burtscher, HPDC 2018;
HeCBench src/cc-cuda) measured the same way (cuda/runs/h100-gspace-cc): its compute1 kernel,
the pass's time nearly whole.  TC and CN have no public source of the paper's versions: their
TITAN V profiles are assumptions, listed in ASSUMED with what each number stands for.
Run from the repository root: python3 traces/gspace/make_profiles.py"""
import importlib.util
import json
import math
import os

spec = importlib.util.spec_from_file_location("smqos_profiles", "traces/smqos/make_profiles.py")
sp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sp)

RAW = "cuda/runs/h100-gspace-kernels/raw/ncu.csv"
RAW_SMQOS = "cuda/runs/h100-smqos-kernels/raw/ncu.csv"
RAW_CC = "cuda/runs/h100-gspace-cc/raw/ncu.csv"
HECBENCH = "zjin-lcf/HeCBench@f27000a5 src/cc-cuda/main.cu (ECL-CC v1.1)"
# kernels whose grid is the GPU's full wave (SMs x resident blocks) with grid-stride loops: on
# another GPU the grid follows its SMs, and each thread's share of the work grows by the ratio
# of resident blocks (carried in titanv())
GRID_STRIDE = {"compute1"}
OUT = "traces/gspace"
# models/titanv.json: 80 SMs of 64 FP32 lanes at 1455 MHz, 652.8 GB/s, hard max(1, L) (no
# knee); cc 7.0 limits: 2048 threads, 32 blocks, 64K registers (unit 256 a warp), 96 KB shared
# memory (unit 256 B)
TITANV = dict(sms=80, lanes=64, mhz=1455, gbps=652.8, knee=None, threads=2048, blocks=32,
              regs=65536, reg_unit=256, smem=96 * 1024, smem_unit=256)
MIRROR = "gpgpu-sim/gpgpu-sim_simulations@96c5ec95 benchmarks/src/cuda/"

# G-Space Table 2: slug, name, suite, role, the kernel profiled, its source, its input, ncu file
BENCH = [
    ("cfd", "CFD", "Rodinia", "BE", "cuda_compute_flux", "rodinia/3.1/cuda/cfd/euler3d.cu",
     "fvcorr.domn.097K size (97152 elements), synthetic mesh (assumption; cuda/runs/h100-gspace-kernels/drivers/cfd.cu)", RAW),
    ("md", "MD", "SHOC", "BE", "compute_lj_force", "shoc-master/src/cuda/level1/md/MD.cu",
     "size class 4: 73728 atoms, 128 neighbours (class: assumption)", RAW),
    ("mm", "MM", "CUDA SDK", "BE", "matrixMul", "sdk/4.2/matrixMul/matrixMul_kernel.cu",
     "1280 x 1920 by 1280 x 1280 (the SDK's sizes x 10: assumption)", RAW),
    ("nn", "NN", "Rodinia", "BE", "euclid", "rodinia/3.1/cuda/nn/nn_cuda.cu",
     "filelist_4, 42764 records (count and values: assumption)", RAW),
    ("bp", "BP", "Rodinia", "LC", "bpnn_layerforward_CUDA", "rodinia/3.1/cuda/backprop/backprop_cuda_kernel.cu",
     "65536 input units (run script)", RAW),
    ("lbm", "LBM", "Parboil (Table 2 says Rodinia)", "LC", "performStreamCollide_kernel",
     "parboil/benchmarks/lbm/src/cuda/lbm_kernel.cu", "120 x 120 x 150 (SMQoS run)", RAW_SMQOS),
    ("hotspot", "HOTSPOT", "Rodinia", "LC", "calculate_temp", "rodinia/3.1/cuda/hotspot/hotspot.cu",
     "512 2 2 (SMQoS run)", RAW_SMQOS),
    ("pf", "PF", "Rodinia", "LC", "dynproc_kernel", "rodinia/3.1/cuda/pathfinder/pathfinder.cu",
     "100000 100 20 (SMQoS run)", RAW_SMQOS),
    ("sc", "SC", "Rodinia", "LC", "kernel_compute_cost", "rodinia/3.1/cuda/streamcluster/streamcluster_cuda.cu",
     "10 20 256 65536 65536 1000 (run script)", RAW),
    ("spmv", "SPMV", "SHOC", "LC", "spmv_csr_vector_kernel", "shoc-master/src/cuda/level1/spmv/Spmv.cu",
     "size class 4: 16384 rows, 1 % non-zeros (class: assumption)", RAW),
    ("cc", "CC", "ECL-CC for Graphie [15] (Table 2: application)", "LC", "compute1", None,
     "a 2048 x 2048 triangulated mesh, 4194304 vertices, 25149442 directed edges, ids permuted (assumption, "
     "standing for HeCBench's delaunay_n24; cuda/runs/h100-gspace-cc/drivers/cc.cu); compute1 is 0.95-1.14 ms of "
     "the about 1.04 ms pass (init 49 us, flatten 13 us, compute2-3 4-9 us: left out)", RAW_CC),
]

# The applications (Table 2: TC [1] TensorFlow's LSTM text classification, CN [32] a GRU
# character model; CC [15] is measured, above).  No measurement, no source of the paper's
# builds: every number below is an ASSUMPTION, for the TITAN V only.  TC and CN: one recurrent
# step as one GEMM-like kernel of a small batch (256 threads, 64 registers, 8 KB shared
# memory, a grid of a few dozen blocks, compute-bound).
ASSUMED = [
    ("tc", "TC", "[1] TensorFlow text classification (LSTM)", "lstm_step",
     dict(grid=64, threads=256, regs=64, smem=8192, solo_us=25.0, demand={"cuda": 0.5, "lsu": 0.3}, dram=0.2)),
    ("cn", "CN", "[32] text generation (GRU)", "gru_step",
     dict(grid=48, threads=256, regs=64, smem=8192, solo_us=20.0, demand={"cuda": 0.5, "lsu": 0.3}, dram=0.2)),
]


def titanv(k):
    """The H100 kernel k on the TITAN V: roofline transform (assumption), as
    traces/smqos/make_profiles.py does for the GPGPU-Sim GPU."""
    occ = occupancy(k["threads"], k["regs"], k["smem"])
    dh = sp.derive(k, sp.H100, k["t_us"], k["bytes"], k["occ"])
    tc_h, u, r_issue, r_lat, w_h, w_g, tc = sp.carry_compute(k, dh, TITANV, occ)
    if k["name"] in GRID_STRIDE:
        # one full wave on either GPU: the latency-bound rest scales with the clock and each
        # thread's share of the work (the H100's resident blocks over this GPU's), not waves
        res_h, res_g = min(k["grid"], sp.H100["sms"] * k["occ"]), TITANV["sms"] * occ
        r_lat = sp.H100["mhz"] / TITANV["mhz"] * res_h / res_g
        tc = tc_h * (u * r_issue + (1 - u) * r_lat)
        k = dict(k, grid=res_g, grid_h100=k["grid"])
        w_h = w_g = 1
    tm = k["bytes"] / (TITANV["gbps"] * 1e9) * 1e6
    solo = max(tc, tm)
    d = sp.derive(k, TITANV, solo, k["bytes"], occ, sat=dh["sat"])
    L = tm / tc
    resident = min(k["grid"], d["sat"] * TITANV["sms"]) if d["n_solo"] >= d["sat"] else \
        min(k["grid"], d["n_solo"] * TITANV["sms"])
    d["dram"] = round(L * d["sat"] * TITANV["sms"] / max(1, resident), 4)
    d["demand"] = {x: round(v * d["sat"] / dh["sat"], 3) for x, v in dh["demand"].items()}
    how = ("derived from traces/gspace/h100 by make_profiles.py (assumption: roofline transform, "
           "traces/smqos/make_profiles.py carry_compute): compute time %.1f us, its issuing share %.3f x %.2f "
           "(active SMs x lanes x MHz, 132x128x1980 -> 80x64x1455) and the rest x %.2f (clock 1980 -> 1455 MHz x waves "
           "of blocks %d -> %d) = %.1f us, DRAM time %.0f B / 652.8 GB/s = %.1f us, solo_us the larger; dram %.4f = "
           "DRAM/compute time %.3f scaled to sat_blocks on every SM; sat_blocks as on the H100 capped at this GPU's "
           "occupancy %d, demand the H100's per-block share x sat_blocks"
           % (tc_h, u, r_issue, r_lat, w_h, w_g, tc, k["bytes"], tm, d["dram"], L, occ))
    if k["grid"] != k.get("grid_h100", k["grid"]):
        how += "; grid %d: the kernel's full wave on this GPU (grid-stride loops), the H100's %d" % (k["grid"], k["grid_h100"])
    return solo, d, occ, how, k["grid"]


def occupancy(threads, regs, smem):
    g = TITANV
    warps = math.ceil(threads / 32)
    reg_b = warps * math.ceil(regs * 32 / g["reg_unit"]) * g["reg_unit"]
    smem_b = math.ceil(smem / g["smem_unit"]) * g["smem_unit"]
    lim = [g["blocks"], g["threads"] // (warps * 32), g["regs"] // reg_b]
    if smem_b:
        lim.append(g["smem"] // smem_b)
    return min(lim)


def profile(slug, bench, role, desc, sources, kernel, notes, share):
    # G-Space's role (BE / LC, Table 2) is in the description; `kind` is the profile format's
    # compute / memory class: memory-intensive when the H100 run used >= 40 % of its DRAM peak
    return {"format": "combosim be-profile", "version": 1, "name": slug, "description": desc,
            "kind": "memory-intensive" if share >= 0.4 else "compute-intensive",
            "kind_source": "traces/gspace/make_profiles.py: measured DRAM share of the H100 peak >= 0.4 (assumed for TC, CN, CC); "
                           "roles: G-Space Table 2 (BE: CFD, MD, MM, NN; LC: BP, LBM, HOTSPOT, PF, SC, SPMV, TC, CN, CC)",
            "sources": sources, "notes": notes, "cv": 0, "cv_source": "one measured duration per kernel",
            "kernels": [kernel]}


def write(gname, slug, prof):
    os.makedirs(os.path.join(OUT, gname), exist_ok=True)
    with open(os.path.join(OUT, gname, slug + ".json"), "w") as f:
        json.dump(prof, f, indent=2)
        f.write("\n")


def main():
    rows = {RAW: sp.load(RAW), RAW_SMQOS: sp.load(RAW_SMQOS), RAW_CC: sp.load(RAW_CC)}
    tsv = []
    for slug, bench, suite, role, kn, path, inp, raw in BENCH:
        k = sp.kernel_h100(rows[raw], kn)
        measured = {RAW: "cuda/runs/h100-gspace-kernels (Nsight Compute on the H100)",
                    RAW_SMQOS: "cuda/runs/h100-smqos-kernels (Nsight Compute on the H100, 2026-11-25)",
                    RAW_CC: "cuda/runs/h100-gspace-cc (Nsight Compute on the H100, 2026-11-25)"}[raw]
        sources = {"code": MIRROR + path if path else HECBENCH, "input": inp, "measured": measured,
                   "rules": "traces/gspace/make_profiles.py (traces/smqos/README.md for the H100 rules)"}
        desc = ("G-Space Table 2 %s %s (%s, role %s): %s, input %s; one pass = one launch of that kernel."
                % ("application" if slug == "cc" else "benchmark", bench, suite, role, kn, inp))
        note = "Written by traces/gspace/make_profiles.py; do not edit by hand."
        d = sp.derive(k, sp.H100, k["t_us"], k["bytes"], k["occ"])
        base = {"name": kn, "class": "CD", "grid": k["grid"], "threads": k["threads"], "regs": k["regs"], "smem": k["smem"]}
        hk = dict(base, solo_us=round(k["t_us"], 2), demand=d["demand"], dram=d["dram"], sat_blocks=d["sat"],
                  ptb_workers=min(k["grid"], k["occ"] * sp.H100["sms"]), launches=1,
                  note="solo_us: Nsight Compute gpu__time_duration, mean of %d launches; dram %.4f from achieved share %.4f "
                       "(knee 2.3); demand: issue-slot (cuda) and L1TEX (lsu) utilisation x DRAM slowdown %.3f at %d blocks per SM"
                       % (k["n"], d["dram"], d["share"], d["S"], d["sat"]))
        write("h100", slug, profile(slug, bench, role, desc, sources, hk, note, d["share"]))
        solo, dt, occ, how, tgrid = titanv(k)
        tk = dict(base, grid=tgrid, solo_us=round(solo, 2), demand=dt["demand"], dram=dt["dram"], sat_blocks=dt["sat"],
                  ptb_workers=min(tgrid, occ * TITANV["sms"]), launches=1, note=how)
        write("titanv", slug, profile(slug, bench, role, desc, sources, tk, note, d["share"]))
        tsv.append((bench, role, kn, k, d, solo, dt, occ))
    for slug, bench, src, kn, v in ASSUMED:
        occ = occupancy(v["threads"], v["regs"], v["smem"])
        kern = {"name": kn, "class": "CD", "grid": v["grid"], "threads": v["threads"], "regs": v["regs"],
                "smem": v["smem"], "solo_us": v["solo_us"], "demand": v["demand"], "dram": v["dram"],
                "sat_blocks": occ, "ptb_workers": min(v["grid"], occ * TITANV["sms"]), "launches": 1,
                "note": "every number an assumption (traces/gspace/make_profiles.py, ASSUMED): no source or measurement of the paper's build"}
        sources = {"code": "G-Space reference " + src + "; not available as CUDA source", "input": "unknown (assumption)",
                   "measured": "none", "rules": "traces/gspace/make_profiles.py, ASSUMED"}
        write("titanv", slug, profile(slug, bench, "LC", "G-Space Table 2 application %s (%s, role LC), modelled as one "
                                      "assumed kernel %s; one pass = one launch." % (bench, src, kn), sources, kern,
                                      "Written by traces/gspace/make_profiles.py; do not edit by hand. ASSUMPTION throughout.", 1.0 if v["dram"] > 1 else 0.0))
    with open(os.path.join(OUT, "measured.tsv"), "w") as f:
        f.write("bench\trole\tkernel\tgrid\tthreads\tregs\tsmem\th100_us\tdram_bytes\tdram_share\tissue_pct\tl1tex_pct"
                "\th100_sat\th100_dram\ttitanv_us\ttitanv_occ\ttitanv_sat\ttitanv_dram\n")
        for bench, role, kn, k, d, solo, dt, occ in tsv:
            f.write("%s\t%s\t%s\t%d\t%d\t%d\t%d\t%.2f\t%d\t%.4f\t%.2f\t%.2f\t%d\t%.4f\t%.2f\t%d\t%d\t%.4f\n" % (
                bench, role, kn, k["grid"], k["threads"], k["regs"], k["smem"], k["t_us"], k["bytes"], d["share"],
                k["sm_pct"], k["lsu_pct"], d["sat"], d["dram"], solo, occ, dt["sat"], dt["dram"]))


if __name__ == "__main__":
    main()
