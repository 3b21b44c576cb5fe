#!/bin/sh
# What the device call of cuda/runs/h100-gspace-search runs: G-Space (policies/gspace.c, every
# search method) on the H100 for each BE + LC pair of experiments/gspace/h100_search_sweep.json,
# through `combosim-cuda run experiments/gspace/h100_search.json --set apps=... --set
# duration_ms=...` (the pairs and durations the sweep gives the simulator), one calibration
# cache for all; then, if python3 has torch, the TC / CN captures of the run's drivers/rnn.py.
# Packs $OUT/run.tgz.  CALIB_SEED=FILE starts from a stored calibration cache.
# usage (from a tree holding models/, experiments/gspace/ and traces/gspace/microbench-h100.json):
#   sh cuda/scripts/device_gspace.sh CARRY_DIR [RNN_DRIVER]
set -u
C=${1:?usage: device_gspace.sh CARRY_DIR [RNN_DRIVER]}
RNN=${2:-}
export LD_LIBRARY_PATH=$C/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
B=$C/combosim-cuda
R=$OUT/r
mkdir -p $R
nvidia-smi >$R/nvidia-smi.txt 2>&1
[ -z "${CALIB_SEED:-}" ] || cp "$CALIB_SEED" $R/calib.json
rc=0
python3 - experiments/gspace/h100_search_sweep.json >$R/pairs.txt <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
for apps, d in zip(s["grid"]["apps"], s["grid"]["duration_ms"]):
    print("%s+%s\t%s\t%d" % (apps[0]["name"], apps[1]["name"], json.dumps(apps, separators=(",", ":")), d))
PY
while IFS='	' read -r pair apps dur; do
	echo "== $pair ($dur ms a method)"
	$B run experiments/gspace/h100_search.json --set "apps=$apps" --set "duration_ms=$dur" \
		--out $R/$pair --calib $R/calib.json >$R/$pair.log 2>&1 || rc=$?
	tail -3 $R/$pair.log
	cp $R/$pair/summary.json $OUT/summary-$pair.json 2>/dev/null
done <$R/pairs.txt
if [ -n "$RNN" ] && python3 -c 'import torch' 2>/dev/null; then
	echo "== rnn"
	python3 $RNN $R/rnn >$R/rnn.log 2>&1 || echo "rnn capture failed: $(tail -2 $R/rnn.log)"
	tail -1 $R/rnn.log
fi
tar -czf $OUT/run.tgz -C $OUT r
ls -la $OUT
exit $rc
