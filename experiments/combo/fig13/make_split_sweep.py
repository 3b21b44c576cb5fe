#!/usr/bin/env python3
"""Writes experiments/combo/fig13_split_sweep.json from fig13_sweep.json: COMBO on the same
groups with each DNN queue presented as two apps, its CD and its TC kernels ("only_class"),
beside the Parboil app (one grid key "apps" of 8 x 4 values); Pilotfish is not rerun (it runs a
job in order: the main sweep's runs stand).  Usage: make_split_sweep.py (from the root)."""
import collections, json

src = 'experiments/combo/fig13_sweep.json'
j = json.load(open(src), object_pairs_hook=collections.OrderedDict)
par, dnn = j['grid']['apps[0]'], j['grid']['apps[1]']
vals, labels = [], []
for pv, pl in zip(par['values'], par['labels']):
    for dv, dl in zip(dnn['values'], dnn['labels']):
        cd = collections.OrderedDict([('name', 'dnn-cd'), ('queue', dv['queue']), ('only_class', 'CD')])
        tc = collections.OrderedDict([('name', 'dnn-tc'), ('queue', dv['queue']), ('only_class', 'TC')])
        vals.append([pv, cd, tc])
        labels.append(pl + '+' + dl)
combo = collections.OrderedDict([('values', [[{'name': 'combo'}]]), ('labels', ['combo'])])
grid = collections.OrderedDict([('games', j['grid']['games']),
                                ('apps', collections.OrderedDict([('values', vals), ('labels', labels)])),
                                ('policies', combo)])
out = collections.OrderedDict()
out['description'] = ("Sensitivity of COMBO Fig. 13 to how COMBO queues a DNN job (not in the paper): COMBO on the "
                      "128 groups of fig13_sweep.json with each DNN queue split into two apps, its CUDA-core and its "
                      "tensor kernels (\"only_class\"), as COMBO's two BE host queues read literally (§5.1.2), beside "
                      "the Parboil app; compared with the main sweep's Pilotfish runs (one job in order). Generated "
                      "from fig13_sweep.json by experiments/combo/fig13/make_split_sweep.py.")
out['experiment'] = j['experiment']
out['grid'] = grid
out['combine'] = 'cartesian'
with open('experiments/combo/fig13_split_sweep.json', 'w') as f:
    f.write(json.dumps(out, indent=1, ensure_ascii=False) + '\n')
