#!/usr/bin/env python3
"""Writes a copy of a COMBO sweep whose games' traces come from WORKLOADS (as fig13/workloads.sh
writes them, FACTOR times as long as experiments/combo/workloads') and whose runs are FACTOR
times its experiment's duration_ms: the length checks of `make figures-stability`.  NOTE says
in the description how the traces were made longer (more cycles of the load modes, or longer
stretches of each mode).  Paths are relative where OUT lies in experiments/combo (the shipped
fig13_x2_sweep.json), absolute elsewhere (the copies written under build/).
Usage: make_long_sweep.py SWEEP FACTOR WORKLOADS OUT NOTE   (from the project root)"""
import collections, json, os, sys

if len(sys.argv) != 6 or not sys.argv[2].isdigit() or int(sys.argv[2]) < 2:
    sys.exit("usage: make_long_sweep.py SWEEP FACTOR WORKLOADS OUT NOTE   (FACTOR: an integer >= 2)")
src, factor, wl, out, note = sys.argv[1], int(sys.argv[2]), os.path.abspath(sys.argv[3]), sys.argv[4], sys.argv[5]
here = os.path.abspath('experiments/combo')
if os.path.dirname(os.path.abspath(src)) != here:
    sys.exit("make_long_sweep.py: %s: a sweep in experiments/combo expected" % src)
shipped = os.path.dirname(os.path.abspath(out)) == here
where = (lambda p: os.path.relpath(p, here)) if shipped else (lambda p: p)
j = json.load(open(src), object_pairs_hook=collections.OrderedDict)
for v in j['grid']['games']['values']:
    for g in (v if isinstance(v, list) else [v]):
        if not g['trace'].startswith('workloads/'):
            sys.exit("make_long_sweep.py: %s: a game trace outside workloads/: %s" % (src, g['trace']))
        g['trace'] = where(os.path.join(wl, g['trace'][len('workloads/'):]))
fixed = collections.OrderedDict(j.get('fixed', {}))
fixed['duration_ms'] = factor * json.load(open(os.path.join(here, j['experiment'])))['duration_ms']
s = collections.OrderedDict([
    ('description', 'Length check (not in the paper): the runs of %s with game traces %d times as long '
     '(%s: %s) and %d ms runs. Written by experiments/combo/fig13/make_long_sweep.py.'
     % (os.path.basename(src), factor, os.path.relpath(wl), note, fixed['duration_ms'])),
    ('experiment', where(os.path.join(here, j['experiment']))),
    ('fixed', fixed),
    ('grid', j['grid']),
])
if 'combine' in j:
    s['combine'] = j['combine']
with open(out, 'w') as f:
    json.dump(s, f, indent=1)
    f.write("\n")
