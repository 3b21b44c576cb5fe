#!/usr/bin/env python3
"""The pair benches (cuda/bench_pairs.c) simulated and compared.  For each pair and launch order
it writes a two-app experiment on the H100 description (the first kernel at 0, the second
launched in LS when the GPU run's S started (the spin kernel before it is itself slowed beside L), at 0
behind it in SL; solo times: the run's measured medians, or the bench's targets
with --targets), runs `combosim run` on it, and prints markdown rows: each kernel's duration on
the GPU (median, min-max over the repetitions) and simulated, its error, and the makespan's.
Usage: compare_pairs.py BIN/combosim RUN_DIR [--gpu GPU] [--seeds N] [--json FILE]
       compare_pairs.py --between RUN_A RUN_B   (the GPU's run-to-run between two captures, JSON;
           a pair whose solo times differ by more than 10 % is left out, named on stderr)
           (RUN_DIR: pairs.csv, summary.json, or run.tgz holding them; --json: the summary's
           figures, each kernel alone and co-running, the makespans and the GPU's spreads; --seeds:
           each pair and order simulated with seeds 1..N, the median compared with the GPU's
           median over its repetitions, the range beside: a drawn block drain makes a pile-up
           random in the simulator as on the GPU; default 5, as many as the benches' repetitions)
       compare_pairs.py BIN/combosim --targets dev|test [--gpu GPU] [--before GPU2]
           (simulator only, at the bench's target solo times; --before: a second description's
           durations beside, e.g. the model before a change)
       compare_pairs.py --ls-sequential RUN_DIR   (how many LS pairs did not overlap on the GPU)"""
import csv, json, os, re, statistics, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from runtar import run_file  # noqa: E402

N = 132
SEEDS = 5   # simulated per pair and order by default, as many as the benches' repetitions
CLS = {'CD', 'TC', 'MEM', 'RT'}


def bench_shapes():
    """cuda/bench_pairs.c's pair sets (dev_pairs, test_pairs, test2_pairs .. test5_pairs, dev2_pairs, dev3_pairs, test6_pairs, dev4_pairs, test7_pairs, test8_pairs, test9_pairs, test10_pairs, dev5_pairs, test11_pairs, test12_pairs, warps_pairs, test13_pairs, dev6_pairs, dev7_pairs, dev8_pairs, dev9_pairs, spread_pairs, spread16_pairs, test14_pairs), read from its source:
    {set: [(name, long class, threads, per SM, solo us, short class, threads, grid, solo us,
    delay us)]}"""
    src = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'bench_pairs.c')).read()
    num = lambda x: float(x) if '.' in x else int(x)
    row = re.compile(r'\{ "([^"]+)", CK_(\w+), (\d+), (\d+), ([\d.]+), CK_(\w+), (\d+), (\d+), ([\d.]+), ([\d.]+) \}')
    out = {}
    for name, var in (('dev', 'dev_pairs'), ('test', 'test_pairs'), ('test2', 'test2_pairs'),
                      ('test3', 'test3_pairs'), ('test4', 'test4_pairs'), ('test5', 'test5_pairs'),
                      ('dev2', 'dev2_pairs'), ('dev3', 'dev3_pairs'),
                      ('test6', 'test6_pairs'), ('dev4', 'dev4_pairs'),
                      ('test7', 'test7_pairs'), ('test8', 'test8_pairs'),
                      ('test9', 'test9_pairs'), ('test10', 'test10_pairs'), ('dev5', 'dev5_pairs'), ('test11', 'test11_pairs'), ('test12', 'test12_pairs'),
                      ('warps', 'warps_pairs'), ('test13', 'test13_pairs'), ('dev6', 'dev6_pairs'),
                      ('dev7', 'dev7_pairs'), ('dev8', 'dev8_pairs'), ('dev9', 'dev9_pairs'), ('spread', 'spread_pairs'), ('spread16', 'spread16_pairs'),
                      ('test14', 'test14_pairs')):
        m = re.search(r'pair_shape %s\[\] = \{(.*?)\n\};' % var, src, re.S)
        rows = row.findall(m.group(1)) if m else []
        if not rows:
            sys.exit("compare_pairs.py: no %s[] table in cuda/bench_pairs.c" % var)
        out[name] = [(r[0], r[1], int(r[2]), int(r[3]), num(r[4]), r[5], int(r[6]), int(r[7]), num(r[8]), num(r[9]))
                     for r in rows]
    return out


