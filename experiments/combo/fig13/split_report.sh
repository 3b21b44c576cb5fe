#!/bin/sh
# COMBO with each DNN job as two host queues (its CD and its TC kernels: §5.1.2 read
# literally; experiments/combo/fig13_split_sweep.json) against the main Fig. 13 sweep's
# Pilotfish (one job in order) and COMBO (in order), as reproduction rows with no paper value.
# Usage: split_report.sh MAIN_SWEEP_DIR SPLIT_SWEEP_DIR OUT_DIR
set -eu
main=${1:?usage: split_report.sh MAIN_SWEEP_DIR SPLIT_SWEEP_DIR OUT_DIR}/sweep.csv
split=${2:?usage: split_report.sh MAIN_SWEEP_DIR SPLIT_SWEEP_DIR OUT_DIR}/sweep.csv
out=${3:?usage: split_report.sh MAIN_SWEEP_DIR SPLIT_SWEEP_DIR OUT_DIR}
mkdir -p "$out"
# main: run,games,apps[0],apps[1],policies,policy,be_throughput,...
# split: run,games,apps (PARBOIL+DNN),policies,policy,be_throughput,...
awk -F, -v rep="$out/reproduction.csv" '
FNR == 1 { next }
NR == FNR { thr[$2 "," $3 "," $4, $6] = $7; next }
{ split($3, a, "+"); k = $2 "," a[1] "," a[2]; s[k] = $6; keys[++n] = k }
END {
	note = "sensitivity (COMBO with each DNN job as its CD and its TC kernels, Pilotfish in order; not in the paper)"
	sum = 0; max = -1e9; better = 0; own = 0
	for (i = 1; i <= n; i++) {
		k = keys[i]; pf = thr[k, "pilotfish"]; c = thr[k, "combo"]
		imp = 100 * (s[k] / pf - 1); sum += imp; if (imp > max) max = imp; if (s[k] > pf) better++
		own += 100 * (s[k] / c - 1)
	}
	print "metric,unit,paper,sim,note" > rep
	printf "fig13_split_combo_over_pilotfish_mean,%%,,%.2f,%s: mean over %d groups\n", sum / n, note, n > rep
	printf "fig13_split_combo_over_pilotfish_max,%%,,%.2f,%s\n", max, note > rep
	printf "fig13_split_groups_improved,groups,,%d,%s: groups where COMBO beats Pilotfish\n", better, note > rep
	printf "fig13_split_over_inorder_mean,%%,,%.2f,%s: COMBO with the split over COMBO with each job in order\n", own / n, note > rep
}' "$main" "$split"
cat "$out/reproduction.csv"
