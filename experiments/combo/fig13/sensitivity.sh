#!/bin/sh
# The Fig. 13/14 summary of a sensitivity sweep, written as reproduction rows with no paper value:
# how much the comparison depends on an assumption the paper's traces or text would fix and ours
# assume (make figures: fig13_medium_sweep.json, the games at COMBO Table 4's medium quality;
# fig13_exit_sweep.json, the RTX 3090 with the H100's measured exit time).
# A sweep with one grid key "apps" labelled PARBOIL+DNN is unfolded into the apps[0]/apps[1]
# columns report.sh reads.
# Usage: sensitivity.sh SWEEP_DIR OUT_DIR TAG NOTE   (rows fig13_TAG_*, fig14_TAG_*)
set -eu
in=${1:?usage: sensitivity.sh SWEEP_DIR OUT_DIR TAG NOTE}
out=${2:?usage: sensitivity.sh SWEEP_DIR OUT_DIR TAG NOTE}
tag=${3:?usage: sensitivity.sh SWEEP_DIR OUT_DIR TAG NOTE}
note=${4:?usage: sensitivity.sh SWEEP_DIR OUT_DIR TAG NOTE}
mkdir -p "$out/unfolded"
# report.sh reads games, apps[0], apps[1] as columns 2-4: unfold a combined "apps" column, and
# drop a "gpu" column (a one-value grid key: the GPU description the whole sweep runs on)
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "gpu") drop = i }
	drop { s = $1; for (i = 2; i <= NF; i++) if (i != drop) s = s OFS $i; $0 = s }
	NR == 1 { if ($3 == "apps") { $3 = "\"apps[0]\",\"apps[1]\"" } print; next }
	{ if (index($3, "+")) { split($3, a, "+"); $3 = a[1] OFS a[2] } print }' "$in/sweep.csv" >"$out/unfolded/sweep.csv"
# the runs keep their numbers: report.sh reads their frames.csv through a link
ln -sfn "$(cd "$in" && pwd)/runs" "$out/unfolded/runs"
sh "$(dirname "$0")/report.sh" "$out/unfolded" "$out" >/dev/null
sh "$(dirname "$0")/retag.sh" "$out/reproduction.csv" "$tag" "$note"
