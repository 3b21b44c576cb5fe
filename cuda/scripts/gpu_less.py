#!/usr/bin/env python3
"""A GPU description less some of its keys, under another name: what the model would say without
those mechanisms (the validation sections' "without" rows).
usage: gpu_less.py IN.json OUT.json NAME KEY [KEY ...]"""
import json
import sys

if len(sys.argv) < 5:
    sys.exit(__doc__)
d = json.load(open(sys.argv[1]))
for key in sys.argv[4:]:
    del d[key]
d['name'] = sys.argv[3]
json.dump(d, open(sys.argv[2], 'w'), indent=1)
