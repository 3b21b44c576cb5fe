#!/usr/bin/env python3
"""Writes a longer-run copy of experiments/combo/fig13_sweep.json for the run-length check: the
same 256 runs with each game's trace taken from WORKLOADS (as fig13/workloads.sh writes it with
FRAMES = FACTOR x 480: the first 480 frames of each load mode the main sweep's) and the run
FACTOR times fig13.json's duration_ms.  Paths are relative where OUT lies in experiments/combo
(the shipped fig13_x2_sweep.json: `make_long_sweep.py 2 experiments/combo/workloads-x2
experiments/combo/fig13_x2_sweep.json`), absolute elsewhere (`make figures-stability` writes
the 4x and 8x copies under build/).
Usage: make_long_sweep.py FACTOR WORKLOADS OUT   (from the project root)"""
import collections, json, os, sys

if len(sys.argv) != 4 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 2:
    sys.exit("usage: make_long_sweep.py FACTOR WORKLOADS OUT   (FACTOR: an integer >= 2)")
factor, wl, out = int(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3]
here = os.path.abspath('experiments/combo')
shipped = os.path.dirname(os.path.abspath(out)) == here
where = (lambda p: os.path.relpath(p, here)) if shipped else (lambda p: p)
j = json.load(open(os.path.join(here, 'fig13_sweep.json')), object_pairs_hook=collections.OrderedDict)
for v in j['grid']['games']['values']:
    for g in (v if isinstance(v, list) else [v]):
        if not g['trace'].startswith('workloads/'):
            sys.exit("make_long_sweep.py: a game trace outside workloads/: %s" % g['trace'])
        g['trace'] = where(os.path.join(wl, g['trace'][len('workloads/'):]))
fixed = collections.OrderedDict(j.get('fixed', {}))
fixed['duration_ms'] = factor * json.load(open(os.path.join(here, 'fig13.json')))['duration_ms']
s = collections.OrderedDict([
    ('description', 'Run-length check of COMBO Fig. 13/14 (not in the paper): the 256 runs of '
     'fig13_sweep.json with game traces %d times as long (%s: %d stable + %d dynamic frames, '
     'fig13/workloads.sh with FRAMES %d) and %d ms runs. Written by '
     'experiments/combo/fig13/make_long_sweep.py.'
     % (factor, os.path.relpath(wl), 480 * factor, 480 * factor, 480 * factor, fixed['duration_ms'])),
    ('experiment', where(os.path.join(here, j['experiment']))),
    ('fixed', fixed),
    ('grid', j['grid']),
])
with open(out, 'w') as f:
    json.dump(s, f, indent=1)
    f.write("\n")
