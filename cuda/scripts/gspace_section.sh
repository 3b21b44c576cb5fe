#!/bin/sh
# Prints VALIDATION.md's G-Space section from cuda/runs/h100-gspace-search (no GPU):
# cuda/scripts/compare_gspace.py's tables between the fixed text.  validation.sh includes it.
# usage: sh cuda/scripts/gspace_section.sh   (from the project root)
set -eu
R=cuda/runs/h100-gspace-search
R2=cuda/runs/h100-gspace-search2
C=${COMBOSIM:-bin/combosim}
T=$(mktemp -d /tmp/combosim-gspace.XXXXXX)
trap 'rm -rf "$T"' EXIT
python3 cuda/scripts/compare_gspace.py $R > "$T/call3.md"
python3 cuda/scripts/compare_gspace.py $R2 > "$T/search2.md"
cat <<HDR
## Test set: G-Space (cuda/runs/h100-gspace-search)

policies/gspace.c unchanged on both sides, every search method, on four BE + LC pairs of
G-Space Table 2 with H100-measured profiles (experiments/gspace/h100_search_sweep.json): a
persistent BE kernel on every block slot yields k blocks on n SMs to each arriving LC kernel
and takes them back after it.  The simulator runs the same files.  Call 3 of the run is the
test set ($R/RUN.md; calls 1-2 were development runs that found three backend and policy
faults; two more, found in call 3, are fixed since but not rerun: below).

$(cat "$T/call3.md")

What the misses say:

- **LC latency.**  Where the LC kernel is short against a BE task, the GPU misses QoS at every
  configuration and the simulator does not.  CFD + SPMV at the whole GPU: sim 1.81 x, GPU
  3.7 x.  MM + SC: sim 2.08 x, GPU 4.9 x.  On the GPU the LC kernel waits for two things: the
  cap write to land (about 16 us, cuda/runs/h100-reshape) and the last leaving BE worker's task
  boundary (up to a whole task: CFD's is about 23 us, MM's about 76 us).  The simulator charges
  half a task (sim/residency.c) and no write (policies/gspace.c: the num_blks write is not
  modelled).  So, for CFD + SPMV, (16 + 23 + 14.5) / 14.5 = 3.7.  With LBM (163 us) the two
  sides agree at the whole GPU (MD + LBM: 1.87 and 1.99).  Both are modelled since, as the H100
  description's \`yield\` keys (last subsection).
