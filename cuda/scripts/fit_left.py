#!/usr/bin/env python3
"""Fits a GPU description's interference.warp_left (under the age discipline, beside an older
kernel of class b with w of its warps on a warp scheduler, the pace a later kernel of class k
keeps there, for w = 1, 2, ...) to a `combosim-cuda bench pairs-warps` run: per pair of classes,
a kernel L of one block per SM whose warps divide evenly among the schedulers, launched first,
beside S of 4-warp blocks launched when the GPU's S started.

Why a table: on the H200 (cuda/runs/h200-describe pairs-warps.tgz) what CD warps leave does not
fall with their count as warp_ready's (1 - p)^w does: a CD S runs at about 0.58 of its speed
beside 1 warp per scheduler, 0.26 beside 2, 0.01 beside 3, 0.58 again beside 4 (the bench's
warps run one unrolled FMA loop in phase); a MEM S at 1.0 / 0.36 / 0.01 / 0.98, a TC S at 0.33 /
0.13 / 0.03 / 0.35: the later kernel's class sets how much of the same cycles it turns into
progress, which one issue share per class does not follow.

Each count's pace is scanned (0-1 by 0.05, then by 0.01 about the best) with the others held, by
simulating the LS pair with compare_pairs.py's experiment (solo times the run's medians) and
scoring the mean squared log(sim / GPU) of L's and S's durations; the SL order is printed, not
fitted (L lands behind S's grid: the pile-up, another mechanism).  A count missing between two
measured ones gets the line between them (said in the source); beyond the last the simulator
holds the last.  Pairs of 2 to 16 blocks per SM are not fitted: the simulator's blocks of one
wave end at their own times (block_spread), so some have left when S lands and the pair reads
another count; their error at the table is printed as development (on the GPU 10 of the 13 CD
layouts leave what one block of the same warps per scheduler does).  The older classes fitted
are taken out of the description's warp_ready (a class takes one form), and the issue_yield
rules of the pairs measured (the table gives the pace a yield would have set: on the H200 a CD
kernel beside an older TC one runs at 0.7-0.8 of its speed, not ahead of it).
--json prints only {"values": {"interference": {"warp_left": {...}}}, "source": "..."}.

Usage: cuda/scripts/fit_left.py RUN [--gpu MODEL.json] [--json]
       (RUN: a directory holding pairs.csv, run.tgz or run.tar.xz, or a run's tarball; --gpu
        default models/h200.json; from the root, after `make`; $COMBOSIM or bin/combosim)"""
import json
import math
import os
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_pairs as cp  # noqa: E402
from runtar import fit_args  # noqa: E402
from fit_ready import pair_inputs, schedulers  # noqa: E402


def layout(rows):
    """(L's class, S's class, L's blocks per SM, warps per block)."""
    r = rows[0]
    return r['long_class'], r['short_class'], int(r['long_grid']) // cp.N, int(r['long_threads']) // 32


def with_left(base, left, tmp):
    """The description with warp_left's tables {(b, k): [...]} set and their older classes taken
    out of warp_ready; its path."""
    g = json.loads(json.dumps(base))
    inter = g['interference']
    ready = inter.get('warp_ready', {})
    for b, _ in left:
        ready.pop(b, None)
    if 'warp_ready' in inter and set(ready) <= {'source', 'schedulers'}:
        inter.pop('warp_ready')
    wl = inter.setdefault('warp_left', {})
    for (b, k), t in left.items():
        wl.setdefault(b, {})[k] = [round(v, 4) for v in t]
    drop_yields(inter)
    path = os.path.join(tmp, 'gpu.json')
    json.dump(g, open(path, 'w'))
    return path


def drop_yields(inter):
    """Takes out of interference.issue_yield every rule a warp_left table measures (a class
    served after another whatever the launch order: the table gives the measured pace instead)."""
    y = inter.get('issue_yield')
    if not y:
        return
    for b, k in list(y.items()):
        if b != 'source' and k in inter.get('warp_left', {}).get(b, {}):
            del y[b]
    if set(y) <= {'source'}:
        del inter['issue_yield']


def ls_durations(binary, gpu_path, p, tmp):
    sim = cp.simulate(binary, gpu_path, p, 'LS', tmp)
    return {w: sim[w][1] - sim[w][0] for w in ('L', 'S')}


def score(sim, gpu):
    return sum(math.log(sim[w] / gpu[('LS', w)]) ** 2 for w in ('L', 'S')) / 2


def fill(measured):
    """{count: share} -> the table for 1..max, a missing count on the line between its measured
    neighbours; and the counts so filled."""
    top = max(measured)
    known = sorted(measured)
    table, filled = [], []
    for w in range(1, top + 1):
        if w in measured:
            table.append(measured[w])
            continue
        lo = max(k for k in known if k < w) if any(k < w for k in known) else None
        hi = min(k for k in known if k > w)
        if lo is None:
            sys.exit('fit_left.py: no pair with 1 warp per scheduler below %d' % w)
        table.append(measured[lo] + (w - lo) / (hi - lo) * (measured[hi] - measured[lo]))
        filled.append(w)
    return table, filled


