#!/usr/bin/env python3
"""Fits a GPU description's block_spread.in_turn (per class, how many warps per warp scheduler
of a kernel's oldest blocks on an SM are served at a time) to `combosim-cuda bench pairs-spread`
and `pairs-spread16` runs: every block of L alone (pairs_blocks.csv, run L-alone), n blocks of
w warps per SM, all landing at once.

Why: on the H200 (cuda/runs/h200-describe pairs-spread.tgz, pairs-spread16.tgz) a wave's blocks
on one SM end in turn, a few warps per scheduler at a time (8 CD or TC blocks of 8 warps: the
k-th to end over the last 0.19, 0.28, .., 0.88, 1; 16 CD blocks of 4 warps in steps of three),
where sharing the SM evenly ends them together.  The simulator's rule (sim/residency.c
turn_speeds): the SM's throughput for the kernel's B blocks, B x its block speed at B, goes to
its blocks oldest first, each of the oldest W = G x schedulers / warps per block at 1 / W of it
(never faster than a block alone), the next at what is left, the rest waiting.

For each layout the measured ramp (each SM's block ends since its first start, sorted, over the
last; the mean by rank over the SMs) against the rule's for n equal blocks at the description's
saturation (class_defaults sat_warps per scheduler, or sat_blocks); per class the G of least mean
squared error over its layouts (0.1 steps), beside even sharing's error (no window).  A class
whose best window does not cut even sharing's error tenfold is left out: its ends are not a
window's steps (on the H200 MEM's and RT's blocks end nearly together, in a slope).  --json prints only {"values": {"block_spread": {"in_turn": {...}}}, "source": "..."}.

Usage: cuda/scripts/fit_turn.py RUN [RUN..] [--gpu MODEL.json] [--json]
       (RUN: a directory holding pairs_blocks.csv, run.tgz or run.tar.xz, or a run's tarball;
        --gpu default models/h200.json)"""
import argparse
import collections
import csv
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from runtar import run_file  # noqa: E402

CLASSES = ('CD', 'TC', 'MEM', 'RT')


def measured(path):
    """{layout: (class, blocks per SM, warps per block, mean ramp by rank)}."""
    per = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in csv.DictReader(open(path)):
        if r['run'] == 'L-alone':
            per[r['pair']][r['smid']].append((int(r['start_ns']), int(r['end_ns'])))
    out = {}
    for name, sms in per.items():
        m = re.match(r'[sc]-([A-Z]+)(\d+)w(\d+)$', name)
        if not m:
            continue
        n = int(m.group(2))
        ramps = []
        for blocks in sms.values():
            if len(blocks) != n:
                continue            # an SM that did not hold the layout
            t0 = min(s for s, _ in blocks)
            ends = sorted(e - t0 for _, e in blocks)
            ramps.append([e / ends[-1] for e in ends])
        if ramps:
            out[name] = (m.group(1), n, int(m.group(3)),
                         [sum(r[i] for r in ramps) / len(ramps) for i in range(n)])
    return out


def intrinsic(cd, schedulers, warps, b):
    """A block's speed with b blocks of `warps` on the SM (models/kernel.c kernel_intrinsic)."""
    if cd.get('sat_warps'):
        busiest = -(-b * warps // schedulers)
        ss = cd['sat_warps'] / schedulers
        return ss / busiest if busiest > ss else 1.0
    sat = cd.get('sat_blocks', b)
    return sat / b if b > sat else 1.0


def turn_ramp(cd, schedulers, n, warps, g):
    """The rule's ends of n equal blocks landing together, over the last (g None: even)."""
    left = [1.0] * n            # oldest first
    t, ends = 0.0, []
    while left:
        b = len(left)
        v = intrinsic(cd, schedulers, warps, b)
        total = b * v
        w = b if g is None else max(g * schedulers / warps, total / intrinsic(cd, schedulers, warps, 1))
        rates, room = [], w
        for _ in left:
            take = min(1.0, room) if w < b else 1.0
            room -= take
            rates.append(total / w * take if w < b else v)
        dt = min(x / r for x, r in zip(left, rates) if r > 0)
        t += dt
        nxt = []
        for x, r in zip(left, rates):
            x -= r * dt
            if x > 1e-9:
                nxt.append(x)
            else:
                ends.append(t)
        left = nxt
    return [e / ends[-1] for e in ends]


def mse(lays, cd, schedulers, g):
    err = [(a - b) ** 2 for (_, n, w, ramp) in lays for a, b in zip(ramp, turn_ramp(cd, schedulers, n, w, g))]
    return sum(err) / len(err)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('run', nargs='+')
    ap.add_argument('--gpu', default='models/h200.json')
    ap.add_argument('--json', action='store_true')
    a = ap.parse_args()
    g = json.load(open(a.gpu))
    ns = g['sm'].get('schedulers')
    if not ns:
        sys.exit('fit_turn.py: %s has no sm.schedulers' % a.gpu)
    lay = {}
    with tempfile.TemporaryDirectory() as tmp:
        for i, run in enumerate(a.run):
            d = os.path.join(tmp, str(i))
            os.mkdir(d)
            lay.update(measured(run_file(run, 'pairs_blocks.csv', d, 'fit_turn.py')))
    if not lay:
        sys.exit('fit_turn.py: no L-alone blocks of a pairs-spread layout in %s' % ' '.join(a.run))
    fitted, notes = {}, []
    for cls in CLASSES:
        ls = [v for v in lay.values() if v[0] == cls and v[1] > 1]
        if not ls:
            continue
        cd = g['class_defaults'][cls]
        even = mse(ls, cd, ns, None)
        best = min((mse(ls, cd, ns, x / 10), x / 10) for x in range(5, 161))
        keep = best[0] < even / 10
        if keep:
            fitted[cls] = best[1]
        notes.append('%s %s (mean squared error %.4f over %d layouts; even sharing %.4f)%s'
                     % (cls, '%.1f' % best[1], best[0], len(ls), even, '' if keep else ': left out'))
        if not a.json:
            print('calibration %s: best G %.1f warps per scheduler, mse %.4f over %d layouts, even sharing %.4f%s'
                  % (cls, best[1], best[0], len(ls), even, '' if keep else ' (left out: ends together)'))
            for name, (c, n, w, ramp) in sorted(lay.items()):
                if c == cls and n > 1:
                    sim = turn_ramp(cd, ns, n, w, best[1])
                    print('  %s: GPU %s | rule %s' % (name, ' '.join('%.2f' % x for x in ramp),
                                                    ' '.join('%.2f' % x for x in sim)))
    src = ('cuda/scripts/fit_turn.py on %s (bench pairs-spread, pairs-spread16): calibration, every block of L '
           'alone, 2 to 32 blocks per SM; per layout each SM\'s block ends since its first start, sorted, over the '
           'last, the mean by rank, against the oldest-first window of G warps per scheduler at %s\'s saturation; per '
           'class the G of least mean squared error: %s' % (', '.join(a.run), a.gpu, '; '.join(notes)))
    fitted['source'] = src
    if a.json:
        print(json.dumps({'values': {'block_spread': {'in_turn': fitted}}, 'source': src}))
    else:
        print(json.dumps(fitted))


if __name__ == '__main__':
    main()
