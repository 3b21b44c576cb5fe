#!/usr/bin/env python3
"""Fits a GPU's DRAM saturation curve (models/<gpu>.json "dram_saturation".knee and class
MEM "dram"; the H100's from cuda/runs/h100-bench-2/bench-scaling) to the SM-bound MEM kernel's
scaling (scaling.csv, MEM sm-bound rows): on n of the N SMs the kernel's DRAM demand is
L = n D / N, its blocks slow by s(L) = (1 + L^p)^(1/p), so its efficiency against one SM is
s(D / N) / s(n D / N).  Least squares on log efficiency over a grid of D (0.01 steps) and p
(0.1 steps).  D starts at 1: the MEM kernel on the whole GPU streams at about 92 % of the DRAM
peak on both Hopper GPUs measured (bench corun summary.json mem_stream_read_gbps: H100 3097 of
3352 GB/s, H200 4433 of 4814), so its demand is at least the bandwidth; a fit below 1 would
put the curve's gentle fall on fewer SMs (L2 and on-chip paths) on DRAM.  Prints D, p and the fitted efficiencies.

usage: fit_dram.py [--scaling PATH] [--sms N] [--json]   (from the root)
  --scaling  the run's scaling.csv (default cuda/runs/h100-bench-2/bench-scaling/scaling.csv)
  --sms      N, the GPU's SM count (default: sm_count of device.json beside scaling.csv, else 132)
  --json     print only {"values": {...models keys...}, "source": "..."} on stdout (the table
             goes to stderr)"""
import argparse, csv, json, math, os, sys

ap = argparse.ArgumentParser(description='fit MEM dram and dram_saturation.knee to scaling.csv')
ap.add_argument('--scaling', default='cuda/runs/h100-bench-2/bench-scaling/scaling.csv')
ap.add_argument('--sms', type=int, default=None)
ap.add_argument('--json', action='store_true')
args = ap.parse_args()

rows = [r for r in csv.DictReader(open(args.scaling))
        if r['class'] == 'MEM' and r['variant'] == 'sm-bound' and r['efficiency']]
pts = [(int(r['sms']), float(r['efficiency'])) for r in rows]
N = args.sms
if N is None:
    dev = os.path.join(os.path.dirname(args.scaling), 'device.json')
    N = json.load(open(dev))['sm_count'] if os.path.exists(dev) else 132
out = sys.stderr if args.json else sys.stdout


def slow(load, p):
    return (1 + load ** p) ** (1 / p)


def err(D, p):
    return sum((math.log(e) - math.log(slow(D / N, p) / slow(n * D / N, p))) ** 2 for n, e in pts)


def hard(n):
    return 1 / max(1, n * (1 / pts[-1][1]) / N)


best = min((err(D / 100, p / 10), D / 100, p / 10) for D in range(100, 500) for p in range(10, 200))
_, D, p = best
print('D (MEM dram at full GPU) = %.2f, knee p = %.1f, squared log error %.4f' % (D, p, best[0]), file=out)
for n, e in pts:
    print('%4d SMs: measured %.4f  fitted %.4f  hard max(1, L) %.4f' %
          (n, e, slow(D / N, p) / slow(n * D / N, p), hard(n)), file=out)
if D == 1.0:
    print('note: D at its floor 1.00: the full-GPU MEM kernel saturates DRAM at no more than its demand', file=sys.stderr)
if D == 4.99 or p in (1.0, 19.9):
    print('warning: the fit lies on the edge of the grid (D 1.00-4.99, p 1.0-19.9)', file=sys.stderr)
if args.json:
    # the points from a quarter of the GPU up, as the models' source strings give them
    q = [(n, e) for n, e in pts if 4 * n >= N - 4]
    sl = lambda f: ' / '.join(f(n, e) for n, e in q)
    src = ('fitted with MEM dram %.2f and dram_saturation.knee %.1f by cuda/scripts/fit_dram.py to %s '
           '(MEM sm-bound rows, N = %d SMs: efficiency against one SM %s on %s SMs; fitted %s, against %s '
           'for a hard max(1, L), whose D would be 1/%.3f = %.2f; squared log error %.4f over %d points)' %
           (D, p, os.path.dirname(args.scaling) or '.', N, sl(lambda n, e: '%.2f' % e), sl(lambda n, e: '%d' % n),
            sl(lambda n, e: '%.2f' % (slow(D / N, p) / slow(n * D / N, p))), sl(lambda n, e: '%.2f' % hard(n)),
            pts[-1][1], 1 / pts[-1][1], best[0], len(pts)))
    print(json.dumps({'values': {'dram_saturation': {'knee': p}, 'class_defaults': {'MEM': {'dram': D}}},
                      'source': src}))
