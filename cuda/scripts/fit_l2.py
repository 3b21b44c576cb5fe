#!/usr/bin/env python3
"""Fits the RT class's share of the chip's L2 path (models/<gpu>.json "l2_saturation".knee and
class RT "l2", with RT's per-SM saturation) to a GPU's RT benches.  The emulated RT kernel
walks a 2 MB BVH (cuda/kernels.cu): it misses the SM's L1 and hits L2, so the blocks of every
SM share the path to L2.  On n of the N SMs with k blocks per SM the simulator gives a block
min(1, sat/k) of its speed on the SM and slows it by s(L) = (1 + L^p)^(1/p) at the chip load
L = l2 * (n / N) * min(k, sat) / sat (as DRAM's; models/gpu.h).

Observations, each the ratio of two measured durations (so the work per block cancels):
  - bench saturation on a quarter of the SMs against all of them at the same k = 1..8
    (saturation-quarter.tgz: saturation_quarter.csv beside saturation.csv); sat is then RT's
    sat_warps over the bench's 8 warps per block when given (--sat-warps), else the quarter's
    throughput at 8 blocks over one, nearest integer (the SM's own limit: CD and TC flatten
    alike on both, RT goes on rising on the quarter);
  - without the quarter (the H100's runs): the all-SM throughput at 8 blocks over one, with sat
    given (--sat-warps: the H200's, the same GH100 SM);
  - bench power's RT phases, 4 blocks per SM on 66 / 99 / 132 SMs over 33 (power_phases.csv).
Least squares on the log ratios over a grid of l2 (0.01 steps) and p (0.1 steps).

With --neighbours (bench power-l2 / power-game runs: RT timed on some SMs beside MEM on the
others, and alone on the same SMs), a second step fits MEM's share of the same path (class MEM
"l2", 0.01 steps), RT's l2 and knee held: RT's time beside MEM over alone is
s(L_RT + L_MEM) / s(L_RT), MEM's load l2_MEM (n/N) min(k, 4)/4 (MEM's sat_blocks, 4).

usage: fit_l2.py [--saturation CSV [--quarter CSV] [--power CSV|TGZ] [--sat S | --sat-warps W]
                 [--sat-from TEXT] [--sms N] [--label TEXT]] [--json]     (from the root)
  without --saturation: the H100's runs (cuda/runs/h100-bench-3 bench-saturation,
  cuda/runs/h100-power), RT's sat_warps from models/h200.json (the same GH100 SM)
  --sat-warps  RT's class_defaults sat_warps (cuda/scripts/fit_sat.py): the bench's 8-warp blocks
           saturate at max(1, W / 8); with --quarter, used in place of the quarter's figure,
           which is reported
  --power  power_phases.csv, or a run's tarball holding it
  --json   print only {"values": {...models keys...}, "source": "..."} (the table to stderr)"""
import argparse, csv, json, math, sys

from runtar import csv_rows

ap = argparse.ArgumentParser(description="fit RT l2 and l2_saturation.knee to RT's benches")
ap.add_argument('--saturation')
ap.add_argument('--quarter')
ap.add_argument('--power')
ap.add_argument('--sat', type=int)
ap.add_argument('--sat-warps', type=float)
ap.add_argument('--sat-from', default='', help='where a given --sat comes from, for the source string')
ap.add_argument('--sms', type=int, default=132)
ap.add_argument('--label', default='', help='where the runs are, for the source string')
ap.add_argument('--neighbours', nargs='*', default=[], help='power-l2 / power-game tarballs: MEM share')
ap.add_argument('--neighbours-label', default='', help='where they are, for the source string')
ap.add_argument('--mem-sat', type=int, default=4, help="MEM's sat_blocks (the description's)")
ap.add_argument('--json', action='store_true')
args = ap.parse_args()
if not args.saturation:
    if args.quarter or args.power or args.sat or args.sat_warps or args.label:
        sys.exit('fit_l2: --quarter, --power, --sat, --sat-warps and --label go with --saturation')
    args.saturation = 'cuda/runs/h100-bench-3/bench-saturation/saturation.csv'
    args.power = 'cuda/runs/h100-power/run.tgz'
    args.sat_warps = json.load(open('models/h200.json'))['class_defaults']['RT']['sat_warps']
    args.sat_from = ("the H200's sat_warps: models/h200.json, cuda/runs/h200-describe/saturation-warps.tgz, "
                     "the same GH100 SM; the H100 has no run on a quarter of its SMs")
    args.label = ('cuda/runs/h100-bench-3/bench-saturation (saturation.csv) and cuda/runs/h100-power/run.tgz '
                  '(power_phases.csv)')
