#!/usr/bin/env python3
"""Fits a GPU description's block_spread.scale (per class, how strongly the blocks of one kernel
placed together on an SM end in turn, at 1, 2, .. warps of the kernel per warp scheduler there:
1 the description's block_spread quantiles as given, 0 all together) to a `combosim-cuda bench
pairs-spread` run: every block of L alone (pairs_blocks.csv, run L-alone), L of 2 to 8 blocks
per SM whose warps divide evenly among the schedulers.

Why: on the H200 (cuda/runs/h200-describe pairs-spread.tgz) a CD kernel's blocks on one SM end
together at up to 3 warps per scheduler and in turn beyond, the more so the more warps (the
shortest over the longest per SM: 1.0 at 1-3, 0.7 at 4, 0.5 at 6, 0.35 at 9); TC's from 3
warps; MEM's and RT's hardly at all.  block_spread's quantiles come from one layout (placement
P1, three CD blocks per SM) and were given to every kernel past its saturation.

For each layout: the standard deviation of each block's duration over its SM's mean, pooled
over the SMs, against the same for the description's quantiles at (i + 1/2) / n for n blocks
(what the simulator gives them, sim/timing.c); the ratio is the layout's strength.  Per class
and count the median over its layouts; a count between two measured ones on the line between,
below the first the first's.  --json prints only {"values": {"block_spread": {"scale": {...}}},
"source": "..."}.

Usage: cuda/scripts/fit_spread.py RUN [--gpu MODEL.json] [--json]
       (RUN: a directory holding pairs_blocks.csv, run.tgz or run.tar.xz, or a run's tarball;
        --gpu default models/h200.json)"""
import collections
import csv
import json
import math
import os
import re
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from runtar import fit_args, run_file  # noqa: E402


def quantile_at(q, u):
    x = u * (len(q) - 1)
    i = int(x)
    return q[-1] if i >= len(q) - 1 else q[i] + (x - i) * (q[i + 1] - q[i])


def sim_sd(q, n):
    """The sd of the description's n factors over their mean."""
    f = [quantile_at(q, (i + 0.5) / n) for i in range(n)]
    m = sum(f) / n
    return math.sqrt(sum((x / m - 1) ** 2 for x in f) / n)


def measured(path):
    """{layout name: (class, blocks per SM, warps per block, pooled sd of block / SM mean)}."""
    per = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in csv.DictReader(open(path)):
        if r['run'] == 'L-alone':
            per[r['pair']][r['smid']].append(int(r['end_ns']) - int(r['start_ns']))
    out = {}
    for name, sms in per.items():
        m = re.match(r's-([A-Z]+)(\d+)w(\d+)$', name)
        if not m:
            continue
        dev = []
        for d in sms.values():
            mean = sum(d) / len(d)
            dev += [(x / mean - 1) ** 2 for x in d]
        out[name] = (m.group(1), int(m.group(2)), int(m.group(3)), math.sqrt(sum(dev) / len(dev)))
    return out


def fill(points):
    """{count: strength} -> the table for 1..max: below the first the first's, between two the
    line; and the counts so filled."""
    known = sorted(points)
    table, filled = [], []
    for w in range(1, known[-1] + 1):
        if w in points:
            table.append(points[w])
            continue
        lo = [k for k in known if k < w]
        hi = min(k for k in known if k > w)
        table.append(points[hi] if not lo else points[lo[-1]] + (w - lo[-1]) / (hi - lo[-1]) * (points[hi] - points[lo[-1]]))
        filled.append(w)
    return table, filled


def main():
    a = fit_args(__doc__)
    g = json.load(open(a.gpu))
    q = g['block_spread']['quantiles']
    ns = g['sm'].get('schedulers')
    if not ns:
        sys.exit('fit_spread.py: %s has no sm.schedulers' % a.gpu)
    with tempfile.TemporaryDirectory() as tmp:
        lay = measured(run_file(a.run, 'pairs_blocks.csv', tmp, 'fit_spread.py'))
    if not lay:
        sys.exit('fit_spread.py: %s has no L-alone blocks of a pairs-spread layout' % a.run)
    by = collections.defaultdict(lambda: collections.defaultdict(list))
    lines = []
    for name, (cls, n, bw, sd) in sorted(lay.items()):
        if (n * bw) % ns:
            continue
        w = n * bw // ns
        s = sd / sim_sd(q, n)
        by[cls][w].append(s)
        lines.append('%s (%d x %d warps, %d per scheduler): sd %.3f, %.2f of the quantiles\'' % (name, n, bw, w, sd, s))
        if not a.json:
            print('calibration ' + lines[-1])
    scale, notes = {}, []
    for cls in sorted(by):
        pts = {w: round(statistics.median(v), 2) for w, v in by[cls].items()}
        table, filled = fill(pts)
        scale[cls] = [round(v, 2) for v in table]
        notes.append('%s %s%s' % (cls, ', '.join('%.2f' % v for v in scale[cls]),
                                  ' (counts %s filled)' % ', '.join(map(str, filled)) if filled else ''))
    src = ('cuda/scripts/fit_spread.py on %s (bench pairs-spread): calibration, every block of L alone, 2 to 8 '
           'blocks per SM at 1-12 warps per warp scheduler; per layout the pooled sd of each block\'s duration over '
           'its SM\'s mean against the same for block_spread\'s quantiles at n blocks (%s); per class and count the '
           'median over layouts, between counts the line, below the first the first\'s.  Fitted, at 1, 2, .. warps per '
           'scheduler: %s.  Per layout: %s' % (a.run, a.gpu, '; '.join(notes), '; '.join(lines)))
    if a.json:
        print(json.dumps({'values': {'block_spread': {'scale': dict(scale, source=src)}}, 'source': src}))
    else:
        print(json.dumps(scale))


if __name__ == '__main__':
    main()
