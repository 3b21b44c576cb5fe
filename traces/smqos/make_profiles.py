#!/usr/bin/env python3
"""Writes the SMQoS Table 3 BE profiles from Nsight Compute measurements on the H100.  Two input
sets (--inputs): 'standard' (default) reads cuda/runs/h100-smqos-kernels/raw/ncu.csv and writes
traces/smqos/{h100,gpgpusim-sm24}/*.json and measured.tsv; 'gpgpusim' (the sizes of GPGPU-Sim's
benchmark distribution) reads cuda/runs/h100-smqos-kernels-gpgpusim/raw/ncu.csv and writes
traces/smqos/{h100-gsinputs,gpgpusim-sm24-gsinputs}/*.json and measured-gsinputs.tsv.  The rules
are in traces/smqos/README.md; run from the repository root:
python3 traces/smqos/make_profiles.py [--inputs standard|gpgpusim]"""
import argparse, csv, json, math, os, statistics

OUT = "traces/smqos"
# per input set: Nsight Compute record, run folder, output folders (H100, 24-SM GPU), summary
SETS = {
    "standard": dict(raw="cuda/runs/h100-smqos-kernels/raw/ncu.csv", run="cuda/runs/h100-smqos-kernels",
                     dirs=("h100", "gpgpusim-sm24"), tsv="measured.tsv"),
    "gpgpusim": dict(raw="cuda/runs/h100-smqos-kernels-gpgpusim/raw/ncu.csv", run="cuda/runs/h100-smqos-kernels-gpgpusim",
                     dirs=("h100-gsinputs", "gpgpusim-sm24-gsinputs"), tsv="measured-gsinputs.tsv"),
}

# models/h100.json: 132 SMs, 128 FP32 lanes, 1980 MHz, 3352 GB/s, DRAM knee 2.3 (fit_dram.py)
H100 = dict(sms=132, lanes=128, mhz=1980, gbps=3352, knee=2.3)
# models/gpgpusim-sm24.json: 24 SMs, 32 lanes, 1400 MHz, 177.4 GB/s, hard max(1, L)
SM24 = dict(sms=24, lanes=32, mhz=1400, gbps=177.4, knee=None, threads=1536, blocks=8,
            regs=32768, reg_unit=64, smem=48 * 1024, smem_unit=128)

# SMQoS Table 3 (benchmark, kernel, suite) and its CI/MI column; source paths in the mirror
# gpgpu-sim/gpgpu-sim_simulations@96c5ec95, benchmarks/src/cuda/...; input per define-all-apps.yml
APPS = [
    ("bino", "BINO", "binomialOptionsKernel", "CUDA SDK", "compute-intensive", ["binomialOptionsKernel"],
     "sdk/4.2/binomialOptions/binomialOptions_kernel.cuh", "512 options (SDK OPT_N_MAX), 2048 steps, single precision", 1),
    ("merge", "MERGE", "mergeSortSharedKernel", "CUDA SDK", "compute-intensive", ["mergeSortSharedKernel"],
     "sdk/4.2/mergeSort/mergeSort.cu", "4M keys (SDK N = 4 * 1048576)", 1),
    ("cp", "CP", "cuda_cutoff_potential", "Parboil", "compute-intensive", ["cuda_cutoff_potential_lattice6overlap"],
     "parboil/benchmarks/cutcp/src/cuda/cutoff6overlap.cu", "6400 atoms in a 40 A box (assumption for watbox.sl40.pqr); 11 launches, one a z-slab", 11),
    ("tpacf", "TPACF", "gen_hists", "Parboil", "compute-intensive", ["gen_hists"],
     "parboil/benchmarks/tpacf/src/cuda/tpacf_kernel.cu", "-n 100 -p 10391 (points uniform on the sphere: assumption)", 1),
    ("hs", "HS", "calculate_temp", "Rodinia", "compute-intensive", ["calculate_temp"],
     "rodinia/3.1/cuda/hotspot/hotspot.cu", "512 2 2", 1),
    ("pf", "PF", "dynproc_kernel", "Rodinia", "compute-intensive", ["dynproc_kernel"],
     "rodinia/3.1/cuda/pathfinder/pathfinder.cu", "100000 100 20 (5 launches)", 5),
    ("atax", "ATAX", "atax_kernel", "PolyBench/GPU", "memory-intensive", ["atax_kernel1", "atax_kernel2"],
     "polybench-gpu-1.0/CUDA/ATAX/atax.cu", "NX = NY = 4096", 1),
    ("bicg", "BICG", "bicg_kernel", "PolyBench/GPU", "memory-intensive", ["bicg_kernel1", "bicg_kernel2"],
     "polybench-gpu-1.0/CUDA/BICG/bicg.cu", "NX = NY = 4096", 1),
    ("gesummv", "GESUMMV", "gesummv_kernel", "PolyBench/GPU", "memory-intensive", ["gesummv_kernel"],
     "polybench-gpu-1.0/CUDA/GESUMMV/gesummv.cu", "N = 4096", 1),
    ("lib", "LIB", "Pathcalc_Portfolio_Kernel", "ISPASS-2009", "memory-intensive",
     ["Pathcalc_Portfolio_KernelGPU2", "Pathcalc_Portfolio_KernelGPU"],
     "ispass-2009/LIB/libor.cu", "NPATH 4096 (fixed in the source)", 1),
    ("lbm", "LBM", "performStreamCollide_kernel", "Parboil", "memory-intensive", ["performStreamCollide_kernel"],
     "parboil/benchmarks/lbm/src/cuda/lbm_kernel.cu", "120 x 120 x 150, 3000 steps (no obstacles: assumption)", 3000),
    ("mri-g", "MRI-G", "binning_kernel", "Parboil", "memory-intensive", ["binning_kernel"],
     "parboil/benchmarks/mri-gridding/src/cuda/GPU_kernels.cu", "binsize 32; 2^20 samples on a 128^3 grid (assumption for small.uks)", 1),
]

