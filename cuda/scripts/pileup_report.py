#!/usr/bin/env python3
"""The pile-up bench (cuda/bench_pileup.c) read and simulated: per pair, L's duration alone and
behind S on the GPU (each repetition) and in the simulator (compare_pairs.py's SL experiment at
the measured times: L alone's median, S's duration in SL; the median over seeds 1-5, the range
beside when they differ), the most L blocks one SM ran, and
what S's drain looked like while L landed: the spread of S's block durations (p10 / median /
p90 over the recorded blocks) and S's block exits per SM in L's landing window (from 0.2 us
before L's first block to its last block's start: mean, variance / mean, max over the SMs) and
their correlation with L's blocks per SM.  Repetition 0's blocks for the drain columns.
Usage: pileup_report.py BIN/combosim RUN_DIR [--gpu GPU]   (GPU: a description, default h100; RUN_DIR: pileup_blocks.csv and summary.json, or
       run.tgz holding them under r/); prints a markdown table"""
import collections, csv, io, json, os, statistics, sys, tarfile, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_pairs as cp  # noqa: E402  (its simulate(): the pair benches' SL experiment)
from runtar import run_tar  # noqa: E402


def load(run_dir):
    tgz = run_tar(run_dir)
    if tgz:
        with tarfile.open(tgz) as t:
            blocks = t.extractfile('r/pileup_blocks.csv').read().decode()
            summ = json.load(t.extractfile('r/summary.json'))
    else:
        blocks = open(os.path.join(run_dir, 'pileup_blocks.csv')).read()
        summ = json.load(open(os.path.join(run_dir, 'summary.json')))
    return csv.DictReader(io.StringIO(blocks)), summ['pileup']


def drain(rows, n_sms):
    """S's block duration p10 / median / p90 (us); S exits per SM in L's landing window: mean,
    variance / mean, max; the most L blocks on one SM; corr(exits, L blocks) over the SMs"""
    S = [r for r in rows if r['kernel'] == '0']
    L = [r for r in rows if r['kernel'] == '1']
    t0 = min(int(r['start_ns']) for r in L)
    t1 = max(int(r['start_ns']) for r in L)
    ex, nl = collections.Counter(), collections.Counter()
    for r in S:
        if t0 - 200 <= int(r['end_ns']) <= t1:
            ex[int(r['smid'])] += 1
    for r in L:
        nl[int(r['smid'])] += 1
    xs = [ex[s] for s in range(n_sms)]
    ls = [nl[s] for s in range(n_sms)]
    d = sorted((int(r['end_ns']) - int(r['start_ns'])) / 1e3 for r in S)
    m = statistics.mean(xs)
    v = statistics.pvariance(xs)
    c = statistics.correlation(xs, ls) if v > 0 and statistics.pvariance(ls) > 0 else float('nan')
    return (d[len(d) // 10], statistics.median(d), d[9 * len(d) // 10]), (m, v / m if m else 0, max(xs)), \
        max(ls), c, (t1 - t0) / 1e3


def main():
    gpu = 'h100'
    if len(sys.argv) == 5 and sys.argv[3] == '--gpu':
        gpu = sys.argv[4]
        del sys.argv[3:]
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    binary, run_dir = sys.argv[1], sys.argv[2]
    reader, summ = load(run_dir)
    sl = collections.defaultdict(list)
    for r in reader:
        if r['run'] == 'SL' and r['rep'] == '0':
            sl[r['pair']].append(r)
    with tempfile.TemporaryDirectory(prefix='combosim-pileup.') as tmp:
        report(binary, gpu, summ, sl, tmp)


def report(binary, gpu, summ, sl, tmp):
    """The table's rows, the simulator's runs in tmp."""
    print('| pair | L alone | L behind S: GPU (reps) | most L blocks on one SM: GPU | sim | sim / alone '
          '| S blocks: p10 / median / p90 | L lands over | S exits per SM there: mean, var/mean, max | corr(exits, L) |')
    print('|---|---|---|---|---|---|---|---|---|---|')
    for name, sh in summ.items():
        if not isinstance(sh, dict):
            continue
        reps = sh['reps']
        la = statistics.median(r['long_alone_us'] for r in reps)
        su = statistics.median(r['short_us'] for r in reps)
        pair = dict(lcls=sh['long_class'], lgrid=sh['long_grid'], lthr=sh['long_threads'], lus=la,
                    scls=sh['short_class'], sgrid=sh['short_grid'], sthr=sh['short_threads'], sus=su, delay=0)
        # the simulator's median over seeds 1-5, as compare_pairs.py (a drawn drain makes the
        # pile-up random); the range beside when the seeds differ
        sims = [r['L'][1] - r['L'][0] for r in (cp.simulate(binary, gpu, pair, 'SL', tmp, seed) for seed in range(1, cp.SEEDS + 1))]
        sim = statistics.median(sims)
        if sl[name]:
            (p10, p50, p90), (m, vm, mx), _, c, window = drain(sl[name], cp.N)
            drained = '%.2f / %.2f / %.2f us | %.2f us | %.2f, %.2f, %d | %.2f' % (p10, p50, p90, window, m, vm, mx, c)
        else:   # a run whose SL block records were left out (h200-describe's pileup.tgz)
            drained = '- | - | - | -'
        print('| %s (L %s %dx%d, S %s %dx%d) | %.0f us | %s us | %s (occupancy %d) | %s | %.2f | %s |' % (
                  name, sh['long_class'], sh['long_grid'], sh['long_threads'], sh['short_class'], sh['short_grid'],
                  sh['short_threads'], la, ' / '.join('%.0f' % x['long_behind_us'] for x in reps),
                  ' / '.join(str(x['long_behind_max_per_sm']) for x in reps), sh['long_occupancy'], cp.over_seeds(sims),
                  sim / la,
                  drained))


if __name__ == '__main__':
    main()