N = args.sms
out = sys.stderr if args.json else sys.stdout


def rt_rows(path):
    return {int(r['blocks_per_sm']): float(r['duration_us'])
            for r in csv.DictReader(open(path)) if r['class'] == 'RT'}


full = rt_rows(args.saturation)
quarter = rt_rows(args.quarter) if args.quarter else None
if args.sat and args.sat_warps:
    sys.exit('fit_l2: --sat or --sat-warps, not both')
BENCH_WARPS = 8   # bench saturation's blocks: 256 threads
if args.sat_warps:
    sat = max(1.0, args.sat_warps / BENCH_WARPS)
elif quarter:
    kmax = max(quarter)
    sat = max(1, round(kmax * quarter[1] / quarter[kmax]))
    if args.sat and args.sat != sat:
        sys.exit(f'fit_l2: --sat {args.sat} given, the quarter says {sat}')
elif args.sat:
    sat = args.sat
else:
    sys.exit('fit_l2: without --quarter, give --sat')

# (label, n, k, reference n, reference k, measured ratio)
obs = []
if quarter:
    qn = round(N / 4)
    obs += [(f'saturation k = {k}: {N} SMs over {qn}', N, k, qn, k, full[k] / quarter[k]) for k in sorted(quarter)]
else:
    k = max(full)
    obs.append((f'saturation on {N} SMs: k = {k} over k = 1 (per block)', N, k, N, 1, full[k] / full[1]))
def phase_rows(path):
    """power_phases.csv's rows, from the file or a run's tarball holding it"""
    return csv_rows(path, 'power_phases.csv')


if args.power:
    ph = {int(r['a_sms']): float(r['a_task_us_per_sm_round']) for r in phase_rows(args.power)
          if r['set'] == 'calibration' and r['a_class'] == 'RT'}
    ref = min(ph)
    obs += [(f'power RT, 4 per SM: {n} SMs over {ref}', n, 4, ref, 4, ph[n] / ph[ref]) for n in sorted(ph) if n != ref]


def s(L, p):
    return (1 + L ** p) ** (1 / p)


def dur(n, k, l2, p):
    """a block's time on n SMs with k per SM, relative to one block alone on an idle SM"""
    m = min(k, sat)
    return (k / m) * s(l2 * (n / N) * m / sat, p)


def model(o, l2, p):
    _, n, k, rn, rk, _ = o
    return dur(n, k, l2, p) / dur(rn, rk, l2, p)


def err(l2, p):
    return sum(math.log(model(o, l2, p) / o[5]) ** 2 for o in obs)


best = min((err(l2 / 100, p / 10), l2 / 100, p / 10) for l2 in range(1, 500) for p in range(10, 200))
e, L2, P = best
print(f'RT sat_blocks {sat:g}, l2 {L2:.2f} (chip load at sat blocks on every SM), knee p {P:.1f}, '
      f'squared log error {e:.4f} over {len(obs)}', file=out)
for o in obs:
    print(f'  {o[0]:<44} measured {o[5]:.3f}  model {model(o, L2, P):.3f}', file=out)
if L2 in (0.01, 4.99) or P in (1.0, 19.9):
    print('warning: the fit lies on the edge of the grid (l2 0.01-4.99, p 1.0-19.9)', file=sys.stderr)
