#!/usr/bin/env python3
"""Writes a GPU description (models/NAME.json) from one device_describe.sh run.

The run directory holds the tarballs cuda/scripts/device_describe.sh packs (bench.tgz: info.json
and bench placement; corun.tgz, scaling.tgz, saturation.tgz, pairs.tgz, pileup.tgz, reshape.tgz,
power.tgz).  Every figure those runs can give is taken from them, by the same rules and fit
scripts the base description's figures came from; every other key is the base description's,
named as assumed in "sources.assumed" (for a sibling chip: the per-SM figures of the same SM).

  device:        info.json (SM count and limits, shared memory, clock, L2, DRAM peak)
  sm_tie_order:  placement P4 (one block per SM, grid = SM count)
  sat_warps:     cuda/scripts/fit_sat.py on saturation-warps.tgz (optional; bench
                 saturation-warps), RT / CD / TC: warps per SM at full throughput, every block
                 shape (per warp scheduler where the base's sm gives schedulers); without it sat_blocks: saturation.csv, RT / CD / TC: throughput at 8
                 blocks per SM over one, nearest integer (MEM's is the base's: its saturation
                 rows are DRAM-bound)
  dram:          cuda/scripts/fit_dram.py on scaling.csv
  l2:            cuda/scripts/fit_l2.py on the saturation bench's saturation_quarter.csv (in
                 saturation.tgz, or a rerun's saturation-quarter.tgz) and bench power's RT
                 phases: RT's L2-path demand and knee (with RT's sat_warps, or its sat_blocks
                 from the quarter);
                 with power-l2.tgz / power-game.tgz (optional), MEM's share of the path;
                 without a quarter, the base's
  block_launch:  launch.tgz (optional; bench launch), its CD grid of 128-thread blocks at the
                 least work alone, else pairs.csv's short CD kernel (work 1) alone: (blocks -
                 burst) / (median time - median block time); burst_blocks is the base's
  block_spread:  placement P1's first wave (blocks started before any ended), each block's
                 duration over the wave's mean, quantiles 0, 1/16, .., 1
  block_drain:   cuda/scripts/fit_drain.py on the pileup run
  yield:         cuda/scripts/fit_yield.py on the reshape run
  makespan_reduction: corun summary.json, mean of both launch orders
  power, power_cap:   cuda/scripts/fit_power.py on the power run, with this description's DRAM
  block_spread scale: cuda/scripts/fit_spread.py on pairs-spread.tgz (optional; bench
                 pairs-spread): per class, how strongly a kernel's blocks on one SM end in
                 turn at 1, 2, .. warps per scheduler
  warp_left:     cuda/scripts/fit_left.py on pairs-warps.tgz (optional; bench pairs-warps): the
                 share of a scheduler's cycles 1, 2, .. warps of a class leave a later kernel,
                 in place of the base's warp_ready
  warp_ready:    without pairs-warps.tgz, cuda/scripts/fit_ready.py on pairs-dev3.tgz (optional;
                 bench pairs-dev3), its same-class pairs of 8 warps per SM, with this
                 description so far
  issue:         cuda/scripts/fit_issue.py on the corun run, with this description (last: it
                 simulates co-run set 1 on everything above)

usage: describe_gpu.py RUN_DIR BASE.json OUT.json [--quick]   (from the root, after `make`;
       --quick: fit_issue.py's coarse grid)
"""
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fit_left import drop_yields  # noqa: E402

RUN_TARS = ['bench', 'corun', 'scaling', 'saturation', 'pairs', 'pileup', 'reshape', 'power']


def quantile(xs, p):
    """Linear interpolation between order statistics (the base's block_spread rule)."""
    xs = sorted(xs)
    h = (len(xs) - 1) * p
    i = int(h)
    return xs[i] if i + 1 >= len(xs) else xs[i] + (h - i) * (xs[i + 1] - xs[i])


def fit(script, *args):
    """Runs a fit script with --json; returns its {"values", "source"}."""
    out = subprocess.run([sys.executable, 'cuda/scripts/' + script, *args, '--json'],
                         capture_output=True, text=True)
    if out.returncode:
        sys.exit('describe_gpu.py: %s failed:\n%s' % (script, out.stderr[-2000:]))
    return json.loads(out.stdout)


