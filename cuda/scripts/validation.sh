#!/bin/sh
# Regenerates cuda/VALIDATION.md from the stored GPU runs (no GPU needed): runs the simulator
# on the experiments that mirror them (cuda/experiments/), compares with `combosim validate`,
# and writes the report.  Usage: sh cuda/scripts/validation.sh [COMBOSIM]   (make cuda-validation)
set -eu
cd "$(dirname "$0")/../.."
sh cuda/scripts/unpack_runs.sh
C=${1:-bin/combosim}
RUN=cuda/runs/h100-bench-2/bench-corun
tmp=$(mktemp -d /tmp/combosim-validation.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
"$C" run cuda/experiments/h100_corun_calibration.json --out "$tmp/cal" --quiet
"$C" run cuda/experiments/h100_corun_heldout.json --out "$tmp/held" --quiet
"$C" validate --sim "$tmp/cal/kernels.csv" --real "$RUN/kernels.csv" --json "$tmp/cal.json" > "$tmp/cal.txt"
"$C" validate --sim "$tmp/held/kernels.csv" --real "$RUN/kernels_heldout.csv" --json "$tmp/held.json" > "$tmp/held.txt"
# full experiments replayed by `combosim-cuda run` (development: no number of them calibrates the
# model, but its structure was chosen on them)
# The simulator runs each kernel at the solo time the GPU run measured for it (the run's
# calibration record): both sides then run the same kernels, and what is compared is how they
# share the GPU.  (The synthetic kernels' work comes in steps, so a measured solo time can miss
# the experiment's target by a few %.)
solo_sets() { python3 cuda/scripts/solo_sets.py "$1" "$2"; }
# the development GPU run of each experiment: made by the runner that drives policies/*.c through
# the CUDA backend (cuda/runs/h100-*-unified/RUN.md); the experiments whose BE apps enqueue two
# kernels ahead on their stream ("depth": 2, "streams": 1) by the run made with that (-queued)
dur_of() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['duration_ms'])" "$1"; }
real() { case $1 in exclusive|static|w2|hooks) echo cuda/runs/h100-$1-queued ;; *) echo cuda/runs/h100-$1-unified ;; esac; }
for n in exclusive static pilotfish; do
  "$C" run cuda/experiments/h100_$n.json $(solo_sets cuda/experiments/h100_$n.json "$(real $n)/summary.json") --out "$tmp/x-$n" --quiet
  "$C" validate --sim "$tmp/x-$n/kernels.csv" --real "$(real $n)/kernels.csv" --json "$tmp/x-$n.json" \
    | sed "s|^sim:  $tmp/x-$n/|sim:  combosim run cuda/experiments/h100_$n.json -> |" > "$tmp/x-$n.txt"
  python3 cuda/scripts/compare_runs.py "$tmp/x-$n" "$(real $n)" \
    "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['duration_ms'])" "$(real $n)/summary.json")" \
    "$tmp/x-exclusive" "$(real exclusive)" --json "$tmp/c-$n.json" > "$tmp/c-$n.txt"
done
# the same simulated static runs against the superseded GPU runs (two kernels queued per BE app),
# to tell what changed on the GPU from what the model does
python3 cuda/scripts/compare_runs.py "$tmp/x-static" cuda/runs/h100-static-2 \
  "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['duration_ms'])" cuda/runs/h100-static-2/summary.json)" \
  "$tmp/x-exclusive" cuda/runs/h100-exclusive --json "$tmp/p-static.json" > /dev/null
python3 cuda/scripts/compare_runs.py "$tmp/x-exclusive" cuda/runs/h100-exclusive \
  "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['duration_ms'])" cuda/runs/h100-exclusive/summary.json)" \
  "$tmp/x-exclusive" cuda/runs/h100-exclusive --json "$tmp/p-exclusive.json" > /dev/null
