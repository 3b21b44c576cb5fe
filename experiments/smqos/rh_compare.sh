#!/bin/sh
# Compares rh_report.sh's rows of a simulated and a GPU run of experiments/smqos/h100_rh.json:
# per policy, the share of cases meeting QoS (all QoS policies and at 95 %) and the mean batch
# NTP on each side beside the paper's (Fig. 15-16: RH-SMQoS 93.8 % / 100 % / 41.2 %, SlateQoS
# 84.4 / 75 / 37.3, Volta-MPS 76.6 / 68.8 / 23.9); a policy run on one side only shows "-" on
# the other; then how
# often the two sides agree on meeting QoS and their median errors in NPM and NTP.  Markdown
# on stdout.  Usage: rh_compare.sh SIM.csv GPU.csv
set -eu
sim=${1:?usage: rh_compare.sh SIM.csv GPU.csv}
gpu=${2:?}
awk -F, '
FNR == 1 { next }
{
	k = $2 SUBSEP $3 SUBSEP $4
	side = (FILENAME == ARGV[1]) ? "sim" : "gpu"
	npm[side, k] = $5; ntp[side, k] = $6; ok[side, k] = $7; keys[k] = 1
	n[side, $3]++; r[side, $3] += $7; t[side, $3] += $6
	if ($4 == 0.95) { n95[side, $3]++; r95[side, $3] += $7 }
	pols[$3] = 1
}
function med(a, m,   i, j, x) {   # median of a[1..m], sorted in place
	for (i = 2; i <= m; i++) { x = a[i]; for (j = i - 1; j > 0 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
	return m ? (m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2) : 0
}
function pct(a, b) { return b ? sprintf("%.1f", 100 * a / b) : "-" }
END {
	print "| policy | QoS reach sim | QoS reach GPU | paper | at 95 % sim | at 95 % GPU | paper | NTP sim | NTP GPU | paper |"
	print "|---|---|---|---|---|---|---|---|---|---|"
	for (p in pols) {
		paper = p == "rh-smqos" ? "93.8 | %s | %s | 100 | %s | %s | 41.2" \
		      : p == "slateqos" ? "84.4 | %s | %s | 75 | %s | %s | 37.3" \
		      : p == "volta-mps" ? "76.6 | %s | %s | 68.8 | %s | %s | 23.9" : "- | %s | %s | - | %s | %s | -"
		printf "| %s | %s | %s | " paper " |\n", p, pct(r["sim", p], n["sim", p]), pct(r["gpu", p], n["gpu", p]),
			pct(r95["sim", p], n95["sim", p]), pct(r95["gpu", p], n95["gpu", p]),
			n["sim", p] ? sprintf("%.1f", 100 * t["sim", p] / n["sim", p]) : "-",
			n["gpu", p] ? sprintf("%.1f", 100 * t["gpu", p] / n["gpu", p]) : "-"
	}
	both = 0; agree = 0; m = 0
	for (k in keys) {
		if (!(("sim", k) in npm) || !(("gpu", k) in npm)) continue
		both++; agree += ok["sim", k] == ok["gpu", k]
		m++; e1[m] = (npm["sim", k] - npm["gpu", k]) / npm["gpu", k]; e1[m] = e1[m] < 0 ? -e1[m] : e1[m]
		e2[m] = (ntp["sim", k] - ntp["gpu", k]) / ntp["gpu", k]; e2[m] = e2[m] < 0 ? -e2[m] : e2[m]
	}
	printf "\n%d cases on both sides; they agree on meeting QoS in %d (%s %%); median |error| of the simulated NPM %.1f %%, of the NTP %.1f %% (against the GPU).\n",
		both, agree, pct(agree, both), 100 * med(e1, m), 100 * med(e2, m)
}' "$sim" "$gpu"