def fit_table(model, draft, script, tarball, path, r, run, measured, what):
    """An optional fit from one stored bench on the description so far (written to draft): its
    values merged, its source at the key `path` names, the key listed as measured (with its
    classes).  Returns the fit's {"values", "source"}."""
    json.dump(model, open(draft, 'w'))
    f = fit(script, tarball, '--gpu', draft)
    merge(model, f['values'])
    node = model
    for k in path:
        node = node[k]
    node['source'] = named(f['source'], r, run)
    measured.insert(-1, '%s (%s)' % (what, ', '.join(c for c in node if c not in ('source', 'schedulers'))))
    return f


def merge(dst, src):
    for k, v in src.items():
        if isinstance(v, dict) and isinstance(dst.get(k), dict):
            merge(dst[k], v)
        else:
            dst[k] = v


def device(model, r, run):
    info = json.load(open(f'{r}/bench/r/info.json'))
    model['name'] = info['name']
    model['sm_count'] = info['sm_count']
    sm = model['sm']
    sm['max_threads'] = info['max_threads_per_sm']
    sm['max_blocks'] = info['max_blocks_per_sm']
    sm['registers'] = info['regs_per_sm']
    sm['max_threads_per_block'] = info['max_threads_per_block']
    sm['warp_size'] = info['warp_size']
    sm['smem_compute_kb'] = info['smem_per_sm_b'] // 1024
    sm['smem_reserved_per_block_b'] = info['reserved_smem_per_block_b']
    model['clock_mhz'] = round(info['clock_khz'] / 1000)
    model['l2_mb'] = round(info['l2_bytes'] / 2**20)
    model['dram_gbps'] = round(info['dram_peak_gbps'])
    model['sources']['run_device'] = (
        f"{run}/bench.tgz r/info.json (cudaGetDeviceProperties + cudaDeviceGetAttribute): "
        f"{info['name']}, {info['sm_count']} SMs, {info['max_threads_per_sm']} threads/SM, "
        f"{info['max_blocks_per_sm']} blocks/SM, {info['regs_per_sm']} registers/SM, "
        f"{info['smem_per_sm_b']} B shared memory per SM, {info['reserved_smem_per_block_b']} B "
        f"reserved per block, clock {info['clock_khz']} kHz, L2 {info['l2_bytes']} B, memory clock "
        f"{info['memory_clock_khz']} kHz x {info['memory_bus_bits']}-bit bus x 2 = "
        f"{info['dram_peak_gbps']:.0f} GB/s peak")


def tie_order(model, r, run):
    p = json.load(open(f'{r}/bench/r/bench-placement/placement.json'))
    order = p['P4-cap1-grid132']['smid_by_block'] if 'P4-cap1-grid132' in p else None
    if not order or sorted(order) != list(range(model['sm_count'])):
        sys.exit(f'describe_gpu: {r}/bench placement.json: P4 is not one block on each SM')
    model['sm_tie_order'] = order
    model['sources']['sm_tie_order'] = (
        f"{run}/bench.tgz r/bench-placement/placement.json, P4 (one block per SM, grid "
        f"{len(order)}): the SM each block went to, in block order, on an empty GPU")


def sat_blocks(model, r, run):
    import csv
    rows = list(csv.DictReader(open(f'{r}/saturation/r/bench-saturation/saturation.csv')))
    for cls in ('RT', 'CD', 'TC'):
        mine = sorted((int(x['blocks_per_sm']), float(x['throughput_rel'])) for x in rows if x['class'] == cls)
        k, rel = mine[-1]
        sat = max(1, round(rel))
        model['class_defaults'][cls] = {
            'sat_blocks': sat,
            'source': f"{run}/saturation.tgz (saturation.csv): one wave of k blocks (256 threads) on "
                      f"every SM, k = 1..{k}; the {cls} kernel's throughput at {k} blocks per SM is "
                      f"{rel:.2f}x that at one (a block runs at min(1, sat/k): sat = {sat}, the "
                      f"nearest integer)"}


def sat_warps(model, r, run):
    """RT / CD / TC sat_warps from bench saturation-warps, in place of sat_blocks; its source.
    Beside it, fit_sat.py reports the sat_blocks it replaces (RT's from a quarter of the SMs
    when there is one: on all of them RT's flattening is the L2 path's)."""
    import csv
    sat = {c: model['class_defaults'][c]['sat_blocks'] for c in ('CD', 'TC', 'RT', 'MEM')}
    quarter = quarter_run(r, run)
    if quarter:
        q = {int(x['blocks_per_sm']): float(x['duration_us'])
             for x in csv.DictReader(open(f'{quarter[0]}/saturation_quarter.csv')) if x['class'] == 'RT'}
        sat['RT'] = max(1, round(max(q) * q[1] / q[max(q)]))
    blocks = ','.join(f'{c}={n}' for c, n in sat.items())
    sched = model['sm'].get('schedulers')
    f = fit('fit_sat.py', f'{run}/saturation-warps.tgz', '--blocks', blocks,
            *(['--schedulers', str(sched)] if sched else []))
    for cls, v in f['values']['class_defaults'].items():
        model['class_defaults'][cls] = {'sat_warps': v['sat_warps'], 'source': f['source']}
    return f['source']