SHAPES = bench_shapes()


def simulate(binary, gpu, pair, order, tmp, seed=1):
    """pair: dict with lcls, lgrid, lthr, lus, scls, sgrid, sthr, sus, delay.  Returns
    {'L': (start, end), 'S': (start, end)} in us."""
    k = [{'name': 'L', 'class': pair['lcls'], 'grid': pair['lgrid'], 'threads': pair['lthr'], 'regs': 32,
          'smem': 0, 'solo_us': pair['lus']},
         {'name': 'S', 'class': pair['scls'], 'grid': pair['sgrid'], 'threads': pair['sthr'], 'regs': 32,
          'smem': 0, 'solo_us': pair['sus']}]
    first, second = ('L', 'S') if order == 'LS' else ('S', 'L')
    exp = {'name': 'pair', 'gpu': gpu, 'seed': seed, 'duration_ms': 100, 'kernels': k,
           'apps': [{'name': 'first', 'kernels': [first], 'repeat': 1},
                    {'name': 'second', 'kernels': [second], 'repeat': 1,
                     'start_ms': pair['delay'] / 1e3 if order == 'LS' else 0}],
           'policies': [{'name': 'exclusive', 'label': 'pair', 'run': 'be'}]}
    ep = os.path.join(tmp, 'pair.json')
    json.dump(exp, open(ep, 'w'))
    out = os.path.join(tmp, 'out')
    subprocess.run([binary, 'run', ep, '--out', out, '--quiet'], check=True)
    r = {}
    for row in csv.DictReader(open(os.path.join(out, 'kernels.csv'))):
        r[row['kernel']] = (float(row['start_ns']) / 1e3, float(row['end_ns']) / 1e3)
    return r


def simulate_alone(binary, gpu, cls, grid, thr, us, tmp):
    """One kernel alone: its duration in us."""
    exp = {'name': 'alone', 'gpu': gpu, 'seed': 1, 'duration_ms': 100,
           'kernels': [{'name': 'K', 'class': cls, 'grid': grid, 'threads': thr, 'regs': 32, 'smem': 0, 'solo_us': us}],
           'apps': [{'name': 'a', 'kernels': ['K'], 'repeat': 1}],
           'policies': [{'name': 'exclusive', 'label': 'alone', 'run': 'be'}]}
    ep = os.path.join(tmp, 'alone.json')
    json.dump(exp, open(ep, 'w'))
    out = os.path.join(tmp, 'out-alone')
    subprocess.run([binary, 'run', ep, '--out', out, '--quiet'], check=True)
    for row in csv.DictReader(open(os.path.join(out, 'kernels.csv'))):
        return (float(row['end_ns']) - float(row['start_ns'])) / 1e3


def pairs_csv(run_dir, tmp):
    """RUN_DIR/pairs.csv, or the one inside RUN_DIR/run.tgz or run.tar.xz, or inside RUN_DIR
    itself when it is a run's tarball (unpacked under tmp)."""
    return run_file(run_dir, 'pairs.csv', tmp, 'compare_pairs.py')


def gpu_rows(path):
    rows = list(csv.DictReader(open(path)))
    out = {}
    for r in rows:
        out.setdefault(r['pair'], []).append(r)
    return out


def over_seeds(v):
    """A simulated duration over the seeds run: its median, and the range when they differ."""
    m = statistics.median(v)
    return '%.0f us' % m if max(v) - min(v) < 0.5 else '%.0f (%.0f-%.0f) us' % (m, min(v), max(v))


def pct(x):
    return '%+.1f %%' % (100 * x)


