#!/bin/sh
# Runs the GPU check's experiments (experiments/compare/h100check/, generate.py --gpu-check) with
# PROGRAM (`combosim` on the simulator, `combosim-cuda` on the GPU) into OUT in the layout
# reduce.py reads: OUT/<family>_<gpu>/sweep.csv and runs/NNNNNN/ (one per workload).
# Usage: sh experiments/compare/check_runs.sh PROGRAM OUT [EXTRA ARGS to each run]
set -u
P=$1 O=$2; shift 2
D=$(dirname "$0")/h100check
rc=0
for f in "$D"/*_w*.json; do
	b=$(basename "$f" .json)              # <family>_<gpu>_w<i>
	fg=${b%_w*}
	i=${b##*_w}
	run=$(printf '%06d' "$i")
	mkdir -p "$O/$fg/runs"
	[ -f "$O/$fg/sweep.csv" ] || echo "run,apps" >"$O/$fg/sweep.csv"
	echo "$run,$(cat "$D/$b.label")" >>"$O/$fg/sweep.csv"
	start=$(date +%s)
	"$P" run "$f" --out "$O/$fg/runs/$run" "$@" >"$O/$fg/runs/$run.log" 2>&1 || { rc=1; echo "== $b failed"; }
	echo "== $b in $(( $(date +%s) - start )) s"
done
exit $rc