def block_launch(model, r, run):
    """From bench launch's least-work CD grid of 128-thread blocks with its span (launch.tgz)
    when the run has it, else from bench pairs' short CD kernel alone (pairs.tgz: valid only
    while that kernel stays at the least work, as it did when every block queued on one pair
    of span words: cuda/runs/h200-launch)."""
    import csv
    burst = model['block_launch']['burst_blocks']
    if os.path.exists(f'{run}/launch.tgz'):
        os.makedirs(f'{r}/launch', exist_ok=True)
        with tarfile.open(f'{run}/launch.tgz') as tf:
            tf.extractall(f'{r}/launch', filter='data')
        rows = [x for x in csv.DictReader(open(f'{r}/launch/r/bench-launch/launch.csv'))
                if x['shape'] == 'CD-128' and x['span'] == 'span']
        if not rows:
            sys.exit(f'describe_gpu: {run}/launch.tgz: no CD-128 rows with the span')
        grid = int(rows[0]['blocks'])
        t = statistics.median(float(x['us']) for x in rows)
        blk = statistics.median(float(x['steady_block_us']) for x in rows)
        what = (f"bench launch's CD-128 grid alone with its span in {run}/launch.tgz "
                f"({grid} blocks of 128 threads with the least work a block can have, {t:.1f} us median "
                f"of {len(rows)} runs, {blk:.2f} us per block in its steady state)")
    else:
        rows = [x for x in csv.DictReader(open(f'{r}/pairs/r/bench-pairs/pairs.csv'))
                if x['short_class'] == 'CD' and x['order'] == 'LS']
        if not rows:
            sys.exit(f'describe_gpu: {r}/pairs: no pair with a short CD kernel')
        grid = int(rows[0]['short_grid'])
        t = statistics.median(float(x['short_solo_us']) for x in rows)
        blk = statistics.median(float(x['short_block_solo_us']) for x in rows)
        what = (f"the short CD kernel alone in {run}/pairs.tgz (its S-alone rows only; {grid} blocks of "
                f"{rows[0]['short_threads']} threads with the least work a block can have, {t:.1f} us median "
                f"of {len(rows)} runs, {blk:.2f} us per block)")
    rate = (grid - burst) / (t - blk)
    model['block_launch'] = {
        'blocks_per_us': round(rate),
        'burst_blocks': burst,
        'source': f"calibration: blocks_per_us from {what}: ({grid} - {burst}) / ({t:.1f} - {blk:.2f}) us; "
                  f"burst_blocks assumed: the base description's (sources.assumed)"}


def block_spread(model, r, run):
    import csv
    rows = [x for x in csv.DictReader(open(f'{r}/bench/r/bench-placement/placement_blocks.csv'))
            if x['experiment'] == 'P1-one-kernel']
    first_end = min(int(x['end_ns']) for x in rows)
    wave = [int(x['end_ns']) - int(x['start_ns']) for x in rows if int(x['start_ns']) < first_end]
    m = statistics.mean(wave)
    ratios = [d / m for d in wave]
    model['block_spread'] = {
        'quantiles': [round(quantile(ratios, k / 16), 3) for k in range(17)],
        'source': f"calibration: P1 of {run}/bench.tgz (placement_blocks.csv): the first wave of one "
                  f"CD kernel (the {len(wave)} blocks started before any ended), each block's "
                  f"duration over the wave's mean ({m / 1e3:.1f} us), at quantiles 0, 1/16, ..., 1"}


def quarter_run(r, run):
    """The saturation bench's RT waves on a quarter of the SMs beside all of them: in
    saturation.tgz (bench saturation writes both) or a rerun's saturation-quarter.tgz.
    Returns (directory with both CSVs, its stored name), or None."""
    d = f'{r}/saturation/r/bench-saturation'
    if os.path.exists(f'{d}/saturation_quarter.csv'):
        return d, f'{run}/saturation.tgz'
    if os.path.exists(f'{run}/saturation-quarter.tgz'):
        if os.path.isdir(f'{r}/saturation-quarter'):
            return f'{r}/saturation-quarter/r/bench-saturation', f'{run}/saturation-quarter.tgz'
        os.makedirs(f'{r}/saturation-quarter')
        with tarfile.open(f'{run}/saturation-quarter.tgz') as tf:
            tf.extractall(f'{r}/saturation-quarter', filter='data')
        return f'{r}/saturation-quarter/r/bench-saturation', f'{run}/saturation-quarter.tgz'
    return None


