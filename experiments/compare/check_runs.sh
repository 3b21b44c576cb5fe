#!/bin/sh
# Runs the GPU check's experiments (experiments/compare/h100check/, generate.py --gpu-check) with
# PROGRAM (`combosim` on the simulator, `combosim-cuda` on the GPU) into OUT in the layout
# reduce.py reads: OUT/<family>_<gpu>/sweep.csv and runs/NNNNNN/ (one per workload).  A frame
# family's kernels.csv (a DNN job's tens of thousands of kernels) is summed, the same on both
# backends, into be_solo.csv: per policy and app, the kernels that ended within the run and
# their solo time (what reduce.py's BE throughput reads), and removed.
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
	[ -f "$O/$fg/sweep.csv" ] || echo "run,workload" >"$O/$fg/sweep.csv"
	echo "$run,$(cat "$D/$b.label")" >>"$O/$fg/sweep.csv"
	start=$(date +%s)
	"$P" run "$f" --out "$O/$fg/runs/$run" "$@" >"$O/$fg/runs/$run.log" 2>&1 || { rc=1; echo "== $b failed"; }
	k="$O/$fg/runs/$run/kernels.csv"
	if grep -q '"frames_csv": true' "$f" && [ -f "$k" ]; then
		dur=$(sed -n 's/^ *"duration_ms": *\([0-9]*\).*/\1/p' "$f")
		{ echo policy,owner,kernels,solo_ns
		awk -F, -v d="$dur" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["frame"] == -1 && $c["end_ns"] <= d * 1e6 { k = $c["policy"] "," $c["owner"]; n[k]++; s[k] += $c["solo_ns"] }
			END { for (k in n) printf "%s,%d,%.0f\n", k, n[k], s[k] }' "$k" | sort; } >"${k%/*}/be_solo.csv" && rm "$k"
	fi
	echo "== $b in $(( $(date +%s) - start )) s"
done
exit $rc