# --inputs gpgpusim: the input GPGPU-Sim's distribution runs each benchmark with, and where that is
# stated (gpgpu-sim_simulations@96c5ec95: YML = util/job_launching/apps/define-all-apps.yml, source
# paths under benchmarks/src/cuda/).  Only BINO and MERGE differ from the standard set.
YML = "define-all-apps.yml"
GS_INPUTS = {
    "bino": "1 option, 2048 steps, single precision (GPGPU-Sim's sdk/4.2/binomialOptions/binomialOptions.cpp line 89: "
            "OPT_N_MAX = 1; %s line 85 lists binomialOptions, commented out, with no arguments)" % YML,
    "merge": "8192 keys (GPGPU-Sim's sdk/4.2/mergeSort/main.cpp line 31: N = 8192; %s line 99: mergeSort, no arguments)" % YML,
    "cp": "%s line 401: -i small/input/watbox.sl40.pqr; that file is not available: 6400 atoms in a 40 A box "
          "(assumption); 11 launches, one a z-slab" % YML,
    "tpacf": "%s line 425: -n 100 -p 10391 (Datapnts.1, Randompnts.1-100 not available: points uniform on the sphere, "
             "assumption)" % YML,
    "hs": "%s line 257: 512 2 2 (temp_512, power_512 not available: uniform random, assumption)" % YML,
    "pf": "%s line 291: 100000 100 20 (5 launches)" % YML,
    "atax": "NX = NY = 4096 (polybench-gpu-1.0/CUDA/ATAX/atax.cu lines 26-27; %s line 440: no arguments)" % YML,
    "bicg": "NX = NY = 4096 (polybench-gpu-1.0/CUDA/BICG/bicg.cu lines 25-26; %s line 442: no arguments)" % YML,
    "gesummv": "N = 4096 (polybench-gpu-1.0/CUDA/GESUMMV/gesummv.cu line 27; %s line 452: no arguments)" % YML,
    "lib": "NPATH 4096 (ispass-2009/LIB/libor.cu line 18; %s line 311: no arguments)" % YML,
    "lbm": "%s line 407: long/input/120_120_150_ldc.of -- 3000 (the obstacle file is not available: no obstacles, "
           "assumption)" % YML,
    "mri-g": "%s line 416: small/input/small.uks -- 32 0, binsize 32 (small.uks not available: 2^20 samples on a "
             "128^3 grid, assumption)" % YML,
}


def num(s):
    return float(s.replace(",", ""))


def load(raw):
    rows, hdr = [], None
    for r in csv.reader(open(raw)):
        if r and r[0] == "ID":
            hdr = r
        elif hdr and r and r[0].isdigit():
            rows.append(dict(zip(hdr, r)))
    return rows