def between(run_a, run_b):
    """The GPU's run-to-run between two captures of one pair set: per pair and order, how far
    the second's median co-running durations (L and S) and makespan are from the first's.
    Returns {'corun': [...], 'makespan': [...]} of relative differences."""
    with tempfile.TemporaryDirectory() as ta, tempfile.TemporaryDirectory() as tb:
        a, b = gpu_rows(pairs_csv(run_a, ta)), gpu_rows(pairs_csv(run_b, tb))
    out = {'corun': [], 'makespan': []}
    for name in sorted(set(a) & set(b)):
        # a pair whose kernels were calibrated to other work in the two captures is not the same
        # pair (h200-pairs-test9's repeat: the RT calibration ended at 113 us for 650)
        solo = lambda rows, col: statistics.median(float(r[col]) for r in rows)
        if any(abs(solo(b[name], col) / solo(a[name], col) - 1) > 0.1 for col in ('long_solo_us', 'short_solo_us')):
            print('compare_pairs.py: %s left out: its solo times differ by more than 10 %% between the captures'
                  % name, file=sys.stderr)
            continue
        for order in ('LS', 'SL'):
            med = lambda rows, col: statistics.median(float(r[col]) for r in rows if r['order'] == order)
            for col, key in (('long_with_us', 'corun'), ('short_with_us', 'corun'), ('makespan_us', 'makespan')):
                x, y = med(a[name], col), med(b[name], col)
                out[key].append(abs(y - x) / x)
    return out


