#!/usr/bin/env python3
"""Fits a GPU description's interference.warp_ready (under the age discipline, the chance p that a
warp of a class can issue in a cycle: a kernel with w warps on each warp scheduler leaves the
(1 - p)^w of the cycles none of them can use to the kernels served after it) to the same-class
pairs of a `combosim-cuda bench pairs-dev3` run (calibration rows: two long kernels of one class,
one block per SM each, in both launch orders; the run's other pairs stay development).

Why: on the H200 (cuda/runs/h200-pairs-dev3) the first of two CD kernels of 8 warps per SM runs
at ~0.72 of its solo speed and the second at ~0.37 while both are resident; of two TC kernels the
first at ~1.0 and the second at ~0.16.  Strict age priority gives the second nothing until the
first ends; co-run set 1's kernels of 32 warps per SM come close to it.

`schedulers` (warp schedulers per SM) is the description's sm.schedulers, else its warp_ready's,
else 4 (Hopper: four SM sub-partitions, one warp scheduler each; NVIDIA H100 Tensor Core GPU
Architecture whitepaper).  For each class with a same-class pair it scans p = 0.05, 0.06, ...,
1 (1: strict priority), writes the
description with it to a temporary directory, simulates the pair in both orders with
compare_pairs.py's experiments (each kernel's solo time the run's median, the second kernel of
LS launched when the GPU's started) and scores the mean squared log(sim / GPU) of the four
durations (L and S, LS and SL).  Prints the best p per class and the durations at it.
--json prints only {"values": {"interference": {"warp_ready": {...}}}, "source": "..."}.

Usage: cuda/scripts/fit_ready.py RUN [--gpu MODEL.json] [--json]
       (RUN: a directory holding pairs.csv, run.tgz or run.tar.xz, or a run's tarball itself;
        --gpu default models/h200.json; from the root, after `make`; $COMBOSIM or bin/combosim)"""
import json
import math
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_pairs as cp  # noqa: E402
from runtar import fit_args  # noqa: E402

GRID = [i / 100 for i in range(5, 101)]
SCHEDULERS = 4


def pair_inputs(rows):
    """compare_pairs.simulate's pair dict and the GPU's median durations {(order, who): us}."""
    r0 = rows[0]
    med = lambda col, order=None: statistics.median(float(r[col]) for r in rows if order in (None, r['order']))
    p = dict(lcls=r0['long_class'], lthr=int(r0['long_threads']), lgrid=int(r0['long_grid']),
             lus=med('long_solo_us'), scls=r0['short_class'], sthr=int(r0['short_threads']),
             sgrid=int(r0['short_grid']), sus=med('short_solo_us'), delay=med('second_start_us', 'LS'))
    gpu = {(o, w): med(c, o) for o in ('LS', 'SL') for w, c in (('L', 'long_with_us'), ('S', 'short_with_us'))}
    return p, gpu


def durations(binary, gpu_path, p, tmp):
    out = {}
    for order in ('LS', 'SL'):
        sim = cp.simulate(binary, gpu_path, p, order, tmp)
        for w in ('L', 'S'):
            out[(order, w)] = sim[w][1] - sim[w][0]
    return out


def is_calibration(rows):
    """A calibration row: two kernels of one class, 256 threads (8 warps), one block per SM each."""
    r = rows[0]
    return (r['long_class'] == r['short_class'] and int(r['long_threads']) == int(r['short_threads']) == 256
            and int(r['long_grid']) == int(r['short_grid']) == cp.N)


def schedulers(base):
    """Warp schedulers per SM: the description's sm.schedulers, else its warp_ready's, else
    SCHEDULERS."""
    return base['sm'].get('schedulers') or base['interference'].get('warp_ready', {}).get('schedulers', SCHEDULERS)


def own_schedulers(base):
    """warp_ready's own "schedulers" key: only where the description's sm gives none."""
    return {} if base['sm'].get('schedulers') else {'schedulers': schedulers(base)}


def with_ready(base, ready, tmp):
    """The description with warp_ready's classes set (and its schedulers); its path."""
    g = json.loads(json.dumps(base))
    wr = g['interference'].setdefault('warp_ready', {})
    wr.pop('schedulers', None)
    wr.update(own_schedulers(base))
    wr.update(ready)
    path = os.path.join(tmp, 'gpu.json')
    json.dump(g, open(path, 'w'))
    return path


def rows_text(sim, gpu):
    return ', '.join('%s %s %.0f us (GPU %.0f)' % (o, w, sim[(o, w)], gpu[(o, w)]) for o in ('LS', 'SL') for w in ('L', 'S'))


def score(sim, gpu):
    return sum(math.log(sim[k] / gpu[k]) ** 2 for k in gpu) / len(gpu)


def main():
    a = fit_args(__doc__)
    binary = os.environ.get('COMBOSIM', 'bin/combosim')
    base = json.load(open(a.gpu))
    with tempfile.TemporaryDirectory() as tmp:
        groups = cp.gpu_rows(cp.pairs_csv(a.run, tmp))
        same = {n: rows for n, rows in groups.items() if rows[0]['long_class'] == rows[0]['short_class']}
        calib = {n: rows for n, rows in same.items() if is_calibration(rows)}
        if not calib:
            sys.exit('fit_ready.py: %s has no pair of two one-block-per-SM 256-thread kernels of one class' % a.run)
        best, notes = {}, []
        for name, rows in sorted(calib.items()):
            cls = rows[0]['long_class']
            p, gpu = pair_inputs(rows)
            scored = []
            for p_ready in GRID:
                sim = durations(binary, with_ready(base, {cls: p_ready}, tmp), p, tmp)
                scored.append((score(sim, gpu), p_ready, sim))
            s, p_best, sim = min(scored, key=lambda x: x[:2])
            strict = scored[-1][0]
            if max(x[0] for x in scored) - s < 1e-6:
                notes.append('%s (%s): no fit, the pair\'s durations do not depend on p (they do not contend)'
                             % (cls, name))
            else:
                best[cls] = p_best
                notes.append('%s (%s): p %.2f, mean squared log error %.4f (strict priority, p 1: %.4f); %s'
                             % (cls, name, p_best, s, strict, rows_text(sim, gpu)))
            if not a.json:
                print('calibration %s: %s' % (name, notes[-1]))
        dev = []
        for name, rows in sorted(same.items()):
            if name in calib:
                continue
            p, gpu = pair_inputs(rows)
            sim = durations(binary, with_ready(base, best, tmp), p, tmp)
            dev.append('%s: mean squared log error %.4f; %s' % (name, score(sim, gpu), rows_text(sim, gpu)))
            if not a.json:
                print('development %s' % dev[-1])
    src = ('cuda/scripts/fit_ready.py on %s (bench pairs-dev3): calibration, its pairs of two long kernels of one '
           'class, 256 threads and one block per SM each (8 warps per SM), both orders, medians of the repetitions; '
           'p scanned 0.05-1 by 0.01 with %d warp schedulers per SM (Hopper: four SM sub-partitions, one warp '
           'scheduler each; NVIDIA H100 Tensor Core GPU Architecture whitepaper), in %s: %s.  Development, its '
           'other same-class pairs at the fitted p: %s'
           % (a.run, schedulers(base), a.gpu, '; '.join(notes), '; '.join(dev) or 'none'))
    if a.json:
        print(json.dumps({'values': {'interference': {'warp_ready': dict(best, **own_schedulers(base))}},
                          'source': src}))
    else:
        print(json.dumps(best))


if __name__ == '__main__':
    main()