def scan(binary, base, left, key, w, p, gpu, tmp):
    """The pace at count w of the class pair key that fits the pair best: (score, pace, sim).
    The paces of each pass are simulated side by side (a folder each), one per CPU."""
    def at(v):
        t = list(left[key])
        t[w - 1] = v
        own = tempfile.mkdtemp(dir=tmp)
        sim = ls_durations(binary, with_left(base, {**left, key: t}, own), p, own)
        return score(sim, gpu), v, sim
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        best = min(pool.map(at, [i / 20 for i in range(21)]), key=lambda x: x[:2])
        fine = list(pool.map(at, [min(1, max(0, best[1] + i / 100)) for i in range(-5, 6)]))
    return min(fine + [best], key=lambda x: x[:2])


def main():
    a = fit_args(__doc__)
    binary = os.environ.get('COMBOSIM', 'bin/combosim')
    base = json.load(open(a.gpu))
    ns = schedulers(base)
    with tempfile.TemporaryDirectory() as tmp:
        groups = cp.gpu_rows(cp.pairs_csv(a.run, tmp))
        fit, controls = {}, []
        for name, rows in sorted(groups.items()):
            cls, scls, n, bw = layout(rows)
            if (n * bw) % ns:
                sys.exit('fit_left.py: %s is not a pairs-warps pair (L of warps dividing among %d schedulers)'
                         % (name, ns))
            w = n * bw // ns
            # one block per SM: the simulator's blocks of one wave end at their own times (block_spread),
            # so of two or more per SM some have left when S lands and the pair reads another count
            if n == 1:
                fit.setdefault((cls, scls), {})[w] = (name, rows)
            else:
                controls.append((name, rows, w))
        if not fit:
            sys.exit('fit_left.py: %s has no pairs-warps pair' % a.run)
        left = {key: fill({w: 0.0 for w in rows})[0] for key, rows in fit.items()}
        notes, lines = [], []
        for key in sorted(fit):
            measured = {}
            for w in sorted(fit[key]):
                name, rows = fit[key][w]
                p, gpu = pair_inputs(rows)
                s, v, sim = scan(binary, base, left, key, w, p, gpu, tmp)
                measured[w] = v
                left[key][w - 1] = v
                lines.append('%s beside %s, %d warps (%s): %.2f, error %.4f; LS L %.0f us (GPU %.0f), S %.0f us (GPU %.0f)'
                             % (key[1], key[0], w, name, v, s, sim['L'], gpu[('LS', 'L')], sim['S'], gpu[('LS', 'S')]))
            left[key], filled = fill(measured)
            left[key] = [round(v, 2) for v in left[key]]
            notes.append('%s beside %s: %s%s' % (key[1], key[0], ', '.join('%.2f' % v for v in left[key]),
                                                 ' (counts %s on the line between their neighbours)'
                                                 % ', '.join(map(str, filled)) if filled else ''))
        gpu_path = with_left(base, left, tmp)
        dev = []
        for name, rows, w in controls:
            p, gpu = pair_inputs(rows)
            sim = ls_durations(binary, gpu_path, p, tmp)
            dev.append('%s (%d warps per scheduler in %d blocks per SM): error %.4f; LS L %.0f us (GPU %.0f), S %.0f us '
                       '(GPU %.0f)' % (name, w, layout(rows)[2], score(sim, gpu), sim['L'], gpu[('LS', 'L')], sim['S'],
                                       gpu[('LS', 'S')]))
    if not a.json:
        print('\n'.join(['calibration ' + x for x in lines] + ['development ' + x for x in dev]))
    src = ('cuda/scripts/fit_left.py on %s (bench pairs-warps): calibration, L of one block per SM whose warps '
           'divide evenly among the %d warp schedulers, launched first, beside 4-warp blocks of S, medians of the '
           'repetitions; each count\'s pace scanned 0-1 (by 0.05, then 0.01) on the LS pair\'s L and S durations '
           'in %s.  Fitted: %s.  Per pair: %s.  Development, the same and other counts in 2 to 16 blocks per SM: %s'
           % (a.run, ns, a.gpu, '; '.join(notes), '; '.join(lines), '; '.join(dev) or 'none'))
    table = {}
    for (b, k), t in sorted(left.items()):
        table.setdefault(b, {})[k] = t
    if a.json:
        print(json.dumps({'values': {'interference': {'warp_left': table}}, 'source': src}))
    else:
        print(json.dumps(table))


if __name__ == '__main__':
    main()