def base_name(kname):
    n = kname.split("(")[0].replace("void ", "")
    return n.split("<")[0].strip()


def slowdown(L, knee):
    """models/gpu.c gpu_dram_slowdown"""
    if L <= 0:
        return 1.0
    return max(1.0, L) if knee is None else (1 + L ** knee) ** (1 / knee)


def demand_from_share(f, knee):
    """Inverts achieved share f = L / S(L) of the DRAM peak into the intrinsic load L."""
    if knee is None:
        return f
    f = min(f, 0.999)
    return f / (1 - f ** knee) ** (1 / knee)


def occupancy_sm24(threads, regs, smem):
    warps = math.ceil(threads / 32)
    reg_b = warps * math.ceil(regs * 32 / SM24["reg_unit"]) * SM24["reg_unit"]
    smem_b = math.ceil(smem / SM24["smem_unit"]) * SM24["smem_unit"]
    lim = [SM24["blocks"], SM24["threads"] // (warps * 32), SM24["regs"] // reg_b]
    if smem_b:
        lim.append(SM24["smem"] // smem_b)
    return min(lim)


def kernel_h100(rows, name):
    rs = [r for r in rows if base_name(r["Kernel Name"]) == name]
    assert rs, name
    med = lambda k: statistics.median(num(r[k]) for r in rs)
    mean = lambda k: statistics.fmean(num(r[k]) for r in rs)
    k = {"name": name, "n": len(rs)}
    k["t_us"] = mean("gpu__time_duration.sum") / 1e3       # mean: CP's launches differ by slab
    k["bytes"] = mean("dram__bytes_read.sum") + mean("dram__bytes_write.sum")
    k["grid"] = int(med("launch__grid_size"))
    k["threads"] = int(med("launch__block_size"))
    k["regs"] = int(med("launch__registers_per_thread"))
    k["smem"] = int(med("launch__shared_mem_per_block_static"))
    k["occ"] = int(min(med("launch__occupancy_limit_" + x) for x in ("blocks", "registers", "shared_mem", "warps")))
    k["sm_pct"] = med("sm__inst_executed.avg.pct_of_peak_sustained_active")
    k["lsu_pct"] = med("l1tex__throughput.avg.pct_of_peak_sustained_active")
    k["sm_tp"] = med("sm__throughput.avg.pct_of_peak_sustained_elapsed")
    k["dram_pct_ncu"] = med("dram__throughput.avg.pct_of_peak_sustained_elapsed")
    return k


def derive(k, g, t_us, bytes_, occ, sat=None):
    """unit demand, sat_blocks and chip DRAM demand of kernel k on GPU g, solo time t_us"""
    share = bytes_ / (t_us * 1e-6) / (g["gbps"] * 1e9)
    L_solo = demand_from_share(share, g["knee"])
    S = slowdown(L_solo, g["knee"])
    n_solo = min(occ, math.ceil(k["grid"] / g["sms"]))
    u = {"cuda": k["sm_pct"] / 100 * S, "lsu": k["lsu_pct"] / 100 * S}
    if sat is None:
        sat = max(1, min(occ, math.floor(n_solo / max(max(u.values()), 1e-6))))
    sat = min(sat, occ)
    demand = {x: round(min(1.0, v * sat / n_solo), 3) for x, v in u.items()}
    resident = min(k["grid"], sat * g["sms"], n_solo * g["sms"]) if n_solo < sat else min(k["grid"], sat * g["sms"])
    dram = L_solo * sat * g["sms"] / max(1, resident)
    return dict(share=share, L_solo=L_solo, S=S, sat=sat, demand=demand, dram=round(dram, 4), n_solo=n_solo)


def carry_compute(k, dh, g, occ):
    """The H100 kernel k's compute time carried to GPU g (assumption: roofline transform): the
    share the SMs spent issuing (ncu's issue-slot utilisation u) scales with active SMs x lanes x
    clock, the rest, waiting on dependent latencies, with the clock and the number of waves of
    blocks (occ: k's blocks per SM on g).  Returns the H100 compute time (solo / DRAM slowdown),
    u, the two ratios, the waves on the H100 and on g, and the compute time on g."""
    tc_h = k["t_us"] / dh["S"]
    u = min(1.0, k["sm_pct"] / 100)
    r_issue = (min(H100["sms"], k["grid"]) * H100["lanes"] * H100["mhz"]) / \
        (min(g["sms"], k["grid"]) * g["lanes"] * g["mhz"])
    waves = lambda g_, o_: math.ceil(k["grid"] / (g_["sms"] * max(1, o_)))
    w_h, w_g = waves(H100, k["occ"]), waves(g, occ)
    r_lat = H100["mhz"] / g["mhz"] * w_g / w_h
    return tc_h, u, r_issue, r_lat, w_h, w_g, tc_h * (u * r_issue + (1 - u) * r_lat)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--inputs", choices=sorted(SETS), default="standard")
    inputs = ap.parse_args().inputs
    cfg = SETS[inputs]
    rows = load(cfg["raw"])
    table = []
    for slug, bench, t3kernel, suite, kind, knames, path, inp, launches in APPS:
        if inputs == "gpgpusim":
            inp = GS_INPUTS[slug]
        for gname, odir in zip(("h100", "gpgpusim-sm24"), cfg["dirs"]):
            kernels, notes = [], []
            for kn in knames:
                k = kernel_h100(rows, kn)
                if gname == "h100":
                    occ = k["occ"]
                    d = derive(k, H100, k["t_us"], k["bytes"], occ)
                    solo = k["t_us"]
                    table.append((bench, kn, suite, path, inp, k, d, kind))
                    how = ("solo_us: Nsight Compute gpu__time_duration, mean of %d launches; regs/smem/grid/threads: "
                           "ncu launch__*; dram %.4f: achieved share %.4f of 3352 GB/s inverted through the H100 DRAM curve "
                           "(knee 2.3) to intrinsic load %.4f and scaled to sat_blocks on every SM; demand: ncu issue-slot "
                           "(cuda) and L1TEX (lsu) utilisation x DRAM slowdown %.3f, scaled from %d to sat_blocks %d per SM"
                           % (k["n"], d["dram"], d["share"], d["L_solo"], d["S"], d["n_solo"], d["sat"]))
                else:
                    occ = occupancy_sm24(k["threads"], k["regs"], k["smem"])
                    dh = derive(k, H100, k["t_us"], k["bytes"], k["occ"])
                    # roofline transform (assumption): the share of the compute time the SMs spent issuing
                    # (ncu's issue-slot utilisation u) scales with active SMs x lanes x clock; the rest,
                    # waiting on dependent latencies, with the clock and the number of waves of blocks;
                    # DRAM time with bandwidth; the solo time is the larger of the two (hard max(1, L))
                    tc_h, u, r_issue, r_lat, w_h, w_g, tc = carry_compute(k, dh, SM24, occ)
                    tm = k["bytes"] / (SM24["gbps"] * 1e9) * 1e6
                    solo = max(tc, tm)
                    d = derive(k, SM24, solo, k["bytes"], occ, sat=dh["sat"])
                    # with a hard max the achieved share saturates at 1: take the intrinsic load from the times
                    L = tm / tc
                    resident = min(k["grid"], d["sat"] * SM24["sms"]) if d["n_solo"] >= d["sat"] else \
                        min(k["grid"], d["n_solo"] * SM24["sms"])
                    d["dram"] = round(L * d["sat"] * SM24["sms"] / max(1, resident), 4)
                    # same unit share per block as on the H100 (assumption): demand at sat_blocks scales with sat
                    d["demand"] = {x: round(v * d["sat"] / dh["sat"], 3) for x, v in dh["demand"].items()}
                    how = ("derived from traces/smqos/" + cfg["dirs"][0] + " by make_profiles.py (assumption: roofline transform): compute "
                           "time %.1f us, its issuing share %.3f x %.2f (active SMs x lanes x MHz, 132x128x1980 -> 24x32x1400) and "
                           "the rest x %.2f (clock 1980 -> 1400 MHz x waves of blocks %d -> %d) = %.1f us, DRAM time "
                           "%.0f B / 177.4 GB/s = %.1f us, solo_us the larger; dram %.4f = DRAM/compute time %.3f scaled to "
                           "sat_blocks on every SM; sat_blocks as on the H100 capped at this GPU's occupancy %d, demand the H100's per-block share x sat_blocks"
                           % (tc_h, u, r_issue, r_lat, w_h, w_g, tc, k["bytes"], tm, d["dram"], L, occ))
                kernels.append({
                    "name": kn, "class": "CD", "grid": k["grid"], "threads": k["threads"], "regs": k["regs"],
                    "smem": k["smem"], "solo_us": round(solo, 2), "demand": d["demand"], "dram": d["dram"],
                    "sat_blocks": d["sat"], "ptb_workers": min(k["grid"], occ * (H100 if gname == "h100" else SM24)["sms"]),
                    "launches": launches, "note": how})
            if inputs == "standard":
                src_input = ("util/job_launching/apps/define-all-apps.yml of the same repository, or the source's defaults "
                             "(traces/smqos/README.md)")
                measured = "cuda/runs/h100-smqos-kernels (Nsight Compute on the H100, 2026-11-25)"
            else:
                src_input = ("GPGPU-Sim's inputs: util/job_launching/apps/define-all-apps.yml of the same repository and "
                             "the sizes compiled into its copies of the sources (line numbers in the description)")
                measured = cfg["run"] + " (Nsight Compute on the H100, 2026-11-25)"
            prof = {
                "format": "combosim be-profile", "version": 1, "name": slug,
                "description": "SMQoS Table 3 benchmark %s: %s of %s, input %s; one pass = the benchmark's launches of "
                               "its Table 3 kernel(s)." % (bench, t3kernel, suite, inp),
                "kind": kind,
                "kind_source": "SMQoS Table 3 (CI: BINO, MERGE, CP, TPACF, HS, PF; MI: ATAX, BICG, GESUMMV, LIB, LBM, MRI-G)",
                "sources": {
                    "code": "gpgpu-sim/gpgpu-sim_simulations@96c5ec95 benchmarks/src/cuda/" + path,
                    "input": src_input,
                    "measured": measured,
                    "rules": "traces/smqos/README.md; traces/smqos/make_profiles.py"},
                "notes": "Written by traces/smqos/make_profiles.py; do not edit by hand.",
                "cv": 0, "cv_source": "one measured duration per kernel",
                "kernels": kernels}
            os.makedirs(os.path.join(OUT, odir), exist_ok=True)
            with open(os.path.join(OUT, odir, slug + ".json"), "w") as f:
                json.dump(prof, f, indent=2)
                f.write("\n")
    with open(os.path.join(OUT, cfg["tsv"]), "w") as f:
        f.write("bench\tkernel\tgrid\tthreads\tregs\tsmem\tsolo_us\tdram_bytes\tdram_share\tncu_dram_pct\tsm_throughput_pct"
                "\tissue_pct\tl1tex_pct\tsat_blocks\tdram\tkind\n")
        for bench, kn, suite, path, inp, k, d, kind in table:
            f.write("%s\t%s\t%d\t%d\t%d\t%d\t%.1f\t%d\t%.4f\t%.2f\t%.2f\t%.2f\t%.2f\t%d\t%.4f\t%s\n" % (
                bench, kn, k["grid"], k["threads"], k["regs"], k["smem"], k["t_us"], k["bytes"], d["share"],
                k["dram_pct_ncu"], k["sm_tp"], k["sm_pct"], k["lsu_pct"], d["sat"], d["dram"], kind))
    if inputs == "standard":
        a100_profiles(rows)


# --- the A100 (SMQoS §6.6, Fig. 20): the same roofline transform from the H100 record -------------
# models/a100.json: 108 SMs, 64 FP32 lanes, 1410 MHz, 2039 GB/s, no DRAM knee (hard max(1, L));
# occupancy per CUDA compute capability 8.0 (2048 threads, 32 blocks, 64K registers allocated per
# warp in units of 256, 164 KB shared memory with 1 KB reserved per block, 128 B units)
A100 = dict(sms=108, lanes=64, mhz=1410, gbps=2039, knee=None, threads=2048, blocks=32,
            regs=65536, reg_unit=256, smem=164 * 1024, smem_unit=128, smem_per_block=1024)


def occupancy_a100(threads, regs, smem):
    warps = math.ceil(threads / 32)
    reg_b = warps * math.ceil(regs * 32 / A100["reg_unit"]) * A100["reg_unit"]
    smem_b = math.ceil((smem + A100["smem_per_block"]) / A100["smem_unit"]) * A100["smem_unit"]
    lim = [A100["blocks"], A100["threads"] // (warps * 32), A100["regs"] // max(1, reg_b)]
    if smem:
        lim.append(A100["smem"] // smem_b)
    return max(1, min(lim))


def a100_profiles(rows):
    """traces/smqos/a100/*.json: every benchmark carried from the H100 to the A100 by the rule the
    24-SM set uses (traces/smqos/README.md, 'The A100')"""
    for slug, bench, t3kernel, suite, kind, knames, path, inp, launches in APPS:
        kernels = []
        for kn in knames:
            k = kernel_h100(rows, kn)
            occ = occupancy_a100(k["threads"], k["regs"], k["smem"])
            dh = derive(k, H100, k["t_us"], k["bytes"], k["occ"])
            tc_h = k["t_us"] / dh["S"]
            u = min(1.0, k["sm_pct"] / 100)
            r_issue = (min(H100["sms"], k["grid"]) * H100["lanes"] * H100["mhz"]) / \
                (min(A100["sms"], k["grid"]) * A100["lanes"] * A100["mhz"])
            waves = lambda g_, o_: math.ceil(k["grid"] / (g_["sms"] * max(1, o_)))
            r_lat = H100["mhz"] / A100["mhz"] * waves(A100, occ) / waves(H100, k["occ"])
            tc = tc_h * (u * r_issue + (1 - u) * r_lat)
            tm = k["bytes"] / (A100["gbps"] * 1e9) * 1e6
            solo = max(tc, tm)
            sat = min(dh["sat"], occ)
            n_solo = min(occ, math.ceil(k["grid"] / A100["sms"]))
            L = tm / tc
            resident = min(k["grid"], sat * A100["sms"]) if n_solo >= sat else min(k["grid"], n_solo * A100["sms"])
            dram = round(L * sat * A100["sms"] / max(1, resident), 4)
            demand = {x: round(v * sat / dh["sat"], 3) for x, v in dh["demand"].items()}
            how = ("derived from traces/smqos/h100 by make_profiles.py (assumption: roofline transform, as the 24-SM set): "
                   "compute time %.1f us, its issuing share %.3f x %.2f (active SMs x lanes x MHz, 132x128x1980 -> 108x64x1410) "
                   "and the rest x %.2f (clock 1980 -> 1410 MHz x waves of blocks %d -> %d) = %.1f us, DRAM time %.0f B / "
                   "2039 GB/s = %.1f us, solo_us the larger; dram %.4f = DRAM/compute time %.3f scaled to sat_blocks on every SM; "
                   "sat_blocks as on the H100 capped at the A100's occupancy %d, demand the H100's per-block share x sat_blocks"
                   % (tc_h, u, r_issue, r_lat, waves(H100, k["occ"]), waves(A100, occ), tc, k["bytes"], tm, dram, L, occ))
            kernels.append({
                "name": kn, "class": "CD", "grid": k["grid"], "threads": k["threads"], "regs": k["regs"],
                "smem": k["smem"], "solo_us": round(solo, 2), "demand": demand, "dram": dram,
                "sat_blocks": sat, "ptb_workers": min(k["grid"], occ * A100["sms"]),
                "launches": launches, "note": how})
        prof = {
            "format": "combosim be-profile", "version": 1, "name": slug,
            "description": "SMQoS Table 3 benchmark %s: %s of %s, input %s; one pass = the benchmark's launches of "
                           "its Table 3 kernel(s)." % (bench, t3kernel, suite, inp),
            "kind": kind,
            "kind_source": "SMQoS Table 3 (CI: BINO, MERGE, CP, TPACF, HS, PF; MI: ATAX, BICG, GESUMMV, LIB, LBM, MRI-G)",
            "sources": {
                "code": "gpgpu-sim/gpgpu-sim_simulations@96c5ec95 benchmarks/src/cuda/" + path,
                "input": "util/job_launching/apps/define-all-apps.yml of the same repository, or the source's defaults "
                         "(traces/smqos/README.md)",
                "measured": "cuda/runs/h100-smqos-kernels (Nsight Compute on the H100, 2026-11-25), carried to the A100",
                "rules": "traces/smqos/README.md; traces/smqos/make_profiles.py"},
            "notes": "Written by traces/smqos/make_profiles.py; do not edit by hand.",
            "cv": 0, "cv_source": "one measured duration per kernel",
            "kernels": kernels}
        os.makedirs(os.path.join(OUT, "a100"), exist_ok=True)
        with open(os.path.join(OUT, "a100", slug + ".json"), "w") as f:
            json.dump(prof, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
