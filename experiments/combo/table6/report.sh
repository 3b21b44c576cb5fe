#!/bin/sh
# COMBO Table 6 from the two runs of experiments/combo/table6.json (stable A, dynamic B): mri-q
# kernels finished per frame under each scheme, beside the paper's.
# Usage: report.sh RUN_A RUN_B OUT_DIR      (writes OUT_DIR/reproduction.csv)
set -eu
a=${1:?usage: report.sh RUN_A RUN_B OUT_DIR}; b=${2:?}; out=${3:?}
mkdir -p "$out"
# kernels finished per frame = BE kernels of the run (all mri-q) / frames finished, from kernels.csv
per_frame() {
	awk -F, -v p="$2" 'NR > 1 && $1 == p && $5 == "mriq" { k++ } NR > 1 && $1 == p && $5 == "game" && $2 ~ /_rt$/ { f++ }
		END { printf "%.3f", k / f }' "$1/kernels.csv"
}
{
	echo "metric,unit,paper,sim,note"
	echo "table6_exact_stable,kernels/frame,1.45,$(per_frame "$a" exact),"
	echo "table6_relaxed_stable,kernels/frame,0.998,$(per_frame "$a" relaxed),"
	echo "table6_exact_dynamic,kernels/frame,1,$(per_frame "$b" exact),the partition follows the load: BE blocked in frames where the render group grows"
	echo "table6_relaxed_dynamic,kernels/frame,1.16,$(per_frame "$b" relaxed),"
} >"$out/reproduction.csv"
cat "$out/reproduction.csv"