allc() { python3 -c "
import json,statistics,sys
rows=[r for n in ('exclusive','static','pilotfish') for r in json.load(open('$tmp/c-%s.json' % n))]
v=[r[sys.argv[1]] for r in rows if r.get(sys.argv[1]) is not None and (len(sys.argv)<3 or r['policy'] in sys.argv[2].split(','))]
print(' / '.join('%s %.1f %%' % (r['policy'], 100*r[sys.argv[1]]) for r in rows if r.get(sys.argv[1]) is not None and (len(sys.argv)<3 or r['policy'] in sys.argv[2].split(','))))
" "$@"; }
# signed BE throughput error (sim - GPU) / GPU of workload 1's policies: where the ratio's two
# errors (its own and its be-alone denominator's) add or offset
allc_signed() { python3 -c "
import json
rows=[r for n in ('exclusive','static','pilotfish') for r in json.load(open('$tmp/c-%s.json' % n))]
print(' / '.join('%s %+.1f %%' % (r['policy'], 100*(r['be_thr_sim']-r['be_thr_real'])/r['be_thr_real']) for r in rows if r['be_thr_real'] > 0))
"; }
# the largest error of game alone and Pilotfish (kernel median and p90, frame-latency median),
# both workloads
maxerr_alone() { python3 -c "
import json
rows=[r for n in ('exclusive','pilotfish','w2') for r in json.load(open('$tmp/c-%s.json' % n)) if r['policy'] in ('game-alone','pilotfish')]
print('%.1f' % (100*max(r[k] for r in rows for k in ('kernel_err_median','kernel_err_p90','frame_latency_err_median') if r.get(k) is not None)))
"; }
# the fraction of the run during which both BE apps of POLICY have a kernel running: "SIM / GPU"
both_running() { python3 - "$@" <<'PY'
import csv, sys
def both(d, pol):
    iv = {}
    for r in csv.DictReader(open(d + '/kernels.csv')):
        if r['policy'] == pol and r['frame'] == '-1':
            iv.setdefault(r['owner'], []).append((int(r['start_ns']), int(r['end_ns'])))
    a, b = [sorted(v) for v in iv.values()]
    i = j = inter = 0
    while i < len(a) and j < len(b):
        inter += max(0, min(a[i][1], b[j][1]) - max(a[i][0], b[j][0]))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    ends = [e for v in iv.values() for _, e in v]
    return inter / max(ends)
s, g = both(sys.argv[1], sys.argv[3]), both(sys.argv[2], sys.argv[3])
print('%.2f / %.2f' % (s, g))
PY
}
# Per BE app of a run directory: solo-seconds of BE work done per second (tasks.csv's done share
# where there is one) and the median time from the end of the app's kernel to the start of its
# next one.  Prints, for each policy given, "app: THR (GAP us)" of SIM, then of each GPU run.
per_app() { python3 - "$@" <<'PY'
import csv, gzip, json, os, statistics, sys
sim, gpus, pols = sys.argv[1], sys.argv[2].split(','), sys.argv[3].split(',')
opn = lambda p: open(p) if os.path.exists(p) else gzip.open(p + '.gz', 'rt')   # stored runs keep tasks.csv gzipped
dur = json.load(open(gpus[0] + '/summary.json'))['duration_ms'] / 1e3
def load(d):
    ks = list(csv.DictReader(open(d + '/kernels.csv')))
    tp = d + '/tasks.csv'
    done = ([int(t['tasks_done']) / int(t['tasks']) for t in csv.DictReader(opn(tp))]
            if os.path.exists(tp) or os.path.exists(tp + '.gz') else [1.0] * len(ks))
    out = {}
    for k, f in zip(ks, done):
        if k['frame'] == '-1':
            o = out.setdefault((k['policy'], k['owner']), [0.0, []])
            o[0] += int(k['solo_ns']) * f / 1e9 / dur
            o[1].append((int(k['start_ns']), int(k['end_ns'])))
    return {key: (thr, statistics.median(b[0] - a[1] for a, b in zip(sorted(v), sorted(v)[1:])) / 1e3) for key, (thr, v) in out.items()}
runs = [load(sim)] + [load(g) for g in gpus]
out = []
for p in pols:
    apps = sorted(a for q, a in runs[0] if q == p)
    out.append('%s: %s' % (p, ', '.join('%s %s' % (a, ' / '.join('%.3f (%.0f us)' % r[(p, a)] for r in runs if (p, a) in r)) for a in apps)))
print('; '.join(out))
PY
}
# BE apps with a kernel that ran over 5x its kernel's median, per policy starting with PREFIX: "SIM / GPU"
slow_apps() { python3 - "$@" <<'PY'
import csv, statistics, sys
def slow(d, prefix):
    rows = [r for r in csv.DictReader(open(d + '/kernels.csv')) if r['frame'] == '-1' and r['policy'].startswith(prefix)]
    dur = lambda r: int(r['end_ns']) - int(r['start_ns'])
    med = {}
    for r in rows:
        med.setdefault((r['policy'], r['kernel']), []).append(dur(r))
    med = {k: statistics.median(v) for k, v in med.items()}
    out = {}
    for r in rows:
        out.setdefault(r['policy'], set())
        if dur(r) > 5 * med[(r['policy'], r['kernel'])]:
            out[r['policy']].add(r['owner'])
    return out
a, b = slow(sys.argv[1], sys.argv[3]), slow(sys.argv[2], sys.argv[3])
print('; '.join('%s %s / %s' % (p, ', '.join(sorted(a.get(p, ()))) or 'none', ', '.join(sorted(b.get(p, ()))) or 'none') for p in sorted(set(a) | set(b))))
PY
}
fallbacks() { python3 -c "
import csv,gzip,json,os
opn = lambda p: open(p) if os.path.exists(p) else gzip.open(p + '.gz', 'rt')
gpu={}
for r in csv.DictReader(opn('$(real static)/tasks.csv')):
    gpu[r['policy']]=gpu.get(r['policy'],0)+int(r['fallback'])
sim={r['policy']:int(r['smbound_fallbacks']) for r in json.load(open('$tmp/x-static/summary.json'))['runs']}
print('; '.join('%s: GPU %d, simulator %d' % (p, gpu.get(p,0), sim.get(p,0)) for p in sorted(set(gpu)|set(sim))))
"; }
# COMBO (cuda/experiments/h100_combo.json): a section only when its GPU run is stored
COMBO_RUN=$(real combo)
# the per-SM quota checked on an idle GPU (P7 of `bench placement`), stored with the first COMBO run
# that used the quota
QUOTA_BENCH=cuda/runs/h100-combo-quota/bench-placement-quota
combo_prepare() {
  R=$COMBO_RUN
  [ -d $R ] || return 0
  "$C" run cuda/experiments/h100_combo.json $(solo_sets cuda/experiments/h100_combo.json $R/summary.json) --out "$tmp/x-combo" --quiet
  "$C" validate --sim "$tmp/x-combo/kernels.csv" --real "$R/kernels.csv" --json "$tmp/x-combo.json" \
    | sed "s|^sim:  $tmp/x-combo/|sim:  combosim run cuda/experiments/h100_combo.json -> |" > "$tmp/x-combo.txt"
  python3 cuda/scripts/compare_runs.py "$tmp/x-combo" $R \
    "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['duration_ms'])" $R/summary.json)" \
    "$tmp/x-combo" $R --json "$tmp/c-combo.json" > "$tmp/c-combo.txt"
  # the simulator again with the solo times measured by the run this one supersedes
  P=cuda/runs/h100-combo-quota
  "$C" run cuda/experiments/h100_combo.json $(solo_sets cuda/experiments/h100_combo.json $P/summary.json) --out "$tmp/x-combo-prev" --quiet
  python3 cuda/scripts/compare_runs.py "$tmp/x-combo-prev" $R \
    "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['duration_ms'])" $R/summary.json)" \
    "$tmp/x-combo-prev" $R --json "$tmp/c-combo-prev.json" > /dev/null
}
# combo-exact's kernel median error, simulated with the solo times of this run and of the one it
# supersedes: what moves with a 1-2 % change of the measured solo times
solo_sensitivity() { python3 - "$tmp" "$COMBO_RUN" cuda/runs/h100-combo-quota <<'PY'
import csv, json, statistics, sys
tmp, R, P = sys.argv[1:]
solo = lambda d: {c['kernel']: c['measured_solo_us'] for c in json.load(open(d + '/summary.json'))['calibration']}
sr, sp = solo(R), solo(P)
def be(d):
    rows = [r for r in csv.DictReader(open(d + '/kernels.csv')) if r['policy'] == 'combo-exact' and r['frame'] == '-1']
    dur = lambda r: (int(r['end_ns']) - int(r['start_ns'])) / 1e6
    med = {k: statistics.median(dur(r) for r in rows if r['kernel'] == k) for k in {r['kernel'] for r in rows}}
    slow = [r for r in rows if dur(r) > 5 * med[r['kernel']]]
    mean = {k: statistics.mean(dur(r) for r in rows if r['kernel'] == k) for k in med}
    return len(slow), sum(dur(r) for r in slow), sorted({r['kernel'] for r in slow}), mean
def kmed(f):
    return [r for r in json.load(open(f)) if r['policy'] == 'combo-exact'][0]['kernel_err_median']
fb = lambda d: [r for r in json.load(open(d + '/summary.json'))['runs'] if r['policy'] == 'combo-exact'][0]['smbound_fallbacks']
a, b = be(tmp + '/x-combo-prev'), be(tmp + '/x-combo')
ga, gb = be(P), be(R)
ks = sorted(a[3])
print('BE solo times measured by %s / by this run: %s.  Simulated with the former, BE kernels over 5x their median: %d (%s, %.0f ms in all; %d SM-bound fallbacks), '
      'and the combo-exact kernel median error against this GPU run is %.1f %%; with the latter %d (%.0f ms; %d fallbacks), and %.1f %%.  Mean BE kernel duration, ms, simulated with '
      'the former / with the latter / on the GPU in %s / in this run: %s.  The GPU\'s move far less between its two runs than the simulated ones between the two sets of solo times.' % (
    P, ', '.join('%s %.0f / %.0f us' % (k, sp[k], sr[k]) for k in sorted(sr) if k.startswith('be_')),
    a[0], ', '.join(a[2]) or '-', a[1], fb(tmp + '/x-combo-prev'), 100 * kmed(tmp + '/c-combo-prev.json'),
    b[0], b[1], fb(tmp + '/x-combo'), 100 * kmed(tmp + '/c-combo.json'), P,
    '; '.join('%s %.2f / %.2f / %.2f / %.2f' % (k, a[3][k], b[3][k], ga[3][k], gb[3][k]) for k in ks)))
PY
}
combo_section() {
  R=$COMBO_RUN
  [ -d $R ] || return 0
  cat <<CMB

## Development: COMBO ($R)

The game above beside two BE apps of one DNN, a tensor-core app (TC 1.5 ms) and a CUDA-core
app (CD 0.4 ms), one stream each; be-alone (the two apps alone) is the throughput ratio's
denominator.  Both sides run policies/combo.c's decisions (on the GPU through the CUDA
backend).  combo-exact: 10 frames of the game alone, then
per frame Eq. 5's render group of n SMs on the last measured render time (closed loop: each
side measures its own frames), render kernels SM-bound to it (original when it grows), the BE
kernels SM-bound to the other SMs, one in flight per app, each grid filling every SM to
occupancy with a per-SM quota of half an SM's blocks (workers beyond it exit on landing: a
per-SM counter in cuda/kernels.cu, \`sm_quota\` in the simulator), launched only when the BE SMs
have room for the quota beside the other app's kernel (apps held back for room first).
combo-intra (relaxed intra-SM sharing, no headroom merging): after the same 10 frames alone, render kernels PTB on the whole GPU; one BE CD kernel at a
time beside the frame's RT kernel when the frame, slowed by RT+CD, is predicted to meet QoS and
the BE kernel to end within the RT phase (start + the last unshared RT kernel time x RT+CD; the
GPU side sees the RT kernel's end by polling its event); no BE TC kernel beside a frame; between
frames BE kernels, CD and TC together, when predicted (x the pairwise slowdown against the BE
kernels in flight) to fit before the next release; BE kernels PTB over every SM with half an
SM's blocks per app.$(python3 -c "
import json
if 'combo-intra' not in [r['policy'] for r in json.load(open('$R/summary.json'))['runs']]:
    print('\\nThe stored GPU run predates this replay: no combo-intra row until $R is rerun (its\\nsimulated kernels count as only in sim below).')")

- throughput ratio (sim / GPU): $(python3 -c "
import json
print(' / '.join('%s %.3f / %.3f' % (r['policy'], r['be_ratio_sim'], r['be_ratio_real']) for r in json.load(open('$tmp/c-combo.json')) if r.get('be_ratio_sim') is not None and r['policy'] != 'be-alone'))")
- frame latency error and FPS: see the table below
- mean BE kernel duration, ms (sim / GPU): $(python3 -c "
import csv
def means(path):
    m = {}
    for r in csv.DictReader(open(path)):
        if r['owner'] != 'game':
            k = (r['policy'], r['kernel']); d = (int(r['end_ns']) - int(r['start_ns'])) / 1e6
            s, n = m.get(k, (0, 0)); m[k] = (s + d, n + 1)
    return {k: s / n for k, (s, n) in m.items()}
a, b = means('$tmp/x-combo/kernels.csv'), means('$R/kernels.csv')
print('; '.join('%s %s %.2f / %.2f' % (k[0], k[1], a[k], b[k]) for k in sorted(a) if k in b))")

- mean game RT kernel duration by variant, ms (sim / GPU): $(python3 -c "
import csv
def means(path):
    m = {}
    for r in csv.DictReader(open(path)):
        if r['owner'] == 'game' and r['class'] == 'RT':
            k = (r['policy'], r['variant']); d = (int(r['end_ns']) - int(r['start_ns'])) / 1e6
            s, n = m.get(k, (0, 0)); m[k] = (s + d, n + 1)
    return {k: s / n for k, (s, n) in m.items()}
a, b = means('$tmp/x-combo/kernels.csv'), means('$R/kernels.csv')
print('; '.join('%s %s %.2f / %.2f' % (k[0], k[1], a[k], b[k]) for k in sorted(a) if k in b))")

- both BE apps with a kernel running, fraction of combo-exact's time from its first SM-bound BE kernel on (sim / GPU): $(be_overlap $tmp/x-combo $R)

The misses of the model here (the PTB RT kernel alone matches: both sides launch no more PTB
workers than tasks):
- **The two BE apps share the BE group on both sides** (the line above).  They do in the
  simulator because the blocks of an SM-bound grid that land and exit at once (outside their
  set, or beyond the quota) free their room: sim/dispatch.c places such a grid again within the
  dispatch pass while it still lands blocks (tests/test_engine.c, "SM-bound workers that exit
  on landing free their room at once"), or, on a GPU whose description gives an exit time (the
  H100's: the second workload's section), once their exit is done.  Were that room kept for the
  rest of the pass, a grid over every SM would leave blocks waiting and the leftover rule would
  hold the other app's kernels back: the apps would take turns.  With the two apps overlapping
  on both sides, what remains per kernel is the CD+TC co-run miss (below): the H100 runs the
  CUDA-core kernels near their solo time and stretches the tensor-core ones far more than the
  simulator, which stretches both (the mean BE kernel durations above); the BE throughput, a
  sum over both, agrees much better than either.
- **combo-exact's per-kernel errors turn on whether a BE kernel is trapped in the simulated
  run**, and that turns on launch timing to the microsecond: while a TC kernel is trapped or
  fallen back the CD app runs near its solo time, as on the GPU; otherwise the CD+TC miss
  above is every CD kernel's.  $(solo_sensitivity)  So the kernel median error is the
  simulated run's state, not a stable measure of the model; the BE throughput and the ratio are.
- **Trapped or fallen-back BE kernels** (the lines below): BE kernels of combo-exact that ran
  over 5x their kernel's median (sim / GPU): $(be_trapped $tmp/x-combo $R).  On the GPU
  $(be_trap_cause $R).  The simulator traps BE kernels too (the exit hold: the second
  workload's section); whether one is caught in a run this short depends on launch timing to
  the microsecond (the second workload, with many, is the comparison to read).
- **Eq. 5's closed loop settles elsewhere.**  The H100 renders the SM-bound frames faster per
  SM than simulated (the RT line above: fewer SMs, shorter), so its render group is smaller
  and moves by one SM: a frame on the smaller group misses QoS by a little and the next one
  grows the group with original kernels; the simulator's group settles.  A frame that runs
  original kernels on one side and SM-bound on the other is not comparable: the frame-latency
  p90 is those frames.
- **RT beside BE CUDA-core kernels** slows far more than the RT+CD calibration predicts
  (combo-intra: the emulated RT kernel is CUDA-core and load/store work itself), so
  combo-intra's frames run slower on the GPU than simulated.  Per kernel the two BE apps share
  the GPU differently on the two sides: the H100 runs the CUDA-core kernels near their solo
  time and stretches the tensor-core ones, the simulator (H100 CD+TC calibration: no overlap,
  age discipline) stretches both less unevenly.
- run to run on the GPU, BE throughput: cuda/runs/h100-combo to cuda/runs/h100-combo-b (two runs of one binary, the runner before the per-SM quota) $(run_to_run cuda/runs/h100-combo cuda/runs/h100-combo-b); cuda/runs/h100-combo-quota (the runner with its own copy of each policy) to $R (policies/*.c through the CUDA backend), the policies whose mechanism did not change (be-alone queued two kernels per app in the former, one in flight now) $(run_to_run cuda/runs/h100-combo-quota $R be-alone)
- render SMs at the end, partition changes, frames with original render kernels, BE kernels launched in the exact scheme and SM-bound fallbacks (sim / GPU): $(python3 -c "
import json
s={r['policy']:r for r in json.load(open('$tmp/x-combo/summary.json'))['runs']}
g={r['policy']:r for r in json.load(open('$R/summary.json'))['runs']}
print('; '.join('%s: %s / %s, %s / %s, %s / %s, %s / %s, %s / %s' % (p, s[p]['combo'].get('render_sms_last'), g[p]['combo'].get('render_sms_last'),
      s[p]['combo'].get('partition_changes'), g[p]['combo'].get('partition_changes'),
      s[p]['combo'].get('original_kernel_frames'), g[p]['combo'].get('original_kernel_frames'),
      s[p]['combo'].get('be_launched_exact'), g[p]['combo'].get('be_launched_exact'),
      s[p].get('smbound_fallbacks'), g[p].get('smbound_fallbacks', g[p]['combo'].get('smbound_fallbacks'))) for p in g if p in s and g[p].get('combo')))")
- the GPU's SM-bound fallback kernels (policy kernel: its duration, ms): $(python3 -c "
import csv, gzip, os
opn = lambda p: open(p) if os.path.exists(p) else gzip.open(p + '.gz', 'rt')
fb = {(r['policy'], r['kernel'], r['launch_ns']) for r in csv.DictReader(opn('$R/tasks.csv')) if r['fallback'] != '0'}
print('; '.join('%s %s: %.1f' % (r['policy'], r['kernel'], (int(r['end_ns']) - int(r['start_ns'])) / 1e6)
                for r in csv.DictReader(open('$R/kernels.csv')) if (r['policy'], r['kernel'], r['launch_ns']) in fb) or 'none')")
- the per-SM quota on the GPU (combo-exact): workers kept inside per quota x BE SMs, mean $(python3 -c "
import json
r=[r for r in json.load(open('$R/summary.json'))['runs'] if r['policy']=='combo-exact'][0]
g=dict(r['combo'], **{k: v for k, v in r.items() if k.startswith('be_quota')})   # older runs: all in combo
print('%.3f, max %.3f over %d BE kernels (at most 1: no SM kept more than its quota); BE launches held back for room (policies/combo.c be_group_full_waits): %d' % (g['be_quota_fill_mean'], g['be_quota_fill_max'], g['be_quota_kernels'], g.get('be_group_full_waits', g.get('be_held_back_for_room'))))"); on an idle GPU ($QUOTA_BENCH, P7): $(python3 -c "
import json
j=json.load(open('$QUOTA_BENCH/placement.json'))['P7_smbound_quota']
print('quota %d on %d SMs, %d to %d workers kept per SM, %d outside, %d fallbacks, %d of %d tasks run' % (j['quota'], j['set_sms'], j['workers_kept_per_set_sm_min'], j['workers_kept_per_set_sm_max'], j['workers_kept_outside_set'], j['fallbacks'], j['tasks_run'], j['tasks']))")

\`\`\`
$(cat $tmp/c-combo.txt; cat $tmp/x-combo.txt)
\`\`\`
CMB
}
combo_prepare
# the second workload (cuda/experiments/h100_w2.json), every policy on one workload
W2=$(real w2)
"$C" run cuda/experiments/h100_w2.json $(solo_sets cuda/experiments/h100_w2.json $W2/summary.json) --out "$tmp/x-w2" --quiet
"$C" validate --sim "$tmp/x-w2/kernels.csv" --real "$W2/kernels.csv" --json "$tmp/x-w2.json" \
  | sed "s|^sim:  $tmp/x-w2/|sim:  combosim run cuda/experiments/h100_w2.json -> |" > "$tmp/x-w2.txt"
python3 cuda/scripts/compare_runs.py "$tmp/x-w2" $W2 \
  "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['duration_ms'])" $W2/summary.json)" \
  "$tmp/x-w2" $W2 --json "$tmp/c-w2.json" > "$tmp/c-w2.txt"
# The fraction of combo-exact's time, from its first SM-bound BE kernel's start to the last BE
# kernel's end, during which the two BE apps both have a kernel running: "SIM / GPU" of run
# directories SIM and GPU.
be_overlap() { python3 - "$@" <<'PY'
import csv, sys
def both(d):
    iv = {}
    rows = [r for r in csv.DictReader(open(d + '/kernels.csv')) if r['policy'] == 'combo-exact' and r['frame'] == '-1']
    start = min(int(r['start_ns']) for r in rows if r['variant'] == 'smbound')
    for r in rows:
        iv.setdefault(r['owner'], []).append((max(int(r['start_ns']), start), int(r['end_ns'])))
    end = max(e for v in iv.values() for _, e in v)
    a, b = [sorted(x for x in v if x[1] > x[0]) for v in iv.values()]
    i = j = inter = 0
    while i < len(a) and j < len(b):
        inter += max(0, min(a[i][1], b[j][1]) - max(a[i][0], b[j][0]))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return inter / (end - start)
print('%.2f / %.2f' % (both(sys.argv[1]), both(sys.argv[2])))
PY
}
# combo-exact's BE kernels that ran over 5x their kernel's median in the run, "SIM / GPU" of run
# directories SIM and GPU: how many, the time they ran, and how many started within 5 ms after
# the start of a frame that ran original (unbound) render kernels.
be_trapped() { python3 - "$@" <<'PY'
import csv, statistics, sys
def trapped(d):
    rows = [r for r in csv.DictReader(open(d + '/kernels.csv')) if r['policy'] == 'combo-exact']
    orig = {}
    for r in rows:
        if r['frame'] != '-1' and r['variant'] == 'original':
            orig[r['frame']] = min(orig.get(r['frame'], 1 << 62), int(r['start_ns']))
    be = [r for r in rows if r['frame'] == '-1']
    dur = lambda r: int(r['end_ns']) - int(r['start_ns'])
    med = {k: statistics.median(dur(r) for r in be if r['kernel'] == k) for k in {r['kernel'] for r in be}}
    slow = [r for r in be if dur(r) > 5 * med[r['kernel']]]
    near = sum(1 for r in slow if any(0 <= int(r['start_ns']) - t <= 5000000 for t in orig.values()))
    return len(slow), sum(dur(r) for r in slow) / 1e6, near
a, b = trapped(sys.argv[1]), trapped(sys.argv[2])
print('%d / %d kernels, %.0f / %.0f ms in all, %d / %d of them starting within 5 ms after an original-kernel frame' % (a[0], b[0], a[1], b[1], a[2], b[2]))
PY
}
# On the GPU run GPU (its tasks.csv), combo-exact's SM-bound BE kernels that ran over 5x their
# kernel's median against the others: the workers they kept (blocks - exited) and how soon after
# the previous BE launch they were launched.
be_trap_cause() { python3 - "$@" <<'PY'
import csv, gzip, os, statistics, sys
opn = lambda p: open(p) if os.path.exists(p) else gzip.open(p + '.gz', 'rt')
d = sys.argv[1]
ker = {(r['kernel'], r['launch_ns']): r for r in csv.DictReader(open(d + '/kernels.csv')) if r['policy'] == 'combo-exact'}
tasks = [r for r in csv.DictReader(opn(d + '/tasks.csv')) if r['policy'] == 'combo-exact' and r['frame'] == '-1']
launches = sorted(int(r['launch_ns']) for r in tasks)
dur = lambda k: int(k['end_ns']) - int(k['start_ns'])
med = {}
for r in tasks:
    med.setdefault(r['kernel'], []).append(dur(ker[(r['kernel'], r['launch_ns'])]))
med = {k: statistics.median(v) for k, v in med.items()}
rows = []
for r in tasks:
    k = ker[(r['kernel'], r['launch_ns'])]
    if k['variant'] != 'smbound':
        continue
    at = int(r['launch_ns'])
    gap = at - max((x for x in launches if x < at), default=at - 10**12)
    rows.append((dur(k) > 5 * med[r['kernel']], int(k['blocks']) - int(r['blocks_exited']), gap / 1e3))
def part(slow):
    x = [r for r in rows if r[0] == slow]
    return (len(x), statistics.median(r[1] for r in x), min(r[1] for r in x), max(r[1] for r in x),
            100 * sum(r[2] < 20 for r in x) / len(x)) if x else (0, 0, 0, 0, 0)
a, b = part(True), part(False)
print('the %d slow ones kept %g workers in the median (%d-%d), the %d others %g (%d-%d); launched within 20 us of the previous BE launch: %.0f %% of the slow ones, %.0f %% of the others' % (a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3], a[4], b[4]))
PY
}
# combo-exact's SM-bound render kernels, median ms: on the GPU run GPU while a BE kernel that ran
# over 5x its kernel's median covers most of the kernel, on the GPU otherwise, and simulated (SIM).
render_beside() { python3 - "$@" <<'PY'
import csv, statistics, sys
def load(d):
    rows = [r for r in csv.DictReader(open(d + '/kernels.csv')) if r['policy'] == 'combo-exact']
    be = [r for r in rows if r['frame'] == '-1']
    dur = lambda r: int(r['end_ns']) - int(r['start_ns'])
    med = {k: statistics.median(dur(r) for r in be if r['kernel'] == k) for k in {r['kernel'] for r in be}}
    slow = [(int(r['start_ns']), int(r['end_ns'])) for r in be if dur(r) > 5 * med[r['kernel']]]
    out = {}
    for r in rows:
        if r['frame'] != '-1' and r['variant'] == 'smbound':
            s, e = int(r['start_ns']), int(r['end_ns'])
            cover = sum(max(0, min(e, b) - max(s, a)) for a, b in slow) / max(1, e - s)
            out.setdefault((r['kernel'], cover > 0.5), []).append(dur(r) / 1e6)
    return out
sim, gpu = load(sys.argv[1]), load(sys.argv[2])
m = lambda d, k: '%.2f' % statistics.median(d[k]) if k in d else '-'
print('; '.join('%s %s / %s / %s' % (k, m(gpu, (k, True)), m(gpu, (k, False)), m(sim, (k, False)))
                for k in sorted({k for k, _ in gpu})))
PY
}
# The GPU's run-to-run difference of each policy's BE throughput (solo time of the BE kernels
# that ended in the run) between two stored runs A and B; policies named after them are left out.
run_to_run() { python3 - "$@" <<'PY'
import csv, sys
def thr(d):
    tot = {}
    for r in csv.DictReader(open(d + '/kernels.csv')):
        if r['frame'] == '-1':
            tot[r['policy']] = tot.get(r['policy'], 0) + int(r['solo_ns'])
    return tot
a, b, skip = thr(sys.argv[1]), thr(sys.argv[2]), sys.argv[3:]
print(', '.join('%s %+.1f %%' % (p, 100 * (b[p] - a[p]) / a[p]) for p in a if p in b and p not in skip))
PY
}
# POLICY's BE launches: the median time from a BE kernel's end to the next BE launch (those within
# 1 ms: the host's reaction; longer ones wait for the next idle window), BE kernels launched per
# frame and BE throughput, for SIM and each GPU run: "SIM / GPU1 / GPU2 ..."
be_reaction() { python3 - "$@" <<'PY'
import csv, json, statistics, sys
pol, dirs = sys.argv[1], sys.argv[2:]
def one(d):
    ks = sorted((r for r in csv.DictReader(open(d + '/kernels.csv')) if r['policy'] == pol and r['frame'] == '-1'),
                key=lambda r: int(r['launch_ns']))
    gap = [int(b['launch_ns']) - int(a['end_ns']) for a, b in zip(ks, ks[1:])]
    frames = sum(1 for r in csv.DictReader(open(d + '/frames.csv')) if r['policy'] == pol and r['dropped'] == '0')
    return (statistics.median(g for g in gap if g < 1000000) / 1e3, len(ks) / frames, sum(int(r['solo_ns']) for r in ks) / 1e9 / 1.5)
v = [one(d) for d in dirs]
print('reaction, median us: %s; BE kernels per frame: %s; BE throughput (solo-s/s of kernels that ended): %s' % tuple(
    ' / '.join(f % x[i] for x in v) for i, f in ((0, '%.0f'), (1, '%.2f'), (2, '%.3f'))))
PY
}
# Kernels of POLICY's frames rendered SM-bound on one side and original on the other (matched as
# compare_runs.py matches them: owner, kernel, occurrence), their median error, and the p90 of
# the others
variant_mismatch() { python3 - "$@" <<'PY'
import csv, statistics, sys
def load(d, pol):
    occ, out = {}, {}
    for k in csv.DictReader(open(d + '/kernels.csv')):
        if k['policy'] == pol:
            key = (k['owner'], k['kernel'])
            n = occ.get(key, 0)
            occ[key] = n + 1
            out[key + (n,)] = (int(k['end_ns']) - int(k['start_ns']), k['variant'])
    return out
S, R = load(sys.argv[1], sys.argv[3]), load(sys.argv[2], sys.argv[3])
pct = lambda v, q: sorted(v)[int(q * (len(v) - 1))] if v else float('nan')
cat = {}
for x in S:
    if x in R and R[x][0] > 0:
        c = (S[x][1], R[x][1]) if {S[x][1], R[x][1]} == {'smbound', 'original'} else 'same'
        cat.setdefault(c, []).append(abs(S[x][0] - R[x][0]) / R[x][0])
m = lambda c: '%d (median error %.0f %%)' % (len(cat[c]), 100 * statistics.median(cat[c])) if c in cat else '0'
print('SM-bound simulated and original on the GPU %s, the reverse %s; the p90 of the other kernels %.1f %%' % (
    m(('smbound', 'original')), m(('original', 'smbound')), 100 * pct(cat.get('same', []), 0.9)))
PY
}
# combo (switching) against combo-exact: the policy's scheme decisions on both sides, Eq. 2-3's
# spread over 10 consecutive SM-bound frames of combo-exact (render time x SMs / all SMs, as
# policies/combo.c scales it), and the frame latency by scheme
combo_switching() { python3 - "$@" <<'PY'
import csv, json, re, statistics, sys
S, G = sys.argv[1], sys.argv[2]
run = lambda d, p: ([r for r in json.load(open(d + '/summary.json'))['runs'] if r['policy'] == p] or [{}])[0].get('combo')
s, g = run(S, 'combo'), run(G, 'combo')
if not s or not g:
    print('no combo run on %s' % ('the GPU' if s else 'either side'))
    sys.exit()
def spread(d):
    xs = []
    for f in csv.DictReader(open(d + '/frames.csv')):
        m = re.match(r'exact-(\d+)$', f['note'])
        if f['policy'] == 'combo-exact' and f['dropped'] == '0' and m:
            xs.append((int(f['finish_ns']) - int(f['start_ns'])) * int(m.group(1)))
    w = [(max(x) - min(x)) / statistics.mean(x) for x in (xs[i:i + 10] for i in range(len(xs) - 9))]
    return statistics.median(w), sum(v >= 0.1 for v in w), len(w)
def lat(d):
    out = {}
    for f in csv.DictReader(open(d + '/frames.csv')):
        if f['policy'] == 'combo' and f['dropped'] == '0':
            out.setdefault('exact' if f['note'].startswith('exact') else 'relaxed', []).append(int(f['latency_ns']) / 1e6)
    return {k: statistics.median(v) for k, v in out.items()}
a, b = spread(S), spread(G)
la, lb = lat(S), lat(G)
print('scheme switches %d / %d, frames in the exact scheme %d / %d, relaxed %d / %d (merged %d / %d).  '
      'Eq. 2-3 leave the exact scheme when (max - min) / mean of the last 10 measured render times '
      '(scaled to the whole GPU) reaches 10 %%; over 10 consecutive SM-bound frames of combo-exact (the '
      'same game, exact only) that spread is %.1f %% in the median and reaches 10 %% in %d of %d windows '
      'simulated, %.1f %% and %d of %d on the GPU.  Median frame latency, ms, exact / relaxed frames: '
      'simulated %s, GPU %s' % (
    s['scheme_switches'], g['scheme_switches'], s['frames_exact'], g['frames_exact'], s['frames_relaxed'], g['frames_relaxed'],
    s['merged_frames'], g['merged_frames'], 100 * a[0], a[1], a[2], 100 * b[0], b[1], b[2],
    ' / '.join('%.2f' % la[k] if k in la else '-' for k in ('exact', 'relaxed')),
    ' / '.join('%.2f' % lb[k] if k in lb else '-' for k in ('exact', 'relaxed'))))
PY
}
# the headline numbers of every full experiment (development), one row per policy
summary() { python3 - "$tmp" <<'PY'
import json, os, sys
tmp = sys.argv[1]
rows = []
for n, w in (('exclusive', 1), ('static', 1), ('pilotfish', 1), ('combo', 1), ('w2', 2)):
    f = os.path.join(tmp, 'c-%s.json' % n)
    if os.path.exists(f):
        rows += [(w, r) for r in json.load(open(f)) if not (n == 'combo' and r['policy'] == 'be-alone')]
pct = lambda v: '-' if v is None else '%.1f %%' % (100 * v)
print('| workload | policy | kernel error median | kernel error p90 | frame latency error median | BE throughput error | throughput-ratio error |')
print('|---|---|---|---|---|---|---|')
for w, r in rows:
    ratio = '(denominator)' if r['policy'] == 'be-alone' else pct(r.get('be_ratio_err'))
    print('| %d | %s | %s | %s | %s | %s | %s |' % (w, r['policy'], pct(r.get('kernel_err_median')), pct(r.get('kernel_err_p90')),
          pct(r.get('frame_latency_err_median')), pct(r.get('be_thr_err')), ratio))
print()
print('Workload 1: the game of cuda/experiments/h100_{exclusive,static,pilotfish,combo}.json (60 fps); '
      'workload 2: cuda/experiments/h100_w2.json (120 fps, other shapes), every policy.')
held = json.load(open(os.path.join(tmp, 'held.json')))
m = held['pair_makespan_error']
print()
print('Co-run set 2 (development): makespan error median %.1f %%, p90 %.1f %%, max %.1f %%.  '
      'Sections below: what each number means and where the model misses.' % (100 * m['median'], 100 * m['p90'], 100 * m['max']))
print()
print('Rows whose number turns on one event more than on the model, each explained in its section: '
      'static-66 / static-88 (which BE app falls back or is trapped, and the GPU\'s gap between an app\'s '
      'kernels: full experiments), combo-exact in workload 1 (its kernel errors, whether a simulated BE '
      'kernel is trapped: COMBO), combo in workload 2 (its scheme decisions: second workload).')
PY
}
# three runs of the same binary per experiment (the one the summary compares, -rep2, -rep3): the GPU's own
# run-to-run spread, against which a single run's error is to be read
rep_dirs() { echo "$(real $1) cuda/runs/h100-$1-rep2 cuda/runs/h100-$1-rep3"; }
repeat_prepare() {
  for n in exclusive static pilotfish combo w2; do
    i=0
    for d in $(rep_dirs $n); do
      i=$((i + 1))
      [ -d "$d" ] || continue
      case $n in
      combo|w2) bs="$tmp/x-$n"; br="$d" ;;
      *) bs="$tmp/x-exclusive"; br=$(echo "$(rep_dirs exclusive)" | cut -d' ' -f$i) ;;
      esac
      python3 cuda/scripts/compare_runs.py "$tmp/x-$n" "$d" "$(dur_of $d/summary.json)" "$bs" "$br" \
        --json "$tmp/rep-$n-$i.json" > /dev/null
    done
  done
  python3 - "$tmp" > "$tmp/rep.md" <<'PY'
import json, os, sys
tmp = sys.argv[1]
print('| workload | policy | GPU BE throughput, 3 runs | GPU spread | sim | BE throughput error, each run | throughput-ratio error, each run |')
print('|---|---|---|---|---|---|---|')
for w, names in (('1', ('exclusive', 'static', 'pilotfish', 'combo')), ('2', ('w2',))):
    for n in names:
        runs = [json.load(open(os.path.join(tmp, 'rep-%s-%d.json' % (n, i))))
                for i in (1, 2, 3) if os.path.exists(os.path.join(tmp, 'rep-%s-%d.json' % (n, i)))]
        for row in runs[0]:
            p = row['policy']
            if row.get('be_thr_real') is None or row['be_thr_real'] <= 0:
                continue
            rs = [next(r for r in run if r['policy'] == p) for run in runs]
            thr = [r['be_thr_real'] for r in rs]
            spread = (max(thr) - min(thr)) / (sum(thr) / len(thr))
            fmt = lambda v: '-' if v is None else '%.1f %%' % (100 * v)
            print('| %s | %s | %s | %.1f %% | %.3f | %s | %s |' % (
                w, p, ' / '.join('%.3f' % t for t in thr), 100 * spread, row['be_thr_sim'],
                ' / '.join(fmt(r.get('be_thr_err')) for r in rs),
                ' / '.join(fmt(r.get('be_ratio_err')) for r in rs)))
PY
}
repeat_prepare
# closed-loop games: vGASA's pacing and the hooks experiment, each against its GPU run
closed_prepare() {
  "$C" run experiments/vgasa/h100_vgasa.json $(solo_sets experiments/vgasa/h100_vgasa.json cuda/runs/h100-vgasa/summary.json) --out "$tmp/x-vgasa" --quiet
  python3 cuda/scripts/compare_frames.py "$tmp/x-vgasa" cuda/runs/h100-vgasa "$(dur_of cuda/runs/h100-vgasa/summary.json)" > "$tmp/f-vgasa.md"
  # the scene workload: trace-driven frames, so the kernels' targets (not the measured solo
  # times: every frame's kernels come from the trace) on the simulator's side
  "$C" run experiments/vgasa/h100_vgasa_scenes.json --out "$tmp/x-vgasa-scenes" --quiet
  python3 cuda/scripts/compare_frames.py "$tmp/x-vgasa-scenes" cuda/runs/h100-vgasa-scenes "$(dur_of cuda/runs/h100-vgasa-scenes/summary.json)" > "$tmp/f-vgasa-scenes.md"
  sh experiments/vgasa/extract.sh "$tmp/x-vgasa-scenes" > "$tmp/v-sim.csv"
  sh experiments/vgasa/extract.sh cuda/runs/h100-vgasa-scenes > "$tmp/v-gpu.csv"
  awk -F, 'FNR == NR { if ($2 == "mean") s[$1 "," $4] = $5; next }
    $2 == "mean" && ($4 == "gpu_usage_mean" || $4 == "gpu_usage_min" || $4 == "gpu_usage_max" || $4 == "fsa_moves") { g[$1 "," $4] = $5; if (!($1 in seen)) { seen[$1] = 1; ord[++n] = $1 } }
    END { print "| policy | GPU usage mean % sim / GPU | min % | max % | FSA moves sim / GPU |"; print "|---|---|---|---|---|"
      for (i = 1; i <= n; i++) { p = ord[i]
        printf "| %s | %.1f / %.1f | %.1f / %.1f | %.1f / %.1f | %s |\n", p, 100 * s[p ",gpu_usage_mean"], 100 * g[p ",gpu_usage_mean"],
          100 * s[p ",gpu_usage_min"], 100 * g[p ",gpu_usage_min"], 100 * s[p ",gpu_usage_max"], 100 * g[p ",gpu_usage_max"],
          (p ",fsa_moves") in g ? s[p ",fsa_moves"] " / " g[p ",fsa_moves"] : "-" } }' "$tmp/v-sim.csv" "$tmp/v-gpu.csv" > "$tmp/u-vgasa-scenes.md"
  "$C" run cuda/experiments/h100_hooks.json $(solo_sets cuda/experiments/h100_hooks.json $(real hooks)/summary.json) --out "$tmp/x-hooks" --quiet
  python3 cuda/scripts/compare_frames.py "$tmp/x-hooks" "$(real hooks)" "$(dur_of $(real hooks)/summary.json)" > "$tmp/f-hooks.md"
  python3 cuda/scripts/compare_runs.py "$tmp/x-hooks" "$(real hooks)" "$(dur_of $(real hooks)/summary.json)" \
    "$tmp/x-hooks" "$(real hooks)" --json "$tmp/c-hooks.json" > "$tmp/c-hooks.txt"
}
closed_prepare
# the sim paths are temporary: name the experiment instead
sed -i "s|^sim:  $tmp/cal/|sim:  combosim run cuda/experiments/h100_corun_calibration.json -> |; s|^sim:  $tmp/held/|sim:  combosim run cuda/experiments/h100_corun_heldout.json -> |" "$tmp/cal.txt" "$tmp/held.txt"
# the sections written by their own scripts (cuda/scripts/*_section.sh, validation_runs.sh): run
# here, so that one that fails stops the generator.  Each test set's section also appends its row
# of the test-set summary to VALIDATION_SUMMARY (figures it computes for its own text), in this
# order.
export VALIDATION_SUMMARY="$tmp/test-sets.md"
: > "$VALIDATION_SUMMARY"
sh cuda/scripts/validation_runs.sh > "$tmp/runs.md"
sh cuda/scripts/smqos_section.sh "$C" > "$tmp/s-smqos.md"
sh cuda/scripts/gspace_section.sh > "$tmp/s-gspace.md"
sh cuda/scripts/validation_traces.sh "$C" > "$tmp/s-traces.md"
sh cuda/scripts/validation_issue.sh "$C" > "$tmp/s-issue.md"
sh cuda/scripts/dispatch_section.sh "$C" > "$tmp/s-dispatch.md"
sh cuda/scripts/pileup_section.sh "$C" > "$tmp/s-pileup.md"
sh cuda/scripts/drain_section.sh "$C" > "$tmp/s-drain.md"
sh cuda/scripts/h200_section.sh "$C" > "$tmp/s-h200.md"
sh cuda/scripts/ready_section.sh "$C" > "$tmp/s-ready.md"
sh cuda/scripts/h200_full_section.sh "$C" > "$tmp/s-h200-full.md"
# the cross-policy comparison's GPU check (cuda/runs/h100-compare2, no section here): rank.py's
# figures, read from experiments/compare/README.md as `make compare` generated it from that run
python3 - experiments/compare/README.md >> "$VALIDATION_SUMMARY" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
fams = []
for m in re.finditer(r'^#### (\w+) family on the H100: (.*)$', text, re.M):
    body = text[m.end():].split('\n#### ')[0]
    r = re.search(r'Spearman rank correlation over (\d+) policies[^:]*: BE throughput ([-\d.]+), QoS violation rate ([-\d.]+)\.', body)
    d = re.search(r'Pairs ordered differently by BE throughput: (\d+) of (\d+)', body)
    if r and d:
        fams.append('%s %s / %s (%s policies; %s of %s pairs ordered differently by BE throughput)' % (
            m.group(1), r.group(2), r.group(3), r.group(1), d.group(1), d.group(2)))
    else:
        fams.append('%s: no GPU result' % m.group(1))
if not fams:
    sys.exit('experiments/compare/README.md: no "Checked on the H100" family found')
print('| cross-policy comparison (experiments/compare/README.md, Checked on the H100) | cuda/runs/h100-compare2 '
      '| Spearman rank correlation of the policies\' BE throughput / QoS violation rate: %s '
      '| not measured (one run per policy and workload) | no (rankings, not errors) | - |' % '; '.join(fams))
PY
val() { python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print('%.1f' % (100*eval(sys.argv[2])))" "$1" "$2"; }
{
cat <<HDR
# Validation: the simulator against the H100

Generated by \`make cuda-validation\` (cuda/scripts/validation.sh) from the stored runs; do not
edit by hand.  GPU: NVIDIA H100 80GB HBM3 (132 SMs, driver 580.159.04, CUDA 13.0).  RT-class
kernels are combosim-cuda's software BVH traversal on CUDA cores: the H100 has no RT cores.

## Test-set errors

Test sets are runs captured once per model version and only reported, never used for a choice
(issue #19); the runs table below says which set each run belongs to.  Each row's figures are the
ones its section computes, this commit's model against the stored run.  Issue #19's targets: a
kernel's duration error median <= 5 % alone, <= 10 % co-running; a pair's co-run makespan error
median <= 5 %, worst <= 15 %.  GPU spread: (max - min) / median over the run's repetitions.

| test set (section) | runs | simulator against the GPU | GPU spread | issue #19 target | met |
|---|---|---|---|---|---|
$(cat "$VALIDATION_SUMMARY")

- The G-Space test runs have informed a choice since their capture: the H100's \`yield\` keys
  (models/h100.json; fitted on cuda/runs/h100-reshape only) model the two waits that call 3's LC
  latencies showed (G-Space section), so against this model they are no longer a clean test.
- The H100 pair test sets' worst makespans (a kernel launched behind a many-block one) started
  the pile-up development runs and the block drain came of them: those two sets have seen the
  case.  The test set captured after the drain was on an H200 (the block-drain section); the
  H100's is still to capture.  That H200 set is also the test set of models/h200.json, the H200
  described from its own calibration runs (the last section): captured before the description.
  h200-pairs-test5 was captured after RT's path to L2 entered both descriptions (the H200
  section): its shapes put RT on either side.
- RT's path to L2 was chosen on development runs (co-run set 2, the pile-up and power-l2 runs,
  the H100's full experiments) after the test sets above but h200-pairs-test5 were captured;
  they were not read for it.  MEM's share of the path came after h200-pairs-test5 (not read for
  it either) and from a development bench (power-game) written after the H100's static runs
  and h200-full's showed the partitioned game RT kernel too fast: h200-full is therefore no
  longer clean; h200-full2 was captured after it.
- warp_ready (the issue slots a kernel's idle warps leave) was chosen on development runs
  (h200-pairs-dev2, h200-pairs-dev3, h200-pairs-test3, co-run set 2, h200-full) after every
  test set above but h200-pairs-test6 was captured; none of them was read for it.
  h200-pairs-test6 was captured after it.
- The block drain's quantile knots (models/*.json \`block_drain\`) are the least-squares fit of
  the calibration sample's quantile function since its knot at 1 was found to be the sample's
  one slowest block (a drawn spread 1.2-1.8 times the sample's).  The sign that led there, a
  one-wave MEM kernel ending late in LS, was in the development and the test pair tables alike;
  the fix was chosen on the calibration sample's own spread and checked on development sets.
- The pair sets' simulated durations are the simulator's median over seeds 1-5
  (cuda/scripts/compare_pairs.py \`--seeds\`, default 5), against the GPU's median over its
  repetitions: with a drawn drain a pile-up takes whole blocks per SM more or fewer with the
  seed, as it does between the GPU's repetitions.  Decided before any test set was compared so.
  h200-pairs-test9 was captured after both (the H200 section), and h200-pairs-test9s, its
  shapes again, after the pair benches' LS delay kernel came to sleep.  Every pair set captured before carries the old delay, a warp spinning on FMA work that
  slowed the L block on its SM by up to 15 % (cuda/runs/h200-delay): their LS rows' L errors
  hold it.
- The saturation in warps holds per warp scheduler (\`sm.schedulers\`; models/kernel.h
  \`kernel_intrinsic\`: the busiest of the four sets the pace) since it fitted the calibration
  run (h200-describe saturation-warps) better: squared log error CD 0.2466 -> 0.0655, TC 0.483
  -> 0.342, RT 0.481 -> 0.445.  Checked on development sets (h200-pairs-dev2 makespan median
  6.4 -> 3.0 %, h200-delay's worst 84.0 -> 28.0 %, h200-pairs-dev4's worst 14.9 -> 22.7 %, the
  full experiments' second workload's combo-exact BE throughput error on the H100 42 -> 55 %)
  after every test set above but h200-pairs-test10 was captured; none of them was read for it.
  h200-pairs-test10 (new shapes, most of them blocks whose warps do not divide among the four
  schedulers) was captured after it, and h200-pairs-test11 (new shapes again) in the call of
  the development set h200-pairs-dev5, read only after dev5 had been used (two variants of how
  an older kernel's warps leave cycles to a later one, tried on it, were not taken).
- The issue slots are counted per warp scheduler under the age discipline (models/interference.c
  \`age_speeds\`: a later kernel beside warps at 2, 2, 1, 1 on the schedulers runs as beside
  2, 2, 2, 2), chosen on h200-pairs-dev5 (makespan median 11.9 -> 8.6 %) after test10 and
  test11 had been read (test10's rows had pointed at the question).  h200-pairs-test12 (new
  shapes) was captured after it.
- On the H200 what a later kernel keeps beside an older one's warps is a measured table,
  \`warp_left\` (by the two classes and the older kernel's warps per scheduler; the issue
  table refitted with it; no issue_yield), fitted on a calibration bench (h200-describe
  pairs-warps.tgz) and chosen on development runs (h200-pairs-dev6, written for the question,
  and dev5, dev3, dev2, test3, the pair rows of pairs.tgz, co-run set 2: Issue slots a
  kernel's idle warps leave) after every test set above was read.  h200-pairs-test13 (new
  shapes) was captured in the call that first ran pairs-warps and read only after the choice.
  models/h100.json keeps warp_ready and issue_yield.
- On the H200 the block spread goes by the kernel's warps per scheduler (\`block_spread.scale\`:
  CD's blocks on one SM end together at 1-3 warps per scheduler, in turn beyond; MEM's and
  RT's hardly), fitted on a calibration bench (h200-describe pairs-spread.tgz) and chosen on the
  development runs (h200-pairs-dev6's blocks had shown it; the pair and co-run development
  sets) after test13 was read.  h200-pairs-test14 (new pairs) was captured after it: the
  current model's test set.

$(cat $tmp/runs.md)

## Development runs: full experiments (used to choose structure; optimistic)

These runs were called held out until e32c6cd, but the model's structure was chosen on them:
commits quote their errors moving as the model changed (e.g. 7e647f6, the exit hold, on
combo-exact's BE throughput; 24126ad, \`issue_yield\` chosen on workload 1's COMBO rows; acdb621,
the age discipline, on co-run set 2).  A structure picked to fit them fits them better than runs
it has not seen, so their errors are optimistic: the test-set errors above are the ones to quote.
Goal: within 10 %.

$(summary)

## GPU run-to-run spread: three runs of each full experiment

The same binary ran each full experiment three times (the run the summary compares, then \`-rep2\`
and \`-rep3\`, cuda/runs/h100-*-rep2/3, made in one device call after it).  The simulator is run
once, at that run's measured solo times; its error against each GPU run says how much
of a row's error in the summary is one run's luck: where the GPU spread is as large as the
error, one run cannot tell the model's miss from the GPU's noise.

$(cat $tmp/rep.md)

## Development: full experiments (game frames + BE apps under a policy)

One game (RT 2.5 ms + CD 2 ms + MEM 0.5 ms per frame, 60 fps) beside two BE apps (TC 1.5 ms /
CD 0.4 ms, and MEM 1 ms), 1.5 s per policy, replayed on the H100 by \`combosim-cuda run\` and
simulated by \`combosim run\` on the same experiment files.  Kernel duration = end - start;
frame error on latency (finish - release); FPS = frames finished in the duration / duration;
BE throughput = solo-seconds of BE work done per second (on the GPU, an SM-bound kernel's
skipped tasks are not counted: tasks.csv); throughput ratio = BE throughput / BE-alone's.
The makespan of these runs is the duration by construction (both stop at duration_ms), so
the makespan error says nothing here.

- per-kernel duration error, median: $(allc kernel_err_median)
- per-kernel duration error, p90: $(allc kernel_err_p90)
- per-frame latency error, median: $(allc frame_latency_err_median)
- BE throughput error: $(allc be_thr_err)
- BE throughput-ratio error: $(allc be_ratio_err static-66,static-88,pilotfish)
- BE throughput error, signed (sim - GPU) / GPU: $(allc_signed)
- FPS (sim / GPU): $(python3 -c "
import json
rows=[r for n in ('exclusive','static','pilotfish') for r in json.load(open('$tmp/c-%s.json' % n)) if r['frames_matched']]
print(' / '.join('%s %.2f / %.2f' % (r['policy'], r['fps_sim'], r['fps_real']) for r in rows))")

**Where the goal of 10 % is met and where not** (the summary table above).  Game alone and
Pilotfish's kernels and frames (one kind of work on the GPU at a time) are within $(maxerr_alone) %
(kernel median and p90, frame-latency median, both workloads).  Where BE apps co-run on the
same SMs (BE alone, the static split's BE side, COMBO) the per-kernel errors are wide: the
simulator shares the SMs between co-running kernels differently from the H100 kernel by kernel
(here, workload 1's BE alone: the two apps both have a kernel running for a share of the run of
$(both_running $tmp/x-exclusive "$(real exclusive)" be-alone) (sim / GPU); the simulator's
blocks-per-SM calibration (h100-bench-3: one CD or TC block saturates an SM) keeps each kernel
at its solo time and the leftover rule holds the other app's kernel back until room frees),
and the run totals inherit it.  A throughput ratio's error combines the policy's own BE
throughput error with its BE-alone denominator's (sim / GPU ratio = (1 + e) / (1 + e_be-alone),
signed errors: the line above): they offset where both have the same sign and add where not.
The static split's two BE apps compete for the same SM-bound set, and a kernel launched while
that set is full gets no worker inside it; the grid's last block then stays and runs every task
on one SM outside the set (the SM-bound fallback, the same in cuda/kernels.cu and
sim/dispatch.c), for hundreds of ms.  Which kernels fall back depends on launch timing to the
microsecond ($(fallbacks)), so the static runs' p90 kernel errors are those kernels; a policy
must avoid this hazard, and per-kernel matching of it is not a test of the model.  Their BE
throughput, which sums over the run, is the number to read.  BE kernels' median duration, ms
(sim / GPU): $(python3 -c "
import csv, statistics
def med(path):
    m = {}
    for r in csv.DictReader(open(path)):
        if r['frame'] == '-1' and r['policy'].startswith('static'):
            m.setdefault((r['policy'], r['kernel']), []).append((int(r['end_ns']) - int(r['start_ns'])) / 1e6)
    return {k: statistics.median(v) for k, v in m.items()}
a, b = med('$tmp/x-static/kernels.csv'), med('$(real static)/kernels.csv')
print('; '.join('%s %s %.2f / %.2f' % (k[0], k[1], a[k], b[k]) for k in sorted(a) if k in b))").
Kernels that ran over 5x their kernel's median, by kernel, count and time (sim / GPU): $(python3 -c "
import csv, statistics
def slow(path):
    rows = [r for r in csv.DictReader(open(path)) if r['frame'] == '-1' and r['policy'].startswith('static')]
    dur = lambda r: int(r['end_ns']) - int(r['start_ns'])
    med = {}
    for r in rows:
        med.setdefault((r['policy'], r['kernel']), []).append(dur(r))
    med = {k: statistics.median(v) for k, v in med.items()}
    out = {}
    for r in rows:
        k = (r['policy'], r['kernel'])
        if dur(r) > 5 * med[k]:
            n, t = out.get(k, (0, 0))
            out[k] = (n + 1, t + dur(r) / 1e6)
    return out
a, b = slow('$tmp/x-static/kernels.csv'), slow('$(real static)/kernels.csv')
keys = sorted(set(a) | set(b))
print('; '.join('%s %s %d, %.0f ms / %d, %.0f ms' % (k[0], k[1], a.get(k, (0, 0))[0], a.get(k, (0, 0))[1], b.get(k, (0, 0))[0], b.get(k, (0, 0))[1]) for k in keys) or 'none')").
Which app is trapped, how often and for how long is what the BE throughput errors of these
runs are made of; apps with such kernels (sim / GPU): $(slow_apps $tmp/x-static "$(real static)" static).
In static-88 one BE app's SM-bound kernels are trapped (median ms, sim / GPU, the line above):
launched while the other app's workers fill the 44 BE SMs, they find room only on the game's
SMs and fall back.  On the GPU it is mostly the DNN app's, which still find some room inside
now and then; in the simulator it is whichever app loses the race for the set as it frees, a
knife edge that small changes of block timing turn (the per-app line below says which app ran,
simulated / GPU).  Not understood yet (cuda/README.md, What remains 1).
**The GPU runs one kernel in flight per BE app** (policies/*.c, as the simulator; the runs it
supersedes, cuda/runs/h100-static-2, queued two per app).  The host launches an app's next
kernel when it sees the previous one end (summary.json \`delivery_delay_us\`), so on the GPU
there is a gap between an app's kernels, in which the other app's kernel can take the set; with
two queued the next was already on its stream.  Per BE app, BE throughput in solo-s/s and the
median gap from the end of one kernel to the start of the app's next, simulated / this GPU run /
cuda/runs/h100-static-2: $(per_app $tmp/x-static "$(real static)",cuda/runs/h100-static-2 static-66,static-88).
The same simulated runs against cuda/runs/h100-static-2 / against this run: $(python3 -c "
import json
old = {r['policy']: r for r in json.load(open('$tmp/p-static.json')) + json.load(open('$tmp/p-exclusive.json'))}
new = {r['policy']: r for r in json.load(open('$tmp/c-static.json')) + json.load(open('$tmp/c-exclusive.json'))}
sg = lambda r: (r['be_thr_sim'] - r['be_thr_real']) / r['be_thr_real']
pols = [p for p in new if p in old and p.startswith('static')]
print('; '.join('%s BE throughput %.3f / %.3f on the GPU (simulated %.3f), error %+.1f / %+.1f %% (signed), throughput-ratio error %.1f / %.1f %%' % (
    p, old[p]['be_thr_real'], new[p]['be_thr_real'], new[p]['be_thr_sim'], 100 * sg(old[p]), 100 * sg(new[p]),
    100 * old[p]['be_ratio_err'], 100 * new[p]['be_ratio_err']) for p in pols) + '; be-alone error %+.1f / %+.1f %% (signed).' % (
    100 * sg(old['be-alone']), 100 * sg(new['be-alone'])))
for p in pols:
    if new[p]['be_ratio_err'] > old[p]['be_ratio_err'] + 0.05:
        a, b = sg(old[p]), sg(new[p])
        print('%s\'s throughput-ratio error grew with the GPU\'s change, not the model\'s: its BE throughput error went from %+.1f to %+.1f %%, and with be-alone\'s %+.1f %% the two now %s where they %s.' % (
            p, 100 * a, 100 * b, 100 * sg(new['be-alone']), 'add' if b * sg(new['be-alone']) < 0 else 'offset',
            'offset' if a * sg(old['be-alone']) > 0 else 'added'))")

\`\`\`
$(for n in exclusive static pilotfish; do echo "== $n"; cat $tmp/c-$n.txt; cat $tmp/x-$n.txt; done)
\`\`\`

## Development: a second workload ($W2)

Other shapes, 120 fps: a game of RT 1.5 ms + CD 2 ms + MEM 0.8 ms per frame; a DNN-like app
alternating a 0.6 ms TC and a 0.15 ms CD kernel; a 0.5 ms streaming MEM app; every policy,
\`combo\` (switching between the two schemes, with headroom merging) included (the throughput
ratio's denominator is this workload's be-alone).  The RT kernel's work comes in coarse steps
on the H100: $(python3 -c "
import json
c = [c for c in json.load(open('$W2/summary.json'))['calibration'] if c['class'] == 'RT'][0]
print('it runs %.1f %% under its %d us target there (summary.json calibration)' % (100 * (c['target_us'] - c['measured_solo_us']) / c['target_us'], c['target_us']))"); the
simulator runs it, as every kernel, at its measured solo time.

Run to run on the GPU, BE throughput of the policies whose mechanism did not change between
the runs: cuda/runs/h100-w2-0 to cuda/runs/h100-w2 (two runs of one binary, the runner before
the per-SM quota) $(run_to_run cuda/runs/h100-w2-0 cuda/runs/h100-w2 combo-exact);
cuda/runs/h100-w2 to cuda/runs/h100-w2-quota (the same runner with the quota in combo-exact)
$(run_to_run cuda/runs/h100-w2 cuda/runs/h100-w2-quota combo-exact); cuda/runs/h100-w2-quota to
$W2 (policies/*.c through the CUDA backend; be-alone and static-100 queued two kernels per
app before, one in flight now) $(run_to_run cuda/runs/h100-w2-quota $W2 be-alone static-100).
A single run of a closed-loop COMBO policy carries that much noise: differences of this size
between the simulator and one GPU run are not all the model's.  **Pilotfish** launches one BE
kernel at a time, when the previous one ends and only if its solo time fits before the next
release, so the host's reaction to each kernel's end comes off every idle window; simulated /
cuda/runs/h100-w2-0 / h100-w2 / h100-w2-quota / this run: $(be_reaction pilotfish $tmp/x-w2 cuda/runs/h100-w2-0 cuda/runs/h100-w2 cuda/runs/h100-w2-quota $W2).
combo-exact's two BE apps both have a kernel running, fraction of its time from its first
SM-bound BE kernel on (sim / GPU): $(be_overlap $tmp/x-w2 $W2) (the COMBO section below says
why the simulator's apps share the group).  **combo-exact's BE kernels get trapped with a few
workers, on the H100 and in the simulator.**  BE kernels that ran over 5x their
kernel's median (sim / GPU): $(be_trapped $tmp/x-w2 $W2).  On the GPU $(be_trap_cause $W2).
Why, measured on purpose (cuda/runs/h100-placement-exit, placement experiments on an idle
H100): $(python3 -c "
import json, statistics
j = json.load(open('cuda/runs/h100-placement-exit/bench-placement-exit/placement.json'))
p8 = [r['second']['workers_kept_inside'] for r in j['P8_two_smbound_back_to_back']]
p9 = j['P9_two_smbound_delayed']
trap = [r for r in p9 if r['second']['workers_kept_inside'] < 0.5 * r['first']['workers_kept_inside']]
free = [r for r in p9 if r not in trap]
p10 = j['P10_exit_time']
cd = [r for r in p10 if r['class'] == 'CD' and r['quota'] >= 2]
other = [r for r in p10 if r not in cd]
print('two SM-bound CD grids launched back to back, quota 4 on 88 SMs: the first keeps 352 workers, the second %d-%d (P8, %d repetitions); launched later, the second is trapped when it starts %.0f-%.0f us after the first and keeps its quota from %.0f us on, once the first grid\'s exits are done (%.0f-%.0f us; P9).  A block that exits on landing holds its slot for %.1f-%.1f us (median) on an SM with no worker or beside TC, MEM or one CD worker, but for %s us beside %s CD workers (P10): the FMA workers take the issue slots and the exiting warps wait.' % (
    min(p8), max(p8), len(p8),
    min(r['second']['first_block_start_us'] for r in trap), max(r['second']['first_block_start_us'] for r in trap),
    min(r['second']['first_block_start_us'] for r in free),
    min(r['first_grid_last_exit_done_us'] for r in p9), max(r['first_grid_last_exit_done_us'] for r in p9),
    min(min(r['exit_outside_median_us'] for r in p10), min(r['exit_inside_median_us'] for r in other)),
    max(max(r['exit_outside_median_us'] for r in p10), max(r['exit_inside_median_us'] for r in other)),
    ' / '.join('%.0f' % r['exit_inside_median_us'] for r in cd), ' / '.join(str(r['quota']) for r in cd)))")
So a BE grid launched while the previous grid's blocks beyond its quota are still exiting
beside its CUDA-core workers finds room only on the SMs where every block exits (the render
SMs, in combo-exact), and its blocks cycle through those slots until the grid is spent, a few
workers inside.  The simulator holds an exiting block's slot for that time (models/h100.json
\`exit_hold\`, from P8-P10 only, with the share of exits that are fast all the same;
sim/residency.c \`group_add_exiting\`; the unit test "H100 exit hold" checks P8 and P9), and
the trap comes out of it.  The trap feeds Eq. 5's closed loop: with
the BE group's streaming kernel nearly idle the frame renders faster (SM-bound render kernels,
median ms, GPU beside a trapped BE kernel / GPU beside none / simulated, all frames: $(render_beside $tmp/x-w2 $W2)),
so the group shrinks, the next frames miss by a little, the group grows again with original
render kernels, and the BE work held back in those frames is launched in a burst at their end:
partition changes, frames with original render kernels, sim / GPU: $(python3 -c "
import json
s=[r for r in json.load(open('$tmp/x-w2/summary.json'))['runs'] if r['policy']=='combo-exact'][0]['combo']
g=[r for r in json.load(open('$W2/summary.json'))['runs'] if r['policy']=='combo-exact'][0]['combo']
print('%d / %d, %d / %d; render SMs at the end %d / %d' % (s['partition_changes'], g['partition_changes'], s['original_kernel_frames'], g['original_kernel_frames'], s['render_sms_last'], g['render_sms_last']))").
Without the exit hold the simulator's group settles and nothing is trapped; with exits that
keep their room for the whole dispatch pass its BE apps take turns (cuda/README.md, The exit
hold, has the steps and their numbers).  What is left of the BE throughput error is the
kernels that are not trapped: $(python3 -c "
import csv, statistics
def med(path, k):
    d = [(int(r['end_ns']) - int(r['start_ns'])) / 1e6 for r in csv.DictReader(open(path)) if r['policy'] == 'combo-exact' and r['kernel'] == k and r['frame'] == '-1']
    return len(d), statistics.median(d)
a, b = med('$tmp/x-w2/kernels.csv', 'm_copy'), med('$W2/kernels.csv', 'm_copy')
print('the streaming kernel m_copy ran %d times in %.2f ms (median) simulated, %d times in %.2f ms on the GPU' % (a[0], a[1], b[0], b[1]))"),
the MEM co-run beside the DNN app and the game's MEM kernel (cuda/README.md, What remains 1).
combo-exact's kernels of frames rendered with different variants on the two sides (the
closed loop above): $(variant_mismatch $tmp/x-w2 $W2 combo-exact): the kernel p90 is those
frames' kernels and the trapped BE kernels.
SM-bound fallbacks of combo-exact (the simulator; the GPU, this run; cuda/runs/h100-w2-quota,
the runner's own copy of the policy with the per-SM quota; cuda/runs/h100-w2, before the
quota): $(python3 -c "
import csv, gzip, json, os
opn = lambda p: open(p) if os.path.exists(p) else gzip.open(p + '.gz', 'rt')
gpu = lambda d: sum(1 for r in csv.DictReader(opn(d + '/tasks.csv')) if r['policy'] == 'combo-exact' and r['fallback'] != '0')
sim = [r for r in json.load(open('$tmp/x-w2/summary.json'))['runs'] if r['policy'] == 'combo-exact'][0]['smbound_fallbacks']
print('%d; %d; %d; %d' % (sim, gpu('$W2'), gpu('cuda/runs/h100-w2-quota'), gpu('cuda/runs/h100-w2')))").

**combo** (switching: Eq. 2-3 classify the recent load as stable or dynamic and pick exact or
relaxed sharing; headroom merging in relaxed frames) decides differently on the two sides
(sim / GPU): $(combo_switching $tmp/x-w2 $W2).  The GPU's SM-bound frames vary more from frame
to frame (a frame beside a trapped BE kernel renders faster: above), so its combo leaves the
exact scheme, its relaxed frames on the whole GPU then measure steady and it comes back.  A
frame rendered in one scheme on one side and the other on the other is not comparable: the
frame-latency and per-kernel errors of combo are those frames; its BE throughput, a sum over
both schemes, is the number to read.

\`\`\`
$(cat $tmp/c-w2.txt; cat $tmp/x-w2.txt)
\`\`\`

## Development: closed-loop games (vGASA's frame pacing; depth-2 apps)

cuda/runs/h100-vgasa replays experiments/vgasa/h100_vgasa.json: three closed-loop games (each
frame: a CPU phase, then RT/CD/MEM kernels) under the vGASA policy with no pacing (default),
SA (every game held at 30 FPS by the PI-controlled sleep) and ESA (one FPS for all, computed
from each game's measured GPU busy time).  The policy is policies/vgasa.c, unchanged, on both
sides; the sleeps it inserts come from what each side measured.

$(cat $tmp/f-vgasa.md)

cuda/runs/h100-vgasa-scenes replays experiments/vgasa/h100_vgasa_scenes.json: vGASA's three
games (experiments/vgasa/, calibrated traces) with persistent scenes, each frame's CPU phase
from its trace (the \`cpu_ms\` column: the same on both sides) and its GPU time the mean of its
scene (experiments/vgasa/traces/scene_mean.sh), under default sharing, SA, FSA and ESA.  The
simulator runs the kernels' target solo times (the GPU's calibration measured them within
$(python3 -c "
import json, sys
c = [c for c in json.load(open(sys.argv[1]))['calibration'] if c.get('measured_solo_us')]
print('%.1f %%' % (100 * max(abs(x['measured_solo_us'] - x['target_us']) / x['target_us'] for x in c)))" cuda/runs/h100-vgasa-scenes/summary.json), summary.json's calibration).  FSA's moves are windows at whose end Alg. 2 moved GPU share.

$(cat $tmp/f-vgasa-scenes.md)

$(cat $tmp/u-vgasa-scenes.md)

cuda/runs/h100-hooks-queued replays cuda/experiments/h100_hooks.json: the static workload's game as a
closed loop (4 ms CPU phase, cpu_cv 0.2: the same draws on both sides) beside a DNN app two
kernels deep and a streaming app.

$(cat $tmp/f-hooks.md)

\`\`\`
$(cat $tmp/c-hooks.txt)
\`\`\`

$(cat $tmp/s-smqos.md)

$(cat $tmp/s-gspace.md)

## Development: co-run set 2 (not calibrated on; the structure was chosen with it)

- per-kernel duration error, all runs (solo runs included): median $(val $tmp/held.json "j['kernels']['duration_error']['median']") %, p90 $(val $tmp/held.json "j['kernels']['duration_error']['p90']") %
- co-run makespan error (pair runs only): median $(val $tmp/held.json "j['pair_makespan_error']['median']") %, p90 $(val $tmp/held.json "j['pair_makespan_error']['p90']") %, max $(val $tmp/held.json "j['pair_makespan_error']['max']") %
- makespan reduction: median |sim - real| $(val $tmp/held.json "j['pair_reduction_abs_diff']['median']") percentage points, max $(val $tmp/held.json "j['pair_reduction_abs_diff']['max']")
- throughput-ratio error: not measured (no BE-throughput run)

The solo runs match by construction (the experiments take each kernel's measured solo time),
so the all-runs medians say little; the co-run rows are what to read.  **The goal of 10 % is not
met on co-runs.**

\`\`\`
$(cat $tmp/held.txt)
\`\`\`

## Calibration set: co-run set 1

\`\`\`
$(cat $tmp/cal.txt)
\`\`\`

## What the misses say (for the model's owners)

- **Launch order.** On the H100 the first-launched kernel of a pair runs near its solo speed and
  the second takes what is left (CD+MEM: $(val $RUN/summary.json "j['makespan_reduction']['CD+MEM']") % reduction with CD first,
  $(val $RUN/summary.json "j['makespan_reduction_second_first']['CD+MEM']") % with MEM first; RT+CD: $(val $RUN/summary.json "j['makespan_reduction']['RT+CD']") % RT first, $(val $RUN/summary.json "j['makespan_reduction_second_first']['RT+CD']") % CD first).
  The symmetric pairwise factor cannot express this; the 'age' discipline with a per-SM
  issue-slot unit might.
- **CD + TC do not overlap at all** on the H100 ($(val $RUN/summary.json "j['makespan_reduction']['CD+TC']") % CD first, $(val $RUN/summary.json "j['makespan_reduction_second_first']['CD+TC']") % TC first): the FMA
  kernel seems to take every issue slot.  The model, with CD on 'cuda' and TC on 'tensor',
  predicts about 50 %; models/h100.json leaves CD+TC out (outside the loader's [0, 0.5]).
- **The RT emulation is not CUDA-core bound.**  The simulator puts the RT class's demand on
  'cuda' on a GPU without RT cores, so RT+CD share a unit and the calibrated implicit
  contention slows them further (negative predicted reductions above).  The emulated RT kernel
  is latency/L2 bound (its SM scaling flattens past half the SMs: cuda/runs/h100-bench-2/
  bench-scaling/scaling.csv, RT efficiency $(python3 -c "import csv; r=[x for x in csv.DictReader(open('cuda/runs/h100-bench-2/bench-scaling/scaling.csv')) if x['class']=='RT' and x['variant']=='sm-bound' and x['efficiency']]; print(r[-1]['efficiency'])") at all SMs vs 1 SM); its demand vector on the H100
  should lean on 'lsu'.
HDR
combo_section
cat "$tmp/s-traces.md" "$tmp/s-issue.md" "$tmp/s-dispatch.md" "$tmp/s-pileup.md" "$tmp/s-drain.md" "$tmp/s-h200.md" "$tmp/s-ready.md" "$tmp/s-h200-full.md"
} > cuda/VALIDATION.md
echo "wrote cuda/VALIDATION.md"
