#!/usr/bin/env python3
"""Per policy and game, a simulated against a real run of an experiment with closed-loop games:
FPS (frames presented per second of the run), the median frame latency, and for closed-loop
games the median gap between a frame's release and the previous frame's presentation (the CPU
phase plus the policy's sleep).  Prints a Markdown table.

usage: compare_frames.py SIM_DIR REAL_DIR DURATION_MS
"""
import csv
import os
import statistics
import sys


def frames(d):
    out = {}
    for r in csv.DictReader(open(os.path.join(d, 'frames.csv'))):
        out.setdefault((r['policy'], r['game']), []).append(r)
    return out


def stats(rows, dur_s):
    done = sorted((r for r in rows if r['dropped'] == '0'), key=lambda r: int(r['frame']))
    lat = [int(r['latency_ns']) / 1e6 for r in done]
    gaps = [(int(b['release_ns']) - int(a['finish_ns'])) / 1e6 for a, b in zip(done, done[1:])
            if int(b['frame']) == int(a['frame']) + 1]
    return len(done) / dur_s, statistics.median(lat) if lat else float('nan'), \
        statistics.median(gaps) if gaps else float('nan')


def err(s, r):
    return '%+.1f %%' % (100 * (s - r) / r) if r else '-'


def main():
    sim, real, dur = frames(sys.argv[1]), frames(sys.argv[2]), float(sys.argv[3]) / 1e3
    print('| policy | game | FPS sim / GPU | error | latency median ms sim / GPU | error '
          '| release - previous presentation, median ms sim / GPU |')
    print('|---|---|---|---|---|---|---|')
    for key in sorted(real, key=lambda k: (list(real).index(k))):
        if key not in sim:
            continue
        fs, ls, gs = stats(sim[key], dur)
        fr, lr, gr = stats(real[key], dur)
        print('| %s | %s | %.2f / %.2f | %s | %.2f / %.2f | %s | %.3f / %.3f |' %
              (key[0], key[1], fs, fr, err(fs, fr), ls, lr, err(ls, lr), gs, gr))


if __name__ == '__main__':
    main()
