#!/usr/bin/env python3
"""Whether SMs run a grid's blocks at their own speed: for each S-alone grid of a pile-up run
(cuda/bench_pileup.c, pileup_blocks.csv), its steady-state blocks (starting more than 3 us after
the grid's first) per SM: the spread of the SMs' mean block durations over the grid's mean, the
part of it the blocks' own scatter explains (the variance of a mean of n), the rest (an SM's own
speed), the correlation of the two SMs of each TPC (SMs 2i and 2i + 1) and that spread over the
TPCs; then the first wave's (blocks starting within 3 us) scatter within an SM and the steady
blocks' scatter about their own SM's mean.  With --against RUN2 PAIR2, the correlation of one
grid's per-SM means with another's (another pair, or another device call).

Usage: sm_speed.py RUN [--against RUN2 PAIR PAIR2]   (RUN: a directory holding run.tgz, a
       pileup.tgz, or an unpacked run with pileup_blocks.csv; from the root)"""
import collections
import csv
import io
import os
import statistics as st
import sys
import tarfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from runtar import run_tar  # noqa: E402

FIRST_WAVE_NS = 3000


def s_alone(path):
    """{pair: [(smid, start_ns, end_ns)]} of a run's S-alone rows (repetition 0)."""
    tgz = path if os.path.isfile(path) else run_tar(path)
    if tgz:
        with tarfile.open(tgz) as t:
            name = next(n for n in t.getnames() if n.endswith('pileup_blocks.csv'))
            text = t.extractfile(name).read().decode()
    else:
        text = open(os.path.join(path, 'pileup_blocks.csv')).read()
    out = collections.defaultdict(list)
    for r in csv.DictReader(io.StringIO(text)):
        if r['run'] == 'S-alone' and r['rep'] == '0':
            out[r['pair']].append((int(r['smid']), int(r['start_ns']), int(r['end_ns'])))
    return out


def per_sm(blocks, steady=True):
    t0 = min(s for _, s, _ in blocks)
    by = collections.defaultdict(list)
    for sm, s, e in blocks:
        if (s - t0 > FIRST_WAVE_NS) == steady:
            by[sm].append(e - s)
    return {sm: d for sm, d in by.items() if len(d) >= 3}


def report(pair, blocks):
    by = per_sm(blocks)
    if len(by) < 4:
        return '%s: too few steady-state blocks per SM' % pair
    gm = st.mean(d for v in by.values() for d in v)
    m = {sm: st.mean(v) / gm for sm, v in by.items()}
    noise = st.mean(st.variance([x / gm for x in v]) / len(v) for v in by.values())
    var = st.pvariance(list(m.values()))
    tpc = [(m[s], m[s + 1]) for s in sorted(m) if s % 2 == 0 and s + 1 in m]
    corr = st.correlation([a for a, _ in tpc], [b for _, b in tpc]) if len(tpc) > 2 else float('nan')
    tpc_sd = max(0.0, st.pvariance([(a + b) / 2 for a, b in tpc]) - noise / 2) ** 0.5
    first = per_sm(blocks, steady=False)
    fw = [x / st.mean(v) for v in first.values() for x in v]
    res = [x / st.mean(v) for v in by.values() for x in v]
    return ('%s: block %.2f us, %.1f per SM; SM means sd %.2f %% (their blocks\' scatter %.2f %%, the SM\'s own '
            '%.2f %%); TPC pairs correlate %.2f, TPC speed sd %.2f %%; within an SM: first wave cv %.3f, '
            'steady cv %.3f' % (pair, gm / 1e3, st.mean(len(v) for v in by.values()), 100 * var ** 0.5,
                                100 * noise ** 0.5, 100 * max(0.0, var - noise) ** 0.5, corr, 100 * tpc_sd,
                                st.pstdev(fw) if fw else float('nan'), st.pstdev(res)))


def main():
    a = sys.argv[1:]
    if not a or a[0].startswith('-'):
        sys.exit(__doc__)
    runs = s_alone(a[0])
    if not runs:
        sys.exit('sm_speed.py: %s has no S-alone rows' % a[0])
    if '--against' in a:
        i = a.index('--against')
        other, p1, p2 = s_alone(a[i + 1]), a[i + 2], a[i + 3]
        x, y = per_sm(runs[p1]), per_sm(other[p2])
        sms = sorted(set(x) & set(y))
        print('%s against %s: per-SM means correlate %.2f over %d SMs'
              % (p1, p2, st.correlation([st.mean(x[s]) for s in sms], [st.mean(y[s]) for s in sms]), len(sms)))
        return
    for pair in sorted(runs):
        print(report(pair, runs[pair]))


if __name__ == '__main__':
    main()
