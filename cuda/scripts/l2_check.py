#!/usr/bin/env python3
"""Bench power's phases against a description's L2 path (development; nothing fitted here): each
phase's timed kernel (a: 4 workers per SM on SMs [0, n)) over the same kernel alone on the same
SMs in the same run (a kernel alone with an l2 demand: over it alone on the fewest SMs), measured
and as the description gives it; calibration phases are listed too (fit_l2.py fitted the RT ones).  The simulator's form (models/
gpu.h l2_knee; fit_l2.py): a block of a class with an "l2" demand runs at min(1, sat/k) of its
speed over s(L) = (1 + L^p)^(1/p), L = the sum over both ranges of l2_c (n/N) min(k, sat_c)/sat_c
for the classes with a demand, and the same for DRAM (dram_saturation, class "dram"); a kernel
is slowed by the worse of the two it uses.  What the check leaves out: issue slots and the
clock (no phase here shares an SM; the clock is read beside: it held at the nominal 1980 MHz in
the H200's power-l2 run).
With --ref PHASE every phase of the runs is taken over that one instead (a per-round time: the
same tasks per worker in every phase, so k / min(k, sat) of a block's speed on its SM enters,
e.g. bench power-game's partition factor over RTg-132x8+none).
Usage: l2_check.py RUN.tgz [RUN.tgz ...] [--gpu MODEL.json] [--ref PHASE]  (default
models/h200.json; from the root).  Prints a Markdown table."""
import argparse, json, sys

from runtar import csv_rows

ap = argparse.ArgumentParser()
ap.add_argument('runs', nargs='+')
ap.add_argument('--gpu', default='models/h200.json')
ap.add_argument('--ref', help='one phase every other is taken over')
a = ap.parse_args()
g = json.load(open(a.gpu))
N = g['sm_count']
knee = g.get('l2_saturation', {}).get('knee', 0)
dram_knee = g.get('dram_saturation', {}).get('knee', 0)
cd = g.get('class_defaults', {})


def curve(L, p):
    if L <= 0:
        return 1.0
    return max(1.0, L) if p <= 0 else (1 + L ** p) ** (1 / p)


def s(L):
    return curve(L, knee)


def load(cls, n, k, what='l2'):
    c = cd.get(cls, {})
    if not c.get(what):
        return 0.0
    sat = c.get('sat_blocks', k)
    return c[what] * (n / N) * min(k, sat) / sat


def slow(cls, kernels):
    """cls's chip slowdown with kernels [(class, n, k)] running: the worse of DRAM and L2 it uses"""
    c = cd.get(cls, {})
    out = 1.0
    if c.get('l2'):
        out = max(out, s(sum(load(*x) for x in kernels)))
    if c.get('dram') and g.get('dram_sharing', True):
        out = max(out, curve(sum(load(*x, what='dram') for x in kernels), dram_knee))
    return out


def phases(path):
    return csv_rows(path, 'power_phases.csv')


def per_sm(cls, k):
    """a block's time from sharing its SM with k - 1 others of its kernel: k / min(k, sat)"""
    sat = cd.get(cls, {}).get('sat_blocks', k)
    return k / min(k, sat)


print('| run | phase | timed kernel %s | measured: time over it | %s: over it |'
      % ('over ' + a.ref if a.ref else 'alone (same SMs, same run)', a.gpu))
print('|---|---|---|---|---|')
for run in a.runs:
    rows = phases(run)
    alone = {(r['a_class'], int(r['a_sms']), int(r['a_blocks'])): r for r in rows
             if r['a_class'] and not r['b_class'] and r['a_task_us_per_sm_round'] != 'nan'}
    named = {r['phase']: r for r in rows}
    if a.ref and a.ref not in named:
        sys.exit(f'l2_check.py: {run} has no phase {a.ref}')
    for r in rows:
        if not r['a_class'] or r['a_task_us_per_sm_round'] == 'nan':
            continue
        ka = (r['a_class'], int(r['a_sms']), int(r['a_blocks']))
        if a.ref:
            ref = named[a.ref]
        elif r['b_class']:
            ref = alone.get(ka)
        elif cd.get(r['a_class'], {}).get('l2'):
            # alone on n SMs: over the fewest SMs the run has that class alone on
            ref = min((x for key, x in alone.items() if key[0] == ka[0] and key[2] == ka[2]),
                      key=lambda x: int(x['a_sms']))
        else:
            continue             # one kernel of a class off the path: nothing to check
        if not ref or ref is r:
            continue
        kernels = [ka] + ([(r['b_class'], int(r['b_sms']), int(r['b_blocks']))] if r['b_class'] else [])
        base = (ref['a_class'], int(ref['a_sms']), int(ref['a_blocks']))
        model = per_sm(*ka[::2]) * slow(ka[0], kernels) / (per_sm(*base[::2]) * slow(ka[0], [base]))
        meas = float(r['a_task_us_per_sm_round']) / float(ref['a_task_us_per_sm_round'])
        print('| %s | %s | %s | %.3f | %.3f |' % (run, r['phase'], ref['phase'], meas, model))
