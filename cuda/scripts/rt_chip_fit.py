#!/usr/bin/env python3
"""An offline check, before any change to the simulator (development; issue #19): does one chip
curve explain how RT's per-block time grows with the work in flight on the whole chip?  Two
independent H200 benches: bench saturation on all SMs against the same waves on a quarter of
them (cuda/runs/h200-describe/saturation-quarter.tgz, k = 1..8 blocks per SM) and bench power's
RT phases, 4 blocks per SM on 33 / 66 / 99 / 132 SMs (power.tgz).  Each observation is a
per-block time over the quarter's at the same k (33 SMs: the reference).  Candidate: the chip
slows RT blocks by s(L) = (1 + L^p)^(1/p), the DRAM curve's form, at a chip demand
L = D n Tq(k) / N, with Tq(k) the quarter's throughput at k blocks per SM over one block's (RT
work in flight, per SM); grid search of D (0.025 steps) and p (0.1 steps) on the squared log
error, on the saturation bench alone (the power phases then predicted) and on both.  Prints
each fit and each observation beside it.  Not the simulator.
Usage: rt_chip_fit.py   (from the root)"""
import csv, io, math, tarfile

RUN = 'cuda/runs/h200-describe/'
N = 132


def rows(tgz, suffix):
    with tarfile.open(RUN + tgz) as t:
        name = next(m for m in t.getnames() if m.endswith(suffix))
        return list(csv.DictReader(io.StringIO(t.extractfile(name).read().decode())))


def main():
    full = {int(r['blocks_per_sm']): float(r['duration_us'])
            for r in rows('saturation-quarter.tgz', '/saturation.csv') if r['class'] == 'RT'}
    quar = {int(r['blocks_per_sm']): float(r['duration_us'])
            for r in rows('saturation-quarter.tgz', '/saturation_quarter.csv') if r['class'] == 'RT'}
    phase = {r['phase']: float(r['a_task_us_per_sm_round'])
             for r in rows('power.tgz', '/power_phases.csv') if r['set'] == 'calibration'}
    tq = {k: k * quar[1] / quar[k] for k in quar}
    obs = [('saturation, 132 SMs, k = %d' % k, N, k, full[k] / quar[k]) for k in sorted(quar)]
    obs += [('power, %d SMs, k = 4' % n, n, 4, phase['RT-%d' % n] / phase['RT-33']) for n in (66, 99, 132)]

    def s(L, p):
        return (1 + L ** p) ** (1 / p)

    def model(n, k, D, p):
        return s(D * n * tq[k] / N, p) / s(D * 33 * tq[k] / N, p)

    def fit(on):
        return min((sum(math.log(model(n, k, D / 40, p / 10) / o) ** 2 for _, n, k, o in on), D / 40, p / 10)
                   for D in range(1, 161) for p in range(10, 120))

    # fitted on bench saturation alone; bench power's phases only predicted, then both together
    for what, on in (('saturation only (power predicted)', obs[:len(quar)]), ('both', obs)):
        err, D, p = fit(on)
        print('fitted on %s: RT chip demand D %.3f at one block per SM on all SMs, knee p %.1f, '
              'squared log error %.4f over %d' % (what, D, p, err, len(on)))
        for label, n, k, o in obs:
            print('  %-28s measured %.3f  model %.3f%s' % (label, o, model(n, k, D, p),
                                                         '' if (label, n, k, o) in on else '  (predicted)'))


if __name__ == '__main__':
    main()
