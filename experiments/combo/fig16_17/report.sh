#!/bin/sh
# COMBO Fig. 16 (COMBO vs COMBO-NM, no headroom merging) and Fig. 17 (COMBO vs relaxed intra-SM
# sharing only) from two finished sweeps: COMBO's runs are Fig. 13's (fig13_sweep.json), the
# variants' are fig16_17_sweep.json's, on the same 128 groups.  Per group: both BE throughputs
# and COMBO's improvement (COMBO Eq. 6); then the paper's numbers beside ours.
# Usage: report.sh FIG13_SWEEP_DIR SWEEP_DIR OUT_DIR   (writes OUT_DIR/fig16.csv, fig17.csv, reproduction.csv)
set -eu
combo=${1:?usage: report.sh FIG13_SWEEP_DIR SWEEP_DIR OUT_DIR}/sweep.csv
var=${2:?usage: report.sh FIG13_SWEEP_DIR SWEEP_DIR OUT_DIR}/sweep.csv
out=${3:?usage: report.sh FIG13_SWEEP_DIR SWEEP_DIR OUT_DIR}
mkdir -p "$out"
# both sweep.csv: run,games,apps[0],apps[1],policies,policy,be_throughput,...
awk -F, -v out="$out" '
FNR == 1 { next }
{
	k = $2 "," $3 "," $4; thr[k, $6] = $7
	if (NR == FNR && $6 == "combo") order[++n] = k
}
function fig(name, base, csv,    i, k, b, c, imp, sum, max, better, zero) {
	print "game,parboil,dnn," base ",combo,improvement_pct" > csv
	sum = 0; max = -1e9; better = 0; zero = 0
	for (i = 1; i <= n; i++) {
		k = order[i]; c = thr[k, "combo"]
		if (!((k, base) in thr)) { print "fig16_17: no " base " run for group " k > "/dev/stderr"; exit 1 }
		b = thr[k, base]
		if (b > 0) imp = 100 * (c / b - 1); else { imp = 0; zero++ }
		printf "%s,%.6f,%.6f,%.2f\n", k, b, c, imp > csv
		sum += imp; if (imp > max) max = imp; if (c > b) better++
		split(k, g, ","); dsum[name, g[3]] += imp; dn[name, g[3]]++
	}
	mean[name] = sum / n; mx[name] = max; nb[name] = better; nz[name] = zero
}
END {
	fig("fig16", "combo-nm", out "/fig16.csv")
	fig("fig17", "combo-intra", out "/fig17.csv")
	rep = out "/reproduction.csv"
	print "metric,unit,paper,sim,note" > rep
	printf "fig16_combo_over_nm_mean,%%,6.74,%.2f,mean over %d groups of COMBO/COMBO-NM BE throughput - 1 (Eq. 6)\n", mean["fig16"], n > rep
	printf "fig16_combo_over_nm_max,%%,19.8,%.2f,\n", mx["fig16"] > rep
	printf "fig16_groups_improved,groups,,%d,groups where COMBO beats COMBO-NM (%d groups%s); paper gives no count\n", nb["fig16"], n, nz["fig16"] ? "; " nz["fig16"] " with zero COMBO-NM throughput" : "" > rep
	printf "fig17_combo_over_intra_mean,%%,8.43,%.2f,mean over %d groups of COMBO/relaxed-intra-SM-only BE throughput - 1 (Eq. 6)\n", mean["fig17"], n > rep
	printf "fig17_combo_over_intra_max,%%,23.3,%.2f,\n", mx["fig17"] > rep
	printf "fig17_groups_improved,groups,,%d,groups where COMBO beats intra-SM only (%d groups%s); paper gives no count\n", nb["fig17"], n, nz["fig17"] ? "; " nz["fig17"] " with zero intra-only throughput" : "" > rep
	split("resnet50 vgg16 densenet inception", d, " ")
	for (i = 1; i <= 4; i++)
		printf "fig17_%s_mean,%%,,%.2f,%s\n", d[i], dsum["fig17", d[i]] / dn["fig17", d[i]], d[i] == "vgg16" ? "paper gives no number: the improvement is largest on VGG16" : "see fig17_vgg16_mean" > rep
}' "$combo" "$var"
cat "$out/reproduction.csv"
