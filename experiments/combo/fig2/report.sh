#!/bin/sh
# COMBO Fig. 2 from a finished sweep (experiments/combo/fig2_sweep.json): per pair (game, DNN
# job) under Pilotfish, the active time of all RT, CD and TC kernels as a fraction of the run
# (= of the QoS target per frame, frames being periodic) and the fraction with no kernel on the
# GPU (unused cycles), from each run's summary.json (active_fraction, gpu_idle_fraction); then
# the paper's numbers beside ours in reproduction.csv.
# Usage: report.sh SWEEP_DIR OUT_DIR      (writes OUT_DIR/fig2.csv, reproduction.csv)
set -eu
in=${1:?usage: report.sh SWEEP_DIR OUT_DIR}
out=${2:?usage: report.sh SWEEP_DIR OUT_DIR}
mkdir -p "$out"
# sweep.csv: run,games,apps[0],policy,...  -> one line per run: game,dnn,RT,CD,TC,idle
awk -F, 'NR > 1 { print $1, $2, $3 }' "$in/sweep.csv" | while read -r run game dnn; do
	awk -v g="$game" -v d="$dnn" '
	/"active_fraction":/ { a = 1; next }
	a && /}/ { a = 0 }
	a { gsub(/[",\t ]/, ""); split($0, kv, ":"); v[kv[1]] = kv[2] }
	/"gpu_idle_fraction":/ { gsub(/[",\t ]/, ""); split($0, kv, ":"); idle = kv[2] }
	END {
		if (idle == "") { print "fig2: no gpu_idle_fraction in " FILENAME > "/dev/stderr"; exit 1 }
		printf "%s,%s,%.6f,%.6f,%.6f,%.6f\n", g, d, v["RT"], v["CD"], v["TC"], idle }' "$in/runs/$run/summary.json"
done >"$out/pairs.tmp"
awk -F, -v out="$out" '
BEGIN { f2 = out "/fig2.csv"; print "game,dnn,rt,cd,tc,active_sum,unused" > f2 }
{
	s = $3 + $4 + $5
	printf "%s,%s,%.4f,%.4f,%.4f,%.4f,%.4f\n", $1, $2, $3, $4, $5, s, $6 > f2
	n++; sum += $6; if ($6 > max) max = $6; if (s > smax) smax = s
	if (!($2 in dn)) dorder[++nd] = $2
	dn[$2]++; du[$2] += $6; dt[$2] += $5
}
END {
	rep = out "/reproduction.csv"
	print "metric,unit,paper,sim,note" > rep
	printf "fig2_unused_mean,%%,10.6,%.2f,of the QoS target: mean over %d game x DNN pairs of the time with no kernel on the GPU under Pilotfish\n", 100 * sum / n, n > rep
	printf "fig2_unused_max,%%,17.4,%.2f,\n", 100 * max > rep
	printf "fig2_active_sum_max,%%,,%.2f,of the QoS target; paper gives no number: RT + CD + TC active time never exceeds the QoS target (100 %%)\n", 100 * smax > rep
	# per DNN job (mean over its pairs): where the unused share comes from
	for (i = 1; i <= nd; i++) {
		d = dorder[i]
		printf "fig2_unused_%s,%%,,%.2f,of the QoS target; paper gives no number: mean over the %d pairs with %s\n", d, 100 * du[d] / dn[d], dn[d], d > rep
		printf "fig2_tc_%s,%%,,%.2f,of the QoS target; paper gives no number: TC active time in the pairs with %s (the paper: TC kernels in every pair)\n", d, 100 * dt[d] / dn[d], d > rep
	}
}' "$out/pairs.tmp"
rm -f "$out/pairs.tmp"
cat "$out/reproduction.csv"
