#!/usr/bin/env python3
"""`--set kernels[i].solo_us=US` arguments that give an experiment's kernels the solo times a
combosim-cuda run measured (its summary.json "calibration": measured_solo_us per kernel), so the
simulator is compared with a GPU run at the GPU's own solo times.
usage: solo_sets.py EXPERIMENT.json SUMMARY.json   (prints the arguments on one line)"""
import json, sys

if len(sys.argv) != 3:
    sys.exit(__doc__)
exp, run = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
measured = {c['kernel']: c['measured_solo_us'] for c in run.get('calibration', []) if c.get('measured_solo_us')}
print(' '.join('--set kernels[%d].solo_us=%.3f' % (i, measured[k['name']])
               for i, k in enumerate(exp['kernels']) if k['name'] in measured))
