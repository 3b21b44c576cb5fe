#!/usr/bin/env python3
"""Where a grid frees room once its last block has landed: the n block exits that follow S's
last block start, counted per SM (mean, variance / mean, the most on one SM, the SMs with none,
and the span they take), on the GPU (S alone, every block of it) and in the simulator (S with a
one-warp block launched behind it, which tells S apart where the GPU describes a block drain and
barely slows it; seeds 1..K).  A kernel launched behind S lands in that room, so this is the
pile-up's cause without its effect: lockstep SMs give variance / mean near 0, SMs that free whole
give many SMs with none.  n: L's grid in the run (the blocks that land there).

With --wave, instead, how S's first wave ends on the GPU: on each SM whose first wave holds the
most common count n, its blocks' ends sorted, each over the last; their mean by rank (blocks
that end in turn climb from 1/n to 1, a wave in lockstep stays at 1).

Usage: exit_mix.py BIN/combosim RUN [PAIR ...] [--gpu GPU] [--seeds K]
       exit_mix.py --wave RUN [PAIR ...]
       (RUN: a pile-up run, pileup_blocks.csv + summary.json or run.tgz / run.tar.xz holding them,
        or a per-block pairs run, pairs_blocks.csv + pairs.csv; PAIR: default every pair whose S
        has more blocks than one per SM; GPU default models/h200.json; K default 2)"""
import collections
import csv
import io
import json
import os
import statistics as st
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from runtar import run_file  # noqa: E402


def members(path, tmp):
    """{name: text} of the run's pileup_blocks.csv, summary.json, pairs_blocks.csv, pairs.csv
    (RUN unpacked, or its tarball unpacked under tmp)."""
    d = os.path.dirname(run_file(path, 'summary.json', tmp, 'exit_mix.py'))
    return {b: open(os.path.join(d, b)).read() for b in ('pileup_blocks.csv', 'summary.json', 'pairs_blocks.csv',
                                                         'pairs.csv') if os.path.exists(os.path.join(d, b))}


def gpu_runs(path, tmp):
    """{pair: (S's blocks alone [(sm, start, end)], S shape dict, n)}."""
    m = members(path, tmp)
    out = {}
    if 'pileup_blocks.csv' in m:
        summ = json.loads(m['summary.json'])['pileup']
        blocks = collections.defaultdict(list)
        for r in csv.DictReader(io.StringIO(m['pileup_blocks.csv'])):
            if r['run'] == 'S-alone' and r['rep'] == '0':
                blocks[r['pair']].append((int(r['smid']), int(r['start_ns']), int(r['end_ns'])))
        for p, b in blocks.items():
            sh = summ[p]
            us = sh['reps'][0]['short_alone_us']      # the repetition whose blocks are recorded
            out[p] = (b, dict(cls=sh['short_class'], grid=sh['short_grid'], threads=sh['short_threads'], us=us),
                      sh['long_grid'])
    elif 'pairs_blocks.csv' in m:
        rows = list(csv.DictReader(io.StringIO(m['pairs.csv'])))
        blocks = collections.defaultdict(list)
        for r in csv.DictReader(io.StringIO(m['pairs_blocks.csv'])):
            if r['run'] == 'S-alone':
                blocks[r['pair']].append((int(r['smid']), int(r['start_ns']), int(r['end_ns'])))
        for p, b in blocks.items():
            rr = [r for r in rows if r['pair'] == p]
            us = st.median(float(r['short_solo_us']) for r in rr)
            out[p] = (b, dict(cls=rr[0]['short_class'], grid=int(rr[0]['short_grid']),
                              threads=int(rr[0]['short_threads']), us=us), int(rr[0]['long_grid']))
    else:
        sys.exit('exit_mix.py: %s holds no per-block records (pileup_blocks.csv, pairs_blocks.csv)' % path)
    return out


def mix(blocks, n, sms):
    """The first n exits after the last block start: per-SM counts' mean, var/mean, max, SMs
    with none, and their span in us."""
    last = max(s for _, s, _ in blocks)
    ex = sorted((e, sm) for sm, _, e in blocks if e > last)[:n]
    if not ex:
        return None
    c = collections.Counter(sm for _, sm in ex)
    v = [c.get(s, 0) for s in range(sms)]
    m = st.mean(v)
    return m, st.pvariance(v) / m, max(v), v.count(0), (ex[-1][0] - last) / 1e3


