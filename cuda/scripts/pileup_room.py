#!/usr/bin/env python3
"""Where a kernel launched behind a many-block one lands, against the room each SM had: from a
pile-up bench run (pileup_blocks.csv), per pair and repetition, S's blocks resident on each SM
at the instant L's first block started (min / median / max over the SMs), how long L's blocks
took to land, and L's blocks per SM on the third of the SMs holding the fewest S blocks then,
the middle third and the third holding the most (mean; the most-room rule puts L where S holds
least).  Also S's block durations at the end of its run (the blocks the run recorded in SL)
against its first blocks alone (S-alone).
Usage: pileup_room.py RUN_DIR [PAIR ...]   (RUN_DIR: run.tgz or run.tar.xz holding
       r/pileup_blocks.csv, or the file's folder; default pairs: those whose name ends in x)"""
import collections, os, statistics, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pileup_report import load  # noqa: E402


def rows(run_dir):
    return list(load(run_dir)[0])


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    allr = rows(sys.argv[1])
    pairs = sys.argv[2:] or sorted({r['pair'] for r in allr if r['pair'].endswith('x')})
    print('| pair | rep | L lands over | S blocks per SM at L\'s landing: min / median / max '
          '| L blocks per SM where S held least / middle / most | S block us, end of its run: p10 / median / p90 '
          '| S alone, first blocks: median |')
    print('|---|---|---|---|---|---|---|')
    for pair in pairs:
        mine = [r for r in allr if r['pair'] == pair]
        alone = [int(r['end_ns']) - int(r['start_ns']) for r in mine if r['run'] == 'S-alone' and r['kernel'] == '0']
        for rep in sorted({r['rep'] for r in mine}):
            sl = [r for r in mine if r['rep'] == rep and r['run'] == 'SL']
            L = [r for r in sl if r['kernel'] == '1']
            S = [r for r in sl if r['kernel'] == '0']
            if not L or not S:
                continue
            t0 = min(int(r['start_ns']) for r in L)
            t1 = max(int(r['start_ns']) for r in L)
            sms = sorted({r['smid'] for r in allr if r['run'] == 'alone'} | {r['smid'] for r in sl}, key=int)
            res = collections.Counter(r['smid'] for r in S if int(r['start_ns']) <= t0 < int(r['end_ns']))
            lc = collections.Counter(r['smid'] for r in L)
            order = sorted(sms, key=lambda s: (res[s], int(s)))
            third = len(order) // 3
            groups = [order[:third], order[third:len(order) - third], order[len(order) - third:]]
            sd = [int(r['end_ns']) - int(r['start_ns']) for r in S]
            rv = [res[s] for s in sms]
            print('| %s | %s | %.2f us | %d / %d / %d | %s | %.2f / %.2f / %.2f | %s |' % (
                pair, rep, (t1 - t0) / 1e3, min(rv), statistics.median(rv), max(rv),
                ' / '.join('%.2f' % statistics.mean(lc[s] for s in g) for g in groups),
                pct(sd, .1) / 1e3, pct(sd, .5) / 1e3, pct(sd, .9) / 1e3,
                '%.2f us' % (statistics.median(alone) / 1e3) if alone else '-'))


if __name__ == '__main__':
    main()
