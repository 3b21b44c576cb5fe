#!/usr/bin/env python3
"""An offline check of a hypothesis on cuda/runs/h200-pileup-dev3 (development; issue #19),
before any change to the simulator: a launch-bound grid of least-work blocks (S: 98304 blocks of
128 threads, at most 16 per SM) dispatched at the chip's rate R (680 blocks/us, measured in the
last 20 us of S there) onto SMs that each retire their resident blocks one at a time at a rate
mu per SM (deterministic or exponential service), the dispatcher choosing the SM by most room,
round robin (skipping full SMs) or at random; then L (132 blocks of 2 slots) lands by most room
at S's last dispatch.  Prints the steady residency per SM (mean, sd over the SMs), its range at
the end, and the most L blocks on one SM.  The GPU (pileup_room.py, p-CD1+CDx): residency mean
11.8 of 16, sd 2.5, min 4-7 / max 16 at the end, L 3-5 per SM at most.  Not the simulator.
Usage: launchbound_mc.py   (about a minute)"""
import heapq, random, statistics as st
N, CAP = 132, 16


def run(dispatch, service, mu, R=680.0, G=98304, seed=1):
    """(steady residency mean, its sd over the SMs, min and max at the end, most L on one SM)"""
    rng = random.Random(seed)
    res = [0] * N         # S blocks resident per SM
    nxt = [None] * N      # each SM's next retirement (one block at a time)
    ev = []               # (time, sm)
    placed = 0; rr = 0
    def sched(sm, now):
        if res[sm] > 0 and nxt[sm] is None:
            d = (1/mu) if service == 'det' else rng.expovariate(mu)
            nxt[sm] = now + d; heapq.heappush(ev, (nxt[sm], sm))
    samples = []
    dt = 1/R
    tdisp = 0.0
    while placed < G:
        # process completions up to tdisp
        while ev and ev[0][0] <= tdisp:
            tt, sm = heapq.heappop(ev)
            if nxt[sm] != tt: continue
            res[sm] -= 1; nxt[sm] = None; sched(sm, tt)
        # dispatch one block
        if dispatch == 'mostroom':
            m = min(res); cands = [i for i in range(N) if res[i] == m]; sm = cands[0]
        elif dispatch == 'rr':
            for k in range(N):
                sm = (rr + k) % N
                if res[sm] < CAP: break
            rr = (sm + 1) % N
        else:
            sm = rng.randrange(N)
            while res[sm] >= CAP: sm = rng.randrange(N)
        if res[sm] >= CAP:   # all full: wait for a completion
            tdisp = ev[0][0]; continue
        res[sm] += 1; placed += 1; sched(sm, tdisp)
        tdisp += dt
        if placed > G - 30000 and placed % 500 == 0: samples.append(list(res))
    # L lands: 132 blocks of 2 slots by most room
    free = [CAP - r for r in res]; lc = [0]*N
    for _ in range(N):
        i = max(range(N), key=lambda j: (free[j], -j))
        if free[i] < 2: break
        free[i] -= 2; lc[i] += 1
    flat = [x for s in samples for x in s]
    sds = [st.pstdev(s) for s in samples]
    return st.mean(flat), st.mean(sds), min(res), max(res), max(lc)


if __name__ == '__main__':
    for dispatch in ('mostroom', 'rr', 'random'):
        for service in ('det', 'exp'):
            for mu in (5.2, 5.4, 6.0):
                m, sd, lo, hi, pile = run(dispatch, service, mu)
                print('%-8s %-3s mu %.1f: residency mean %.1f sd %.2f, at end min %d max %d, L max per SM %d'
                      % (dispatch, service, mu, m, sd, lo, hi, pile))
