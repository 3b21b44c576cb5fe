#!/usr/bin/env python3
"""An offline check of a pile-up hypothesis on the development runs of `bench pileup`
(cuda/runs/h100-pileup-dev, -dev2; issue #19), before any change to the simulator: S's blocks
end per SM either at a steady pace (compute-bound CD: the SM's blocks share its issue, so its
exits are regular; a random phase per SM) or independently (MEM, TC, RT: each block's duration
drawn from the run's measured S blocks), each SM refilling its freed S slots until S's grid is
placed (the leftover rule); then L's blocks land where the freed room (threads, up to L's
occupancy) fits one, as S's blocks end.  Prints, per pair, the most L blocks on one SM over 20
trials (median and range) beside the GPU's repetitions.  Not a model of the simulator: a test of
the mechanism a model would build (no launch rate, no other resources than threads).
Usage: pileup_mc.py RUN_DIR   (run.tgz inside, or its files)"""
import heapq, os, random, statistics, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pileup_report import load  # noqa: E402
N = 132
def durations(rows, pair):
    a = [(int(r['end_ns']) - int(r['start_ns'])) for r in rows if r['pair'] == pair and r['run'] == 'S-alone']
    if not a:   # dev1: S's blocks in SL before L's first start
        sl = [r for r in rows if r['pair'] == pair and r['run'] == 'SL' and r['rep'] == '0']
        t0 = min(int(r['start_ns']) for r in sl if r['kernel'] == '1')
        a = [(int(r['end_ns']) - int(r['start_ns'])) for r in sl if r['kernel'] == '0' and int(r['end_ns']) < t0]
    return a
def trial(sh, dur, rng):
    st, lt, G, nl = sh['short_threads'], sh['long_threads'], sh['short_grid'], sh['long_grid']
    occ_s = min(2048 // st, 32)
    occ_l = sh['long_occupancy']
    ev = []   # (end time, sm)
    placed = 0
    regular = sh['short_class'] == 'CD'
    med = sorted(dur)[len(dur)//2]
    for sm in range(N):
        ph = rng.uniform(0, 1)
        for i in range(occ_s):
            if placed < G:
                t = med * (i + ph) / occ_s if regular else rng.choice(dur) * rng.uniform(0.98, 1.02)
                heapq.heappush(ev, (t, sm)); placed += 1
    free = [0] * N
    lcount = [0] * N
    left = nl
    while ev and left > 0:
        t, sm = heapq.heappop(ev)
        if placed < G:
            heapq.heappush(ev, (t + (med if regular else rng.choice(dur)), sm)); placed += 1
            continue
        free[sm] += st
        while left > 0 and free[sm] >= lt and lcount[sm] < occ_l:
            free[sm] -= lt; lcount[sm] += 1; left -= 1
    return max(lcount)
if len(sys.argv) != 2:
    sys.exit(__doc__)
reader, summ = load(sys.argv[1])
rows = list(reader)
rng = random.Random(1)
for pair, sh in summ.items():
    if not isinstance(sh, dict): continue
    dur = durations(rows, pair)
    if len(dur) < 50: continue
    mx = [trial(sh, dur, rng) for _ in range(20)]
    gpu = [r['long_behind_max_per_sm'] for r in sh['reps']]
    q = sorted(dur)
    print("%-12s S blocks p10/50/90 %.2f/%.2f/%.2f us  model max/SM: median %s range %d-%d   GPU %s" % (pair, q[len(q)//10]/1e3, q[len(q)//2]/1e3, q[9*len(q)//10]/1e3, statistics.median(mx), min(mx), max(mx), gpu))