def simulated(binary, gpu, S, seed, tmp):
    """S's blocks in the simulator, a one-warp CD block behind it: [(sm, start, end)] in ns."""
    exp = {'name': 'exits', 'gpu': gpu, 'seed': seed, 'duration_ms': 100,
           'kernels': [{'name': 'S', 'class': S['cls'], 'grid': S['grid'], 'threads': S['threads'], 'regs': 32,
                        'smem': 0, 'solo_us': S['us']},
                       {'name': 'L', 'class': 'CD', 'grid': 1, 'threads': 32, 'regs': 32, 'smem': 0, 'solo_us': 1}],
           'apps': [{'name': 'first', 'kernels': ['S'], 'repeat': 1},
                    {'name': 'second', 'kernels': ['L'], 'repeat': 1, 'start_ms': 0}],
           'policies': [{'name': 'exclusive', 'label': 'exits', 'run': 'be'}],
           'outputs': {'timeline': True, 'timeline_lanes': 'sms'}}
    path, out = os.path.join(tmp, 'exits.json'), os.path.join(tmp, 'out')
    json.dump(exp, open(path, 'w'))
    subprocess.run([binary, 'run', path, '--out', out, '--quiet'], check=True)
    t = json.load(open(os.path.join(out, 'timeline.json')))
    ev = t['traceEvents'] if isinstance(t, dict) else t
    lane = {e['tid']: e['args']['name'] for e in ev if e.get('ph') == 'M' and e['name'] == 'thread_name'}
    b = []
    for e in ev:
        if e.get('ph') == 'X' and e['name'] == 'S' and lane.get(e['tid'], '').startswith('SM '):
            sm = int(lane[e['tid']].split()[1].split('.')[0])
            b += [(sm, e['ts'] * 1e3, (e['ts'] + e['dur']) * 1e3)] * e['args']['blocks']
    return b


def wave_ends(blocks):
    """(n, [mean end of the k-th block to end over the SM's last, k = 1..n]) of S's first wave
    (the blocks that started before any ended), over the SMs holding n of them."""
    first = min(e for _, _, e in blocks)
    t0 = min(s for _, s, _ in blocks)
    by = collections.defaultdict(list)
    for sm, s, e in blocks:
        if s < first:
            by[sm].append(e - t0)
    n = st.mode(len(v) for v in by.values())
    ranks = [[] for _ in range(n)]
    for v in by.values():
        if len(v) == n:
            for i, e in enumerate(sorted(v)):
                ranks[i].append(e / max(v))
    return n, [st.mean(r) for r in ranks]


def fmt(x):
    return '-' if x is None else '%.2f, %.2f, %d, %d, %.0f us' % x


def main():
    a = sys.argv[1:]
    gpu, seeds = 'models/h200.json', 2
    for opt in ('--gpu', '--seeds'):
        if opt in a:
            i = a.index(opt)
            if opt == '--gpu':
                gpu = a[i + 1]
            else:
                seeds = int(a[i + 1])
            del a[i:i + 2]
    if a and a[0] == '--wave':
        if len(a) < 2:
            sys.exit(__doc__)
        with tempfile.TemporaryDirectory() as tmp:
            runs = gpu_runs(a[1], tmp)
        print('| pair | S | first wave per SM | its blocks\' ends by rank, over the last |')
        print('|---|---|---|---|')
        for p in a[2:] or sorted(runs):
            b, S, _ = runs[p]
            n, e = wave_ends(b)
            print('| %s | %s %dx%d | %d | %s |' % (p, S['cls'], S['grid'], S['threads'], n, ' '.join('%.2f' % x for x in e)))
        return
    if len(a) < 2:
        sys.exit(__doc__)
    binary = a[0]
    sms = json.load(open(gpu))['sm_count']
    with tempfile.TemporaryDirectory() as tmp:
        runs = gpu_runs(a[1], tmp)
        pairs = a[2:] or sorted(p for p, (b, S, n) in runs.items() if S['grid'] > sms)
        print('| pair | S | n | GPU: mean, var/mean, most, SMs with none, span | simulator, seeds 1-%d |' % seeds)
        print('|---|---|---|---|---|')
        for p in pairs:
            if p not in runs:
                sys.exit('exit_mix.py: no pair %s in %s' % (p, a[1]))
            b, S, n = runs[p]
            sim = [fmt(mix(simulated(binary, gpu, S, k, tmp), n, sms)) for k in range(1, seeds + 1)]
            print('| %s | %s %dx%d | %d | %s | %s |' % (p, S['cls'], S['grid'], S['threads'], n, fmt(mix(b, n, sms)),
                                                       '; '.join(sim)))


if __name__ == '__main__':
    main()
