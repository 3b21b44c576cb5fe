#!/usr/bin/env python3
"""Fits the H100's DRAM saturation curve (models/h100.json "dram_saturation".knee and class
MEM "dram") to the SM-bound MEM kernel's scaling in cuda/runs/h100-bench-2/bench-scaling
(scaling.csv, MEM sm-bound rows): on n of the N SMs the kernel's DRAM demand is L = n D / N,
its blocks slow by s(L) = (1 + L^p)^(1/p), so its efficiency against one SM is
s(D / N) / s(n D / N).  Least squares on log efficiency over a grid of D (0.01 steps) and p
(0.1 steps).  Prints D, p and the fitted efficiencies.  Usage: fit_dram.py (from the root)."""
import csv, math

rows = [r for r in csv.DictReader(open('cuda/runs/h100-bench-2/bench-scaling/scaling.csv'))
        if r['class'] == 'MEM' and r['variant'] == 'sm-bound' and r['efficiency']]
pts = [(int(r['sms']), float(r['efficiency'])) for r in rows]
N = 132


def slow(load, p):
    return (1 + load ** p) ** (1 / p)


def err(D, p):
    return sum((math.log(e) - math.log(slow(D / N, p) / slow(n * D / N, p))) ** 2 for n, e in pts)


best = min((err(D / 100, p / 10), D / 100, p / 10) for D in range(100, 500) for p in range(10, 200))
_, D, p = best
print('D (MEM dram at full GPU) = %.2f, knee p = %.1f, squared log error %.4f' % (D, p, best[0]))
for n, e in pts:
    print('%4d SMs: measured %.4f  fitted %.4f  hard max(1, L) %.4f' %
          (n, e, slow(D / N, p) / slow(n * D / N, p), 1 / max(1, n * (1 / pts[-1][1]) / N)))
