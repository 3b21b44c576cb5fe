#!/usr/bin/env python3
"""Per-policy comparison of a simulated and a real (combosim-cuda run) experiment: kernel
duration error, frame latency error, FPS, BE throughput and BE throughput ratio (against the
BE-alone run of a baseline pair of directories).  Reads kernels.csv / frames.csv (and the real
run's tasks.csv, so BE work an SM-bound kernel skipped is not counted as done).

usage: compare_runs.py SIM_DIR REAL_DIR DURATION_MS BASE_SIM_DIR BASE_REAL_DIR [--json FILE]
Prints one table row per policy; --json writes the numbers.
"""
import csv
import gzip
import json
import os
import statistics
import sys


def pct(v, q):
    if not v:
        return float('nan')
    v = sorted(v)
    k = (len(v) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def load(d):
    ks = list(csv.DictReader(open(os.path.join(d, 'kernels.csv'))))
    fs = list(csv.DictReader(open(os.path.join(d, 'frames.csv'))))
    tp = os.path.join(d, 'tasks.csv')
    if os.path.exists(tp) or os.path.exists(tp + '.gz'):   # stored runs keep tasks.csv gzipped
        ts = list(csv.DictReader(open(tp) if os.path.exists(tp) else gzip.open(tp + '.gz', 'rt')))
        assert len(ts) == len(ks), 'tasks.csv and kernels.csv differ in rows'
        for k, t in zip(ks, ts):
            assert (k['policy'], k['kernel'], k['owner']) == (t['policy'], t['kernel'], t['owner'])
            k['done'] = int(t['tasks_done']) / int(t['tasks'])
    else:
        for k in ks:
            k['done'] = 1.0
    return ks, fs


def per_policy(ks, fs, dur_s):
    out = {}
    occ = {}
    for k in ks:
        p = out.setdefault(k['policy'], {'k': {}, 'f': {}, 'be_ns': 0.0, 'frames': 0})
        key = (k['owner'], k['kernel'])
        n = occ.get((k['policy'],) + key, 0)
        occ[(k['policy'],) + key] = n + 1
        p['k'][key + (n,)] = int(k['end_ns']) - int(k['start_ns'])
        if k['frame'] == '-1':
            p['be_ns'] += int(k['solo_ns']) * k['done']
    for f in fs:
        p = out.setdefault(f['policy'], {'k': {}, 'f': {}, 'be_ns': 0.0, 'frames': 0})
        if f['dropped'] == '0':
            p['frames'] += 1
            p['f'][(f['game'], f['frame'])] = int(f['latency_ns'])
    for p in out.values():
        p['be_thr'] = p['be_ns'] / 1e9 / dur_s     # solo-seconds of BE work per second
        p['fps'] = p['frames'] / dur_s
    return out


def errs(a, b):
    return [abs(a[x] - b[x]) / b[x] for x in a if x in b and b[x] > 0]


def main():
    args = sys.argv[1:]
    js = None
    if '--json' in args:
        i = args.index('--json')
        js = args[i + 1]
        del args[i:i + 2]
    sim_dir, real_dir, dur_ms, bsim, breal = args
    dur_s = float(dur_ms) / 1e3
    S = per_policy(*load(sim_dir), dur_s)
    R = per_policy(*load(real_dir), dur_s)
    bS = per_policy(*load(bsim), dur_s).get('be-alone')
    bR = per_policy(*load(breal), dur_s).get('be-alone')
    rows = []
    print('%-11s %7s %7s %7s | %7s %7s | %6s %6s %6s | %7s %7s %6s | %6s %6s %6s' % (
        'policy', 'kmatch', 'k med', 'k p90', 'f med', 'f p90', 'FPSsim', 'FPSgpu', 'diff',
        'BEsim', 'BEgpu', 'err', 'rsim', 'rgpu', 'err'))
    for pol in R:
        if pol not in S:
            continue
        s, r = S[pol], R[pol]
        ke = errs(s['k'], r['k'])
        fe = errs(s['f'], r['f'])
        row = {'policy': pol, 'kernels_matched': len(ke),
               'kernels_only_sim': len(set(s['k']) - set(r['k'])), 'kernels_only_real': len(set(r['k']) - set(s['k'])),
               'kernel_err_median': statistics.median(ke) if ke else None, 'kernel_err_p90': pct(ke, 0.9) if ke else None,
               'frames_matched': len(fe),
               'frame_latency_err_median': statistics.median(fe) if fe else None,
               'frame_latency_err_p90': pct(fe, 0.9) if fe else None,
               'fps_sim': s['fps'], 'fps_real': r['fps'],
               'be_thr_sim': s['be_thr'], 'be_thr_real': r['be_thr']}
        row['be_thr_err'] = abs(s['be_thr'] - r['be_thr']) / r['be_thr'] if r['be_thr'] > 0 else None
        if bS and bR and bS['be_thr'] > 0 and bR['be_thr'] > 0:
            row['be_ratio_sim'] = s['be_thr'] / bS['be_thr']
            row['be_ratio_real'] = r['be_thr'] / bR['be_thr']
            row['be_ratio_err'] = abs(row['be_ratio_sim'] - row['be_ratio_real']) / row['be_ratio_real'] \
                if row['be_ratio_real'] > 0 else None
        rows.append(row)

        def f(v, p=True):
            return '%6s' % '-' if v is None else ('%6.1f%%' % (100 * v) if p else '%6.3f' % v)
        print('%-11s %7d %s %s | %s %s | %6.1f %6.1f %+6.1f | %7.3f %7.3f %s | %s %s %s' % (
            pol, len(ke), f(row['kernel_err_median']), f(row['kernel_err_p90']),
            f(row['frame_latency_err_median']), f(row['frame_latency_err_p90']),
            s['fps'], r['fps'], s['fps'] - r['fps'], s['be_thr'], r['be_thr'], f(row['be_thr_err']),
            f(row.get('be_ratio_sim'), False), f(row.get('be_ratio_real'), False), f(row.get('be_ratio_err'))))
    if js:
        json.dump(rows, open(js, 'w'), indent=1)


if __name__ == '__main__':
    main()
