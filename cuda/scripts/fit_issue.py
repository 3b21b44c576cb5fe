#!/usr/bin/env python3
"""Fits the H100's issue-slot shares (models/h100.json interference.issue) to co-run set 1 of
cuda/runs/h100-bench-2/bench-corun (the calibration set): every pair of the four synthetic
classes in both launch orders, 32 per-kernel durations (kernels.csv).  For each point of a grid
(CD fixed at 1: one FMA block fills an SM, cuda/runs/h100-bench-3; TC, RT in 0.05 steps, MEM in
0.02 steps) it writes models/h100.json with that table and no contention factors to a temporary
directory, runs `bin/combosim run cuda/experiments/h100_corun_calibration.json` on it and scores
the mean squared log(sim / GPU) over the 32 durations.  Prints the best point and, for it and
for models/h100.json as it is, the per-kernel errors of set 1 and of set 2 (development:
kernels_heldout.csv, cuda/experiments/h100_corun_heldout.json; reported, not fitted).
Usage: cuda/scripts/fit_issue.py [--quick] (from the root, after `make`); about 2 minutes."""
import csv, json, math, os, subprocess, sys, tempfile

ROOT = os.getcwd()
RUNS = 'cuda/runs/h100-bench-2/bench-corun/'
SETS = {'set 1': ('cuda/experiments/h100_corun_calibration.json', RUNS + 'kernels.csv'),
        'set 2': ('cuda/experiments/h100_corun_heldout.json', RUNS + 'kernels_heldout.csv')}


def durations(path):
    d = {}
    for r in csv.DictReader(open(path)):
        if '+' in r['policy']:
            d[(r['policy'], r['owner'])] = (float(r['end_ns']) - float(r['start_ns'])) / 1e3
    return d


def simulate(gpu_path, which, tmp):
    exp = json.load(open(SETS[which][0]))
    exp['gpu'] = gpu_path
    ep = os.path.join(tmp, 'exp.json')
    json.dump(exp, open(ep, 'w'))
    out = os.path.join(tmp, 'out')
    subprocess.run(['bin/combosim', 'run', ep, '--out', out, '--quiet'], check=True, cwd=ROOT)
    return durations(os.path.join(out, 'kernels.csv'))


def errors(gpu_path, which, tmp):
    sim, gpu = simulate(gpu_path, which, tmp), durations(SETS[which][1])
    return {k: (sim[k] - gpu[k]) / gpu[k] for k in gpu if k in sim}, sim, gpu


def gpu_with(issue, tmp):
    g = json.load(open('models/h100.json'))
    it = g['interference']
    it['implicit_contention_from'] = 'none'
    it['issue'] = dict(issue, source='fit_issue.py grid point')
    p = os.path.join(tmp, 'gpu.json')
    json.dump(g, open(p, 'w'))
    return p


def summary(e):
    v = sorted(abs(x) for x in e.values())
    return 'median %.1f %%, p90 %.1f %%, max %.1f %% (%d kernels)' % (
        100 * v[len(v) // 2], 100 * v[min(len(v) - 1, int(0.9 * len(v)))], 100 * v[-1], len(v))


def main():
    quick = '--quick' in sys.argv
    steps = lambda lo, hi, st: [round(lo + i * st, 2) for i in range(int(round((hi - lo) / st)) + 1)]
    tcs = steps(0.4, 1.0, 0.1 if quick else 0.05)
    rts = steps(0.3, 0.7, 0.1 if quick else 0.05)
    mems = steps(0.02, 0.2, 0.06 if quick else 0.02)
    with tempfile.TemporaryDirectory() as tmp:
        best = None
        for tc in tcs:
            for rt in rts:
                for mem in mems:
                    issue = {'CD': 1.0, 'TC': tc, 'RT': rt, 'MEM': mem}
                    e, _, _ = errors(gpu_with(issue, tmp), 'set 1', tmp)
                    score = sum(math.log(1 + x) ** 2 for x in e.values()) / len(e)
                    if best is None or score < best[0] - 1e-9:
                        best = (score, issue)
        print('best: %s, mean squared log error %.5f' % (best[1], best[0]))
        for label, path in (('models/h100.json as it is', os.path.join(ROOT, 'models/h100.json')),
                            ('best point', gpu_with(best[1], tmp))):
            for which in SETS:
                e, sim, gpu = errors(path, which, tmp)
                print('%s, %s: %s' % (label, which, summary(e)))
                for k in sorted(e):
                    print('  %-24s %-6s GPU %7.0f us  sim %7.0f us  %+6.1f %%' %
                          (k[0].replace('original ', ''), k[1], gpu[k], sim[k], 100 * e[k]))


main()