def neighbours(run):
    """fit_l2.py's arguments for MEM's share of the path: the run's bench power-l2 and
    power-game tarballs (RT beside MEM on the other SMs), when it has them."""
    tars = [f'{run}/{t}.tgz' for t in ('power-l2', 'power-game') if os.path.exists(f'{run}/{t}.tgz')]
    return ['--neighbours', *tars, '--neighbours-label', ' and '.join(tars)] if tars else []


def makespan_reduction(model, r, run):
    s = json.load(open(f'{r}/corun/r/bench-corun/summary.json'))['makespan_reduction_mean_of_orders']
    mr = model['interference']['makespan_reduction']
    for k in [k for k in mr if k != 'source']:
        mr[k] = round(s[k], 4)
    mr['source'] = (f"{run}/corun.tgz r/bench-corun/summary.json makespan_reduction_mean_of_orders: "
                    "combosim-cuda's equal-solo-time (2 ms) micro-kernels co-run on the whole GPU on "
                    "two streams, median of the repetitions, mean of the two launch orders")
    model['interference'].pop('makespan_reduction_note', None)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    quick = '--quick' in sys.argv
    if len(args) != 3:
        sys.exit(__doc__)
    run, base_path, out_path = args
    model = json.load(open(base_path))
    base_name = model['name']
    with tempfile.TemporaryDirectory() as r:
        for t in RUN_TARS:
            if not os.path.exists(f'{run}/{t}.tgz'):
                sys.exit(f'describe_gpu: {run}/{t}.tgz: missing (device_describe.sh packs it)')
            os.makedirs(f'{r}/{t}')
            with tarfile.open(f'{run}/{t}.tgz') as tf:
                tf.extractall(f'{r}/{t}', filter='data')
        device(model, r, run)
        tie_order(model, r, run)
        sat_blocks(model, r, run)
        sat_text = sat_warps(model, r, run) if os.path.exists(f'{run}/saturation-warps.tgz') else None
        block_launch(model, r, run)
        block_spread(model, r, run)
        makespan_reduction(model, r, run)
        measured = ['device figures', 'sm_tie_order',
                    'class_defaults RT/CD/TC ' + ('sat_warps' if sat_text else 'sat_blocks'),
                    'dram_saturation and MEM dram', 'block_launch blocks_per_us', 'block_spread',
                    'block_drain', 'yield', 'makespan_reduction', 'power', 'power_cap',
                    'interference.issue']
        fits = [('dram', 'fit_dram.py', ['--scaling', f'{r}/scaling/r/bench-scaling/scaling.csv']),
                ('drain', 'fit_drain.py', [f'{r}/pileup/r', '--classes', ','.join(model['block_drain']['classes'])]),
                ('yield', 'fit_yield.py', [f'{r}/reshape/r'])]
        quarter = quarter_run(r, run)
        if quarter:
            qr, qname = quarter
            rt_sat = ['--sat-warps', str(model['class_defaults']['RT']['sat_warps']),
                      '--sat-from', f'fit_sat.py, {run}/saturation-warps.tgz'] if sat_text else []
            fits.append(('l2', 'fit_l2.py', rt_sat + ['--saturation', f'{qr}/saturation.csv', '--quarter',
                                              f'{qr}/saturation_quarter.csv', '--power',
                                              f'{r}/power/r/bench/power_phases.csv', '--sms',
                                              str(model['sm_count']), '--label',
                                              f'{qname} (saturation.csv, saturation_quarter.csv) and '
                                              f'{run}/power.tgz (power_phases.csv)']
                         + neighbours(run)))
            if not sat_text:
                measured[2] = 'class_defaults RT/CD/TC sat_blocks (RT: per SM, from a quarter of the SMs)'
            measured.insert(4, 'l2_saturation and RT l2' + (', MEM l2' if neighbours(run) else ''))
        for what, script, a in fits:
            f = fit(script, *a)
            merge(model, f['values'])
            set_source(model, what, named(f['source'], r, run), run)
            if 'mem_source' in f:
                model['class_defaults']['MEM']['source'] += '  ' + f['mem_source']
            if what == 'l2' and sat_text:
                model['class_defaults']['RT']['source'] += '  sat_warps ' + sat_text
        draft = f'{r}/draft.json'
        json.dump(model, open(draft, 'w'))
        f = fit('fit_power.py', '--gpu', draft, '--run', f'{r}/power/r')
        merge(model, f['values'])
        set_source(model, 'power', named(f['source'], r, run), run,
                   f['values'].get('power_cap', {}))
        if os.path.exists(f'{run}/pairs-spread.tgz'):
            fit_table(model, draft, 'fit_spread.py', f'{run}/pairs-spread.tgz', ('block_spread', 'scale'), r, run,
                      measured, 'block_spread scale')
        if os.path.exists(f'{run}/pairs-warps.tgz'):
            ready = model['interference'].pop('warp_ready', {})
            f = fit_table(model, draft, 'fit_left.py', f'{run}/pairs-warps.tgz', ('interference', 'warp_left'), r, run,
                          measured, 'interference.warp_left')
            unmeasured = set(ready) - set(f['values']['interference']['warp_left']) - {'source', 'schedulers'}
            if unmeasured:
                sys.exit('describe_gpu.py: the base\'s warp_ready has classes pairs-warps does not measure: %s'
                         % ', '.join(sorted(unmeasured)))
            drop_yields(model['interference'])
        elif os.path.exists(f'{run}/pairs-dev3.tgz'):
            fit_table(model, draft, 'fit_ready.py', f'{run}/pairs-dev3.tgz', ('interference', 'warp_ready'), r, run,
                      measured, 'interference.warp_ready')
        json.dump(model, open(draft, 'w'))
        f = fit('fit_issue.py', '--gpu', draft, '--run', f'{r}/corun/r/bench-corun', *(['--quick'] if quick else []))
        merge(model, f['values'])
        set_source(model, 'issue', named(f['source'], r, run), run)
    model['sources']['calibration'] = (
        f"cuda/scripts/describe_gpu.py {run} {base_path} OUT (this file): measured on this GPU "
        f"({run}, cuda/scripts/device_describe.sh): " + '; '.join(measured))
    model['notes'] = (f"Described from {run} by cuda/scripts/describe_gpu.py on {base_path} ({base_name}), "
                      "whose notes follow and hold for this GPU where sources.assumed names the key: "
                      + model.get('notes', ''))
    model['sources']['assumed'] = (
        f"taken from {base_path} ({base_name}) unmeasured here: every other key (the SM's units and warp schedulers, "
        "register and shared-memory allocation units, carveouts, MEM sat_blocks, block_launch "
        "burst_blocks, exit_hold, the interference model, discipline and issue_yield rule, "
        "rt_emulation_unit); their own source strings name the base's runs")
    with open(out_path, 'w') as o:
        json.dump(model, o, indent=2)
        o.write('\n')