def main():
    a = sys.argv[1:]
    gpu = 'h100'
    if '--gpu' in a:
        i = a.index('--gpu')
        gpu = a[i + 1]
        del a[i:i + 2]
    before = None
    if '--before' in a:
        i = a.index('--before')
        before = a[i + 1]
        del a[i:i + 2]
    if a[0] == '--between':
        # the GPU's own run-to-run between two captures: median and worst, co-running and makespan
        d = between(a[1], a[2])
        print(json.dumps({k: {'median': statistics.median(v), 'max': max(v), 'n': len(v)} for k, v in d.items()}))
        return
    if a[0] == '--ls-sequential':
        # how many LS pairs' S started (median) after L ended (median): no overlap on the GPU
        with tempfile.TemporaryDirectory() as tmp:
            groups = gpu_rows(pairs_csv(a[1], tmp))
            n = 0
            for rows in groups.values():
                rr = [r for r in rows if r['order'] == 'LS']
                n += statistics.median(float(r['second_start_us']) for r in rr) >= \
                    statistics.median(float(r['long_with_us']) for r in rr)
            print(n)
        return
    binary = a[0]
    with tempfile.TemporaryDirectory() as tmp:
        if a[1] == '--targets':
            print('| pair | order | L, S alone | L beside S | S beside L | S slowdown |' +
                  (' S beside L, before | S slowdown, before |' if before else ''))
            print('|---|---|---|---|---|---|' + ('---|---|' if before else ''))
            for s in SHAPES[a[2]]:
                p = dict(lcls=s[1], lthr=s[2], lgrid=s[3] * N, lus=s[4], scls=s[5], sthr=s[6], sgrid=s[7], sus=s[8],
                         delay=s[9])
                for order in ('LS', 'SL'):
                    r = simulate(binary, gpu, p, order, tmp)
                    ld, sd = r['L'][1] - r['L'][0], r['S'][1] - r['S'][0]
                    line = '| %s | %s | %.0f, %.0f us | %.0f us | %.0f us | %.1fx |' % (
                        s[0], order, p['lus'], p['sus'], ld, sd, sd / p['sus'])
                    if before:
                        rb = simulate(binary, before, p, order, tmp)
                        sb = rb['S'][1] - rb['S'][0]
                        line += ' %.0f us | %.1fx |' % (sb, sb / p['sus'])
                    print(line)
            return
        seeds = SEEDS
        if '--seeds' in a:
            i = a.index('--seeds')
            seeds = int(a[i + 1])
            del a[i:i + 2]
        jpath = None
        if '--json' in a:
            i = a.index('--json')
            jpath = a[i + 1]
            del a[i:i + 2]
        groups = gpu_rows(pairs_csv(a[1], tmp))
        alone, alone_spread, co_spread, mk_spread, co_errs = [], [], [], [], []
        shapes = {s[0]: s for sl in SHAPES.values() for s in sl}
        errs, mk_errs, spreads = [], [], []
        print('| pair | order | L: GPU (min-max) | L: sim | L err | S: GPU (min-max) | S: sim | S err | makespan err |')
        print('|---|---|---|---|---|---|---|---|---|')
        for name, rows in groups.items():
            s = shapes[name]
            r0 = rows[0]
            lus = statistics.median(float(r['long_solo_us']) for r in rows)
            sus = statistics.median(float(r['short_solo_us']) for r in rows)
            p = dict(lcls=r0['long_class'], lthr=int(r0['long_threads']), lgrid=int(r0['long_grid']), lus=lus,
                     scls=r0['short_class'], sthr=int(r0['short_threads']), sgrid=int(r0['short_grid']), sus=sus,
                     delay=statistics.median(float(r['second_start_us']) for r in rows if r['order'] == 'LS'))
            for who, cls, grid, thr, med, col in (('L', p['lcls'], p['lgrid'], p['lthr'], lus, 'long_solo_us'),
                                                  ('S', p['scls'], p['sgrid'], p['sthr'], sus, 'short_solo_us')):
                reps = [float(r[col]) for r in rows if r['order'] == 'LS']
                alone.append(abs(simulate_alone(binary, gpu, cls, grid, thr, med, tmp) - med) / med)
                alone_spread.append((max(reps) - min(reps)) / statistics.median(reps))
            for order in ('LS', 'SL'):
                rr = [r for r in rows if r['order'] == order]
                lw = [float(r['long_with_us']) for r in rr]
                sw = [float(r['short_with_us']) for r in rr]
                mk = [float(r['makespan_us']) for r in rr]
                runs = [simulate(binary, gpu, p, order, tmp, seed) for seed in range(1, seeds + 1)]
                lds = [r['L'][1] - r['L'][0] for r in runs]
                sds = [r['S'][1] - r['S'][0] for r in runs]
                ld, sd = statistics.median(lds), statistics.median(sds)
                smk = statistics.median(max(r['L'][1], r['S'][1]) - min(r['L'][0], r['S'][0]) for r in runs)
                el = (ld - statistics.median(lw)) / statistics.median(lw)
                es = (sd - statistics.median(sw)) / statistics.median(sw)
                em = (smk - statistics.median(mk)) / statistics.median(mk)
                errs += [abs(el), abs(es)]
                co_errs += [abs(el), abs(es)]
                mk_errs.append(abs(em))
                spreads += [(max(lw) - min(lw)) / statistics.median(lw), (max(sw) - min(sw)) / statistics.median(sw)]
                co_spread += spreads[-2:]
                mk_spread.append((max(mk) - min(mk)) / statistics.median(mk))
                print('| %s | %s | %.0f (%.0f-%.0f) us | %s | %s | %.0f (%.0f-%.0f) us | %s | %s | %s |' % (
                    name, order, statistics.median(lw), min(lw), max(lw), over_seeds(lds), pct(el),
                    statistics.median(sw), min(sw), max(sw), over_seeds(sds), pct(es), pct(em)))
        errs.sort()
        mk_errs.sort()
        spreads.sort()
        print()
        print('Per-kernel duration error: median %.1f %%, max %.1f %% (%d kernels); makespan error median %.1f %%, '
              'max %.1f %%; the GPU\'s own spread (max-min over the repetitions / median) per kernel: median %.1f %%, '
              'max %.1f %%.' % (100 * statistics.median(errs), 100 * errs[-1], len(errs), 100 * statistics.median(mk_errs),
                                100 * mk_errs[-1], 100 * statistics.median(spreads), 100 * spreads[-1]))
        if jpath:
            f = lambda v: {'median': statistics.median(v), 'max': max(v), 'n': len(v)}
            json.dump({'alone': f(alone), 'alone_gpu_spread': f(alone_spread), 'corun': f(co_errs),
                       'corun_gpu_spread': f(co_spread), 'makespan': f(mk_errs), 'makespan_gpu_spread': f(mk_spread),
                       'reps': len([r for r in next(iter(groups.values())) if r['order'] == 'LS']),
                       'seeds': seeds},
                      open(jpath, 'w'), indent=1)


if __name__ == '__main__':
    main()