# MEM's share: RT timed beside MEM on the other SMs, over RT alone on the same SMs in that run
mem_obs = []
for path in args.neighbours:
    rows = phase_rows(path)
    alone = {(int(r['a_sms']), int(r['a_blocks'])): float(r['a_median_us']) for r in rows
             if r['a_class'] == 'RT' and not r['b_class']}
    for r in rows:
        key = (int(r['a_sms']), int(r['a_blocks']))
        if r['a_class'] == 'RT' and r['b_class'] == 'MEM' and key in alone:
            mem_obs.append((r['phase'], key[0], key[1], int(r['b_sms']), int(r['b_blocks']),
                            float(r['a_median_us']) / alone[key]))
MEM_L2 = None
if mem_obs:
    def rt_load(n, k):
        return L2 * (n / N) * min(k, sat) / sat

    def mem_model(o, x):
        _, nr, kr, nm, km, _ = o
        lr = rt_load(nr, kr)
        return s(lr + x * (nm / N) * min(km, args.mem_sat) / args.mem_sat, P) / s(lr, P)

    mem_err, MEM_L2 = min((sum(math.log(mem_model(o, x / 100) / o[5]) ** 2 for o in mem_obs), x / 100)
                          for x in range(0, 300))
    print(f'MEM l2 {MEM_L2:.2f} (its share of the path at {args.mem_sat} blocks on every SM), squared log '
          f'error {mem_err:.4f} over {len(mem_obs)}', file=out)
    for o in mem_obs:
        print(f'  {o[0]:<44} measured {o[5]:.3f}  model {mem_model(o, MEM_L2):.3f}  (MEM l2 0: '
              f'{mem_model(o, 0):.3f})', file=out)
    if MEM_L2 == 2.99:
        print('warning: MEM l2 on the edge of the grid (0-2.99)', file=sys.stderr)
if args.json:
    where = args.label or args.saturation
    seen = '; '.join(f'{o[0]}: {o[5]:.3f} (fitted {model(o, L2, P):.3f})' for o in obs)
    if args.sat_warps:
        how = (f'sat {sat:.3f} blocks of {BENCH_WARPS} warps from RT\'s sat_warps {args.sat_warps:g}'
               + (f' ({args.sat_from})' if args.sat_from else '')
               + ('; the quarter\'s throughput at %d blocks per SM is %.2fx that at one'
                  % (max(quarter), max(quarter) * quarter[1] / quarter[max(quarter)]) if quarter else ''))
    elif quarter:
        how = ('sat_blocks from the quarter (its throughput at %d blocks per SM is %.2fx that at one, '
               'nearest integer)' % (max(quarter), max(quarter) * quarter[1] / quarter[max(quarter)]))
    else:
        how = f'sat_blocks {sat} given' + (f' ({args.sat_from})' if args.sat_from else '')
    src = (f'fitted with RT l2 {L2:.2f} and l2_saturation.knee {P:.1f} by cuda/scripts/fit_l2.py to {where}, '
           f'{how}; a block on n of N SMs with k per SM: min(1, sat/k) of its speed over s(L), '
           f'L = l2 (n/N) min(k, sat)/sat; measured over modelled: {seen}; squared log error {e:.4f} '
           f'over {len(obs)}')
    values = {'l2_saturation': {'knee': P}, 'class_defaults': {'RT': {'l2': L2}}}
    if not args.sat_warps:
        values['class_defaults']['RT']['sat_blocks'] = sat
    result = {'values': values, 'source': src}
    if MEM_L2 is not None:
        values['class_defaults']['MEM'] = {'l2': MEM_L2}
        seen = '; '.join(f'{o[0]}: {o[5]:.3f} (fitted {mem_model(o, MEM_L2):.3f}, without '
                         f'{mem_model(o, 0):.3f})' for o in mem_obs)
        result['mem_source'] = (
            f'L2 path: MEM l2 {MEM_L2:.2f} fitted by cuda/scripts/fit_l2.py to '
            f'{args.neighbours_label or " ".join(args.neighbours)} (RT on some SMs beside MEM on the '
            f'others, over RT alone on the same SMs; RT\'s l2 and knee held): {seen}; squared log error '
            f'{mem_err:.4f} over {len(mem_obs)}')
    print(json.dumps(result))
