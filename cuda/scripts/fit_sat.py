#!/usr/bin/env python3
"""Fits a GPU description's per-SM saturation in warps (class_defaults.C.sat_warps) to a
`combosim-cuda bench saturation-warps` run: each class in blocks of 2, 4, 8 and 16 warps, k = 1
.. occupancy blocks per SM on a quarter of the SMs (no chip resource near its limit),
saturation_warps.csv giving the per-SM throughput over one block's.

Why warps: on the H200 (cuda/runs/h200-saturation-warps, development) each class levels off at
one number of warps per SM whatever the blocks' shape (CD ~5.5, TC ~8, RT ~26, MEM ~40), so a
saturation in blocks (sat_blocks) holds for one block shape only.

The model (models/kernel.c kernel_intrinsic): a kernel of w warps per block saturates at b =
max(1, S / w) blocks per SM, a block at min(1, b / k) of its speed, so k blocks give min(k, b)
times one block's throughput.  With --schedulers N (the GPU's sm.schedulers) the SM's k w warps
go to its N schedulers in turn, each saturating at S / N warps, and the busiest sets every
block's pace: a block at min(1, (S / N) / ceil(k w / N)) of its speed (CD blocks of 2 warps on
the H200: 1.90, 2.53, 2.26, 2.71 times one block's throughput at k = 3, 4, 5, 6, where a
saturation per SM gives a level line).  For each class it scans S = 1.00, 1.01, ... 64 warps
and keeps the least squared log error over every (shape, k) row; it reports that error beside
the other model's (per SM, or per scheduler) and what a saturation in blocks (--blocks: one
figure for every shape) gives on the same rows.  MEM is reported, not fitted:
its sat_blocks stays the all-SM figure (4) that the L2-path share (fit_l2.py --mem-sat) and the
issue table were fitted with; MEM's own figure here (~41 warps) changed neither development
pair set (cuda/runs/h200-pairs-dev2, -dev3) and raised co-run set 2's median error.

Usage: cuda/scripts/fit_sat.py RUN [--schedulers N] [--dev RUN] [--blocks CD=1,TC=1,...] [--json]
       (RUN: a saturation-warps tarball or a directory holding saturation_warps.csv; --dev: a
        second run reported as development; --blocks: sat_blocks per class reported beside;
        --json prints only {"values": {"class_defaults": {...}}, "source": "..."})"""
import argparse
import csv
import io
import json
import math
import os
import sys
import tarfile

FITTED = ('CD', 'TC', 'RT')
GRID = [s / 100 for s in range(100, 6401)]


def rows_of(path):
    """(class, warps per block, k, throughput over one block's) of a run's saturation_warps.csv."""
    if os.path.isdir(path):
        text = open(os.path.join(path, 'saturation_warps.csv')).read()
    else:
        with tarfile.open(path) as tf:
            names = [m for m in tf.getnames() if m.endswith('/saturation_warps.csv')]
            if not names:
                sys.exit(f'fit_sat: {path}: no saturation_warps.csv')
            text = tf.extractfile(names[0]).read().decode()
    return [(r['class'], int(r['threads']) // 32, int(r['blocks_per_sm']), float(r['throughput_per_sm_rel']))
            for r in csv.DictReader(io.StringIO(text))]


def error(rows, blocks_at):
    """Squared log error of min(k, blocks_at(w)) against the measured ratios."""
    return sum((math.log(t) - math.log(min(k, blocks_at(w)))) ** 2 for _, w, k, t in rows)


def sched_error(rows, s, n):
    """Squared log error of the per-scheduler model (S = s warps, n schedulers) against the
    measured ratios: k blocks at min(1, (s / n) / ceil(k w / n)) of a block's speed, over one."""
    def thr(k, w):
        return k * min(1.0, s / n / math.ceil(k * w / n))
    return sum((math.log(t) - math.log(thr(k, w) / thr(1, w))) ** 2 for _, w, k, t in rows)


def fit(rows, schedulers=0):
    """(least error, S) of the per-SM model, or the per-scheduler one with schedulers."""
    if schedulers:
        return min((sched_error(rows, s, schedulers), s) for s in GRID)
    return min((error(rows, lambda w, s=s: max(1.0, s / w)), s) for s in GRID)


def model_error(rows, s, schedulers):
    return sched_error(rows, s, schedulers) if schedulers else error(rows, lambda w: max(1.0, s / w))


def plateaus(rows):
    """Warps per SM at each shape's highest throughput: where a saturation in warps shows."""
    shapes = sorted({w for _, w, _, _ in rows})
    return ', '.join(f'{w}-warp blocks {max(t for _, ww, _, t in rows if ww == w) * w:.1f}' for w in shapes)


def main():
    ap = argparse.ArgumentParser(description='fit class_defaults sat_warps to bench saturation-warps')
    ap.add_argument('run')
    ap.add_argument('--dev')
    ap.add_argument('--schedulers', type=int, default=0)
    ap.add_argument('--blocks', default='')
    ap.add_argument('--json', action='store_true')
    args = ap.parse_args()
    blocks = {c: int(n) for c, n in (x.split('=') for x in args.blocks.split(',') if x)}
    rows = rows_of(args.run)
    dev = rows_of(args.dev) if args.dev else []
    values, notes = {}, []
    for cls in FITTED + ('MEM',):
        mine = [r for r in rows if r[0] == cls]
        if not mine:
            sys.exit(f'fit_sat: {args.run}: no {cls} rows')
        n = args.schedulers
        err, s = fit(mine, n)
        other_err, other_s = fit(mine, 0 if n else 4)
        other = (f', per SM {other_s:.2f} warps {other_err:.4f}' if n else
                 f', per scheduler of 4 {other_s:.2f} warps {other_err:.4f}')
        given = blocks.get(cls)
        before = f', sat_blocks {given} for every shape {error(mine, lambda w: given):.4f}' if given else ''
        mdev = [r for r in dev if r[0] == cls]
        dtext = (f'; development ({args.dev}): {model_error(mdev, s, n):.4f} over {len(mdev)}'
                 if mdev else '')
        line = (f'{cls} {s:.2f} warps (squared log error {err:.4f} over {len(mine)} rows{other}{before}{dtext}; '
                f'levels: {plateaus(mine)})')
        if cls in FITTED:
            values[cls] = {'sat_warps': s}
        else:
            line = 'not fitted: ' + line
        notes.append(line)
        if not args.json:
            print(line)
    rule = ('a block at min(1, (sat_warps / %d) / ceil(k w / %d)) of its speed with k blocks of w warps '
            'per SM: the busiest of the %d warp schedulers sets the pace' % ((args.schedulers,) * 3)
            if args.schedulers else 'a kernel of w warps per block saturates at max(1, sat_warps / w) blocks per SM')
    source = ('fitted by cuda/scripts/fit_sat.py to %s (saturation_warps.csv): every class in blocks of '
              '2-16 warps, k = 1 .. occupancy per SM on a quarter of the SMs; %s: %s' % (args.run, rule, '; '.join(notes)))
    if args.json:
        print(json.dumps({'values': {'class_defaults': values}, 'source': source}))


if __name__ == '__main__':
    main()