- **BE throughput.**  The GPU's column is the policy's own reading, and it is above 1, which
  cannot be.  The host counted a running kernel's tasks as its counter less one ticket per
  block launched and neither exited nor left (cuda/hostprogress.c before 1ff4a0c).  A
  take-back's top-up grid is 4 x the workers wanted; on a GPU whose slots the BE kernel fills,
  the surplus finds no room and waits in the hardware queue, holding no ticket, until the next
  yield frees slots, where it lands and exits.  So the reading at the LC arrival (the epoch
  boundary) was low by the waiting surplus, and the one at the LC's end, after it exited, was
  not: the difference counted up to 3 x the workers taken back as work.  The searches on the GPU
  chose on these readings, so the GPU's final configurations (the same as the simulator's in
  half the cases) are not a test of the model's throughput surface; its LC latencies are.
  Fixed in 1ff4a0c: the host subtracts the live workers, read with the counter (per-SM live
  counts), and a take-back that fills every slot launches no surplus; test_hostreshape's
  surplus test reads 1.09 x the kernel alone on the old rule, 0.98 (the truth) on the new.
  Not yet rerun on the H100: the device refused the call (the project's tree is over the
  device's 64 MiB transfer limit).
- **MD + LBM brute force did not finish on the GPU: two causes.**  Trial by trial
  (cuda/scripts/gspace_lc_times.py on call 3):

  | search | (n, k) | LBM waited (us) | LBM ran (us) | ratio GPU | ratio sim |
  |---|---|---|---|---|---|
  | brute | (132, 8) | 62 | 304 | 2.24 | 1.87 |
  | brute | (14, 1) | 70 655 | 840 089 | 5 592 | 101 |
  | brute | (14, 2) | 572 | 89 321 | 552 | 34 |
  | ns | (126, 8) | 139 | 203 | 2.10 | 1.88 |
  | ns | (126, 7) | 141 | 515 | 4.03 | 1.97 |
  | ns | (132, 7) | 143 | 500 | 3.95 | 1.96 |

  *The wait (backend).*  (14, 1) followed (132, 8), whose take-back launched 4 x 1 056 blocks,
  3 168 of them waiting for room.  At the same priority as LBM and launched before it, they
  were dispatched first, through the 14 slots the yield freed, each landing and exiting before
  the next: 71 ms, about 310 us a block in each slot, near one MD task (284 us), for a block that
  runs a few instructions (the slowness below).  At (126, 7), which followed (132, 8) in NS, the
  same surplus drained within the usual wait (141 us) through 882 slots beside one MD block
  each.  Fixed in 1ff4a0c (no surplus when the caps fill every slot).  *The run (hardware).*
  LBM's blocks are slow where they share an SM with resident BE workers: at k = 7 (one MD block
  stays beside LBM's) LBM runs 2.5 x as long as at k = 8 (whole SMs), where the simulator's
  ratio grows 1.05 x; at (14, 1) (seven MD blocks stay, two LBM blocks in each freed slot) each
  wave of LBM's blocks takes about 1.3 ms, 70 x its time alone, where the simulator shares each
  SM's issue by demand.  The GPU gives the later, fewer LC warps much less than an even share of issue beside
  the BE kernel's resident warps; the last subsection names why.
HDR
cat <<HDR2

### The rerun with the fixed backend ($R2, test set)

The same experiments once more, with the two faults above fixed in the binary (the throughput
reading, the take-back surplus), everything else as call 3 ($R2/RUN.md).  The BE throughput the
policy reads is now at most 1, and the searches chose on it:

$(cat "$T/search2.md")
HDR2
# the simulator of this commit on the same experiments (the H100's yield keys included)
"$C" sweep experiments/gspace/h100_search_sweep.json -j 2 --out "$T/sw" >/dev/null 2>&1
mkdir -p "$T/sim"
python3 - "$T" <<'PY'
import json, shutil, sys
t = sys.argv[1]
s = json.load(open("experiments/gspace/h100_search_sweep.json"))
for i, apps in enumerate(s["grid"]["apps"]):
    shutil.copy("%s/sw/runs/%06d/summary.json" % (t, i), "%s/sim/%s+%s.summary.json" % (t, apps[0]["name"], apps[1]["name"]))
PY
python3 cuda/scripts/compare_gspace.py $R2 "$T/sim" > "$T/now.md"
cat <<HDR3

### The yield's timing modelled (models/h100.json \`yield\`), against the same test run

The two waits the LC kernel has on the GPU and the simulator lacked (above) are now the H100
description's \`yield\` keys, calibrated on cuda/runs/h100-reshape call2 (cuda/scripts/fit_yield.py;
not on any G-Space run): the cap word lands \`cap_write_us\` after the call (the workers work on
unaware), and the n workers leaving an SM go one by one at i / (n + 1) of a task
(\`"leave": "spread"\`, the expected order statistics of uniform phases) where the simulator had
them all leave at half a task.  The simulator of this commit (its sweep of
experiments/gspace/h100_search_sweep.json, run now) against the GPU's test run ($R2, unchanged):

$(cat "$T/now.md")

What remains of the LC misses: the LC blocks that land on an SM before its last leaving worker
has gone share it with that worker's FMA warps, which issue first (next subsection), so on the
GPU the LC kernel starts when modelled but runs slower than modelled until the SM is its own;
where the LC kernel is short against a BE task (CFD + SPMV, MM + SC) that is most of its run.

### Why an LC kernel is slow beside resident BE workers (k < K)

LBM (LC) at fixed configurations beside the persistent MD kernel (BE), on the GPU
($R2/share.tgz and the development run cuda/runs/h100-gspace-share-class, where MD's stand-in
kernel runs once as class CD and once as class MEM) and in the simulator
(cuda/scripts/gspace_share.py):

$(python3 cuda/scripts/gspace_share.py "$C")

- **The mechanism: the stand-in's issue appetite, with older warps issuing first.**  The same
  shapes and calibrated solo times, only the resident workers' class differs: beside CD workers
  (FMA chains; one 256-thread block fills an SM's CUDA cores, cuda/runs/h100-bench-3) LBM slows
  with every worker that stays, beside MEM workers (streaming reads, issue share 0.08) it runs
  near its time alone at every k.  LBM at k = 8 beside CD workers is slow too: until the last
  leaving worker's task ends it shares the SM with FMA warps that issue first.  The H100
  description already orders issue by age (\`interference.discipline\` "age"), and
  exit_hold's CD steps measure the same starvation for exiting blocks.
- **Why the simulator misses it.**  It runs the kernels of the profiles: MD's per-block issue
  demand is its class share over the profile's sat_blocks (8, from Nsight Compute's 13 % issue
  utilisation of the real compute_lj_force), so one resident MD block takes 1/8 of an SM's
  issue, and MEM or CD makes no difference.  The GPU runs combosim-cuda's stand-in, whose block
  alone nearly saturates the SM.  So at k < K the GPU test measures the stand-in's FMA loop,
  not the real MD kernel; the model is not changed to mimic it (it would then predict the stand-in,
  not the benchmark), and every k < K row above is outside what the GPU comparison can test.
- **The MEM stand-in's waits.**  Beside MEM workers LBM waits longer than modelled at k = 8:
  bandwidth-bound workers stay in phase (equal shares of DRAM), so they reach their task
  boundaries together rather than spread over a task, which the spread rule assumes.
HDR3
# the row of VALIDATION.md's test-set summary (validation.sh sets VALIDATION_SUMMARY): the
# closing lines of the tables above, the LC kernel's latency read against issue #19's co-running
# kernel target
[ -z "${VALIDATION_SUMMARY:-}" ] || python3 - "$T/now.md" "$T/call3.md" "$R" "$R2" >> "$VALIDATION_SUMMARY" <<'PY'
import re, sys
def fig(path):
    m = re.search(r'(\d+) pair-method runs on each side; the same final configuration in (\d+) \((\d+) %\).*'
                  r'LC latency after the search: median \|sim - GPU\| / GPU ([\d.]+) %, max ([\d.]+) %', open(path).read())
    return m.groups()
now, call3 = fig(sys.argv[1]), fig(sys.argv[2])
txt = lambda f: 'the same final (n, k) in %s of %s (%s %%), the LC kernel\'s latency after the search: median error %s %%, worst %s %%' % (
    f[1], f[0], f[2], f[3], f[4])
print('| G-Space (Test set: G-Space) | %s; call 3 of %s | %s against this model: %s; call 3 against the simulator stored with it: %s '
      '| not measured (each configuration run once) | a kernel co-running (median <= 10 %%), read on the LC kernel\'s latency | %s |' % (
    sys.argv[4], sys.argv[3], sys.argv[4], txt(now), txt(call3), 'met' if float(now[3]) <= 10 else '**not met**'))
PY
