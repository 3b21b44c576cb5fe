#!/bin/sh
# SMQoS Fig. 20-21 (§6.6) from a sweep of experiments/smqos/a100_mig_sweep.json: per pair and
# split, the LS task's NPM and the batch task's NTP under RH-SMQoS and MIG (rh_report.sh's
# measures: T_solo / (qos x T_co), T_solo / T_co), written to OUT/fig20.csv, and their rows
# appended to OUT/reproduction.csv (which report.sh wrote first).
# Usage: mig_report.sh SWEEP_DIR OUT
set -eu
sweep=${1:?usage: mig_report.sh SWEEP_DIR OUT}
out=${2:?}
here=$(dirname "$0")
mkdir -p "$out"
sh "$here/rh_report.sh" sim "$sweep"/runs/* >"$out/fig20.csv"
awk -F, 'NR > 1 {
	n[$3]++; r[$3] += $7; t[$3] += $6; key = $2 "," $4
	if ($3 == "rh-smqos") rh[key] = $6; else mig[key] = $6
	if ($3 == "mig" && $5 < 1) { miss++; if ($5 > worst) worst = $5 }
}
END {
	printf "fig20_rh_smqos_qos_reach,%%,50,%.1f,RH-SMQoS on the A100 description: the §6 pairs at LS:batch 2:1 and 1:1 (67 %% and 50 %% QoS policy); %d cases (Fig. 20)\n", 100 * r["rh-smqos"] / n["rh-smqos"], n["rh-smqos"]
	printf "fig20_mig_qos_reach,%%,34.3,%.1f,MIG (4g.40gb + 2g.20gb and 3g.40gb + 3g.40gb; each task alone in its instance with its memory slices'"'"' DRAM bandwidth); %d cases (Fig. 20)\n", 100 * r["mig"] / n["mig"], n["mig"]
	printf "fig20_mig_best_missed_npm,fraction,,%.4f,the highest LS NPM among the MIG cases that miss the target: the instances'"'"' SM shares (56 and 42 of 108 SMs) against 0.67 and 0.50\n", worst
	for (k in rh) { m++; if (rh[k] > mig[k] + 1e-9) hi++ }
	printf "fig21_rh_smqos_batch_ntp,%%,,%.1f,mean batch NTP under RH-SMQoS (Fig. 21; the paper gives no mean)\n", 100 * t["rh-smqos"] / n["rh-smqos"]
	printf "fig21_mig_batch_ntp,%%,,%.1f,mean batch NTP under MIG (Fig. 21)\n", 100 * t["mig"] / n["mig"]
	printf "fig21_rh_smqos_higher_batch_ntp,%%,,%.1f,cases where RH-SMQoS gives the batch task more throughput than MIG (paper: \"in most task co-locations\")\n", 100 * hi / m
}' "$out/fig20.csv" >>"$out/reproduction.csv"
echo "wrote $out/fig20.csv"