def named(text, r, run):
    """A fit's source text with the unpacked paths named by the stored tarballs."""
    for t in RUN_TARS:
        text = text.replace(f'{r}/{t}/r/', f'{run}/{t}.tgz r/').replace(f'{r}/{t}/r', f'{run}/{t}.tgz')
    return text.replace(f'{r}/draft.json', 'this description')


def set_source(model, what, text, run, fitted_cap=()):
    """Puts a fit's source text where the base keeps that key's source."""
    if what == 'dram':
        model['dram_saturation']['source'] = text
        model['class_defaults']['MEM']['source'] = text
    elif what == 'l2':
        model['l2_saturation']['source'] = text
        model['class_defaults']['RT']['source'] = text
    elif what == 'drain':
        model['block_drain']['source'] = text
    elif what == 'yield':
        model['yield']['source'] = text
    elif what == 'power':
        fitted, cap = (text.split('\n', 1) + [''])[:2]
        pw = model['power']
        pw['note'] = fitted
        src = f"measured: {run}/power.tgz (bench power's calibration phases, nvidia-smi power.draw), fitted by cuda/scripts/fit_power.py (note)"
        pw['sources'] = {'const_w': src, 'unit_w': src, 'dram_w': src,
                         'sm_static_w': "assumption: 0 (as the base): no SM power gating is exposed, so one SM's static power cannot be told apart from the chip's constant; all of it is in const_w"}
        pc = model['power_cap']
        pc.pop('note', None)
        kept = [k for k in ('exponent', 'min_clock_mhz', 'rate_exponent') if k in pc and k not in fitted_cap]
        pc['source'] = (f"{run}/power.tgz, fitted by cuda/scripts/fit_power.py: {cap}"
                        + (f"  Assumed, the base's: {', '.join(kept)} (no fit from this run)." if kept else ''))
    elif what == 'issue':
        model['interference']['issue']['source'] = text


if __name__ == '__main__':
    main()
