#!/bin/sh
# Turns the SMQoS sweeps' results into OUT/reproduction.csv (metric,unit,paper,simulated,note)
# and the data files the plots read (OUT/fig7.csv, fig8.csv, fig9.csv, fig10.csv, fig12.csv,
# fig14.csv, rh.csv, fig15_16.csv).  Usage: report.sh PAIRS_DIR FIG9_DIR FIG10_DIR FIG14_DIR RH_DIR OUT
# (each *_DIR a `combosim sweep --out` directory; RH_DIR of h100_rh_sweep.json).
set -eu
pairs=${1:?usage: report.sh PAIRS FIG9 FIG10 FIG14 RH OUT}
fig9=${2:?} fig10=${3:?} fig14=${4:?} rh=${5:?} out=${6:?}
here=$(dirname "$0")
mkdir -p "$out"
x() { sh "$here/extract.sh" "$1"/runs/*/summary.json; }
x "$pairs" >"$out/pairs.rows"
x "$fig10" >"$out/fig10.rows"
x "$fig14" >"$out/fig14.rows"

# Per pair and QoS policy: each policy's LS IPC over its target and batch throughput; the
# Offline allocation: the fewest LS SMs whose static split meets the target (§5.4).
awk -F, -v out="$out" '
function pct(a, b) { return b ? 100 * a / b : 0 }
FILENAME ~ /blocks.csv$/ { long[$1] = $3 == "yes"; next }
FILENAME ~ /pairs.csv$/ { ls[$1] = $2; bt[$1] = $3; next }
{
	p = $1; lab = $2
	pts[p] = 1
	if (lab ~ /^split-/) { k = substr(lab, 7) + 0; sperf[p, k] = $4; sntp[p, k] = $6; spow[p, k] = $9; if (k > kmax) kmax = k; next }
	n = split(lab, a, "-"); q = a[n]; pol = substr(lab, 1, length(lab) - length(q) - 1)
	norm[pol, q, p] = $5; ntp[pol, q, p] = $6; pow[pol, q, p] = $9; qs[q] = 1; pols[pol] = 1
}
END {
	np = 0; for (p in pts) np++
	print "pair,smqos,spart,rollover,static-smqos" > out "/fig7.csv"
	for (p in pts) printf "%s,%s,%s,%s,%s\n", p, norm["smqos", "0.95", p], norm["spart", "0.95", p], norm["rollover", "0.95", p], norm["static-smqos", "0.95", p] > out "/fig7.csv"
	print "qos,policy,reach_pct,violating_pct,violations_under_8pct_pct,worst_violation_pct" > out "/fig8.csv"
	for (q in qs) for (pol in pols) {
		reach = 0; viol = 0; small = 0; worst = 0
		for (p in pts) {
			v = norm[pol, q, p]
			if (v >= 1 - 1e-9) { reach++; continue }
			viol++; if (v >= 0.92) small++
			if (100 * (1 - v) > worst) worst = 100 * (1 - v)
		}
		printf "%s,%s,%.2f,%.2f,%.2f,%.2f\n", q, pol, pct(reach, np), pct(viol, np), pct(small, viol), worst > out "/fig8.csv"
		R[pol, q] = pct(reach, np); S[pol, q] = pct(small, viol); W[pol, q] = worst
	}
	# Offline and Static-SMQoS against SMQoS at 95 %
	print "pair,offline_sms,offline_norm,offline_ntp,smqos_ntp,static_ntp" > out "/fig12.csv"
	q = "0.95"; dn = 0; sum_b = 0; sum_s = 0; sum_p = 0; npow = 0
	for (p in pts) {
		best = kmax
		for (k = 1; k <= kmax; k++) if (sperf[p, k] >= q - 1e-9) { best = k; break }
		on = sperf[p, best] / q; ob = sntp[p, best]
		printf "%s,%d,%.4f,%.4f,%s,%s\n", p, best, on, ob, ntp["smqos", q, p], ntp["static-smqos", q, p] > out "/fig12.csv"
		if (ob > 0) { sum_b += ntp["smqos", q, p] / ob - 1; dn++ }
		if (ntp["smqos", q, p] > 0) sum_s += 1 - ntp["static-smqos", q, p] / ntp["smqos", q, p]
		if (spow[p, best] > 0 && pow["smqos", q, p] > 0) { sum_p += pow["smqos", q, p] / spow[p, best] - 1; npow++ }
	}
	rep = out "/reproduction.csv"
	print "metric,unit,paper,simulated,note" > rep
	printf "smqos_qos_reach_95,%%,88.6,%.1f,SMQoS at 95 %% QoS policy (§5.2); %d pairs\n", R["smqos", "0.95"], np > rep
	# the pairs whose two tasks both have thread blocks shorter than the run, where SMs can
	# change hands (§4.1), against the others
	for (p in pts) {
		sh = !long[ls[p]] && !long[bt[p]]
		ns[sh]++; if (norm["smqos", "0.95", p] >= 1 - 1e-9) rs[sh]++
		if (norm["static-smqos", "0.95", p] >= 1 - 1e-9) rst[sh]++
	}
	printf "smqos_qos_reach_95_short_blocks,%%,88.6,%.1f,the %d pairs whose two tasks both have thread blocks shorter than the run (workloads/blocks.csv)\n", pct(rs[1], ns[1]), ns[1] > rep
	printf "smqos_qos_reach_95_long_blocks,%%,88.6,%.1f,the %d pairs with a task whose blocks outlast the run: its SMs cannot change hands\n", pct(rs[0], ns[0]), ns[0] > rep
	printf "static_smqos_qos_reach_95,%%,58.3,%.1f,Static-SMQoS at 95 %% (§5.2)\n", R["static-smqos", "0.95"] > rep
	printf "static_batch_loss_vs_smqos_95,%%,32.5,%.1f,batch throughput Static-SMQoS below SMQoS at 95 %%; mean over pairs (§5.2)\n", np ? 100 * sum_s / np : 0 > rep
	worst = 0; for (qq in qs) if (W["smqos", qq] > worst) worst = W["smqos", qq]
	printf "smqos_worst_violation,%%,8,%.1f,paper: SMQoS violates the target by less than 8 %% at every QoS policy (Fig. 8; an upper bound)\n", worst > rep
	printf "spart_violations_under_8pct_95,%%,3,%.1f,share of violations of Spart smaller than 8 %% at 95 %% (Fig. 8)\n", S["spart", "0.95"] > rep
	printf "rollover_violations_under_8pct_95,%%,17.4,%.1f,share of violations of Rollover smaller than 8 %% at 95 %% (Fig. 8)\n", S["rollover", "0.95"] > rep
	printf "smqos_batch_vs_offline_95,%%,-7.07,%.2f,SMQoS batch throughput over that of Offline; mean over pairs at 95 %% (Fig. 12; the paper does not say which QoS policy)\n", dn ? 100 * sum_b / dn : 0 > rep
	if (npow) printf "smqos_power_vs_offline_95,%%,0.6,%.2f,SMQoS average power over that of Offline at 95 %% (Fig. 13)\n", 100 * sum_p / npow > rep
	else printf "smqos_power_vs_offline_95,%%,0.6,,no power model for this GPU\n" > rep
}' "$here/workloads/blocks.csv" "$here/workloads/pairs.csv" "$out/pairs.rows"

# Fig. 10: mean batch throughput per threshold over the batch tasks beside LBM
awk -F, '
{ t = $2; sub(/^threshold-/, "", t); s[t] += $6; n[t]++ }
END { for (t in s) printf "%s,%.4f\n", t, s[t] / n[t] }' "$out/fig10.rows" |
	sort -t, -k1,1 | sed '1i threshold,batch_ntp_mean' >"$out/fig10.csv"
awk -F, 'NR == 2 { lo = $2 } END { hi = $2
	printf "fig10_batch_ntp_at_0.01,fraction,,%.4f,mean batch throughput beside LBM at threshold 0.01 (Fig. 10: flat up to a value then falls)\n", lo
	printf "fig10_batch_ntp_at_0.10,fraction,,%.4f,the same at threshold 0.10\n", hi }' "$out/fig10.csv" >>"$out/reproduction.csv"

# Fig. 14: three tasks
awk -F, '
{ q = $3; n[q]++; if ($5 >= 1 - 1e-9) r[q]++; s[q] += $5; if ($5 >= 1 - 1e-9 && $5 < 1.02) close2[q]++ }
END { for (q in n) printf "%s,%d,%.1f,%.4f,%.1f\n", q, n[q], 100 * r[q] / n[q], s[q] / n[q], 100 * close2[q] / n[q] }' \
	"$out/fig14.rows" | sort | sed '1i qos,mixes,reach_pct,ls_norm_mean,within_2pct_pct' >"$out/fig14.csv"
awk -F, 'NR > 1 { printf "fig14_qos_reach_%s,%%,100,%s,three tasks: the paper says LS tasks meet their QoS under all targets (§5.5); %s mixes\n", $1, $3, $2 }' \
	"$out/fig14.csv" >>"$out/reproduction.csv"

# Fig. 9: per-epoch active SMs and opt_k of each of the four mixes
{
	echo "mix,epoch,active_sms,opt_k,ls_sms,batch_sms"
	for d in "$fig9"/runs/*; do
		awk -v mix="$(basename "$d")" '
		function val(line,   v) { v = line; sub(/^[^:]*:[ \t]*/, "", v); gsub(/[",\t ]/, "", v); return v }
		/"ls_sms":/ && ser { ls = val($0) }
		/"batch_sms":/ && ser { bs = val($0) }
		/"active_sms":/ && ser { ac = val($0) }
		/"opt_k":/ && ser { printf "%s,%d,%s,%s,%s,%s\n", mix, ++e, ac, val($0), ls, bs }
		/"epochs_series":/ { ser = 1 }' "$d/summary.json"
	done
} >"$out/fig9.csv"
# §6 on the H100 description: RH-SMQoS's QoS reach and batch NTP (Fig. 15-16)
sh "$here/rh_report.sh" sim "$rh"/runs/* >"$out/rh.csv"
awk -F, 'NR > 1 && $3 == "rh-smqos" { n++; r += $7; t += $6; if ($4 == 0.95) { n95++; r95 += $7 } }
END {
	printf "rh_smqos_qos_reach,%%,93.8,%.1f,RH-SMQoS on the H100 description over the 16 pairs x 4 QoS policies of §6 (Fig. 15); the GPU run: cuda/VALIDATION.md\n", 100 * r / n
	printf "rh_smqos_qos_reach_95,%%,100,%.1f,the same at 95 %% (Fig. 15)\n", 100 * r95 / n95
	printf "rh_smqos_batch_ntp,%%,41.2,%.1f,mean batch NTP (Fig. 16; the paper averages the co-locations where all three of its approaches met QoS, we all 64)\n", 100 * t / n
}' "$out/rh.csv" >>"$out/reproduction.csv"
# the same for §6's baselines, Volta-MPS and SlateQoS (Fig. 15-16), and the batch NTP of all
# three over the co-locations where all three met QoS, as Fig. 16 averages
awk -F, 'NR > 1 && ($3 == "rh-smqos" || $3 == "slateqos" || $3 == "volta-mps" || $3 == "slateqos-nogap") {
	p = $3; k = $2 SUBSEP $4; n[p]++; r[p] += $7; t[p] += $6; if ($4 == 0.95) { n95[p]++; r95[p] += $7 }
	met[k] += $7; ok[p, k] = $7; ntp[p, k] = $6; keys[k] = 1
}
END {
	split("slateqos volta-mps", bl, " ")
	reach["slateqos"] = 84.4; reach["volta-mps"] = 76.6; r95p["slateqos"] = 75; r95p["volta-mps"] = 68.8
	tp["rh-smqos"] = 41.2; tp["slateqos"] = 37.3; tp["volta-mps"] = 23.9
	name["rh-smqos"] = "RH-SMQoS"; name["slateqos"] = "SlateQoS"; name["volta-mps"] = "Volta-MPS"
	gpu["volta-mps"] = "; the H100 with real MPS: cuda/VALIDATION.md"; gpu["slateqos"] = "; the H100 with re-launched grids: cuda/VALIDATION.md"
	for (i = 1; i <= 2; i++) {
		p = bl[i]; m = p; gsub(/-/, "_", m)
		if (!n[p]) continue
		printf "%s_qos_reach,%%,%s,%.1f,%s on the H100 description over the 16 pairs x 4 QoS policies of §6 (Fig. 15)%s\n", m, reach[p], 100 * r[p] / n[p], name[p], gpu[p]
		printf "%s_qos_reach_95,%%,%s,%.1f,the same at 95 %% (Fig. 15)\n", m, r95p[p], 100 * r95[p] / n95[p]
		printf "%s_batch_ntp,%%,%s,%.1f,mean batch NTP over all 64 cases (Fig. 16 averages those where all three approaches met QoS: next rows)\n", m, tp[p], 100 * t[p] / n[p]
	}
	p = "slateqos-nogap"
	if (n[p]) {
		printf "slateqos_nogap_qos_reach,%%,,%.1f,SlateQoS with no host gap between grids (relaunch_us 0): what re-launching costs without the host (ours)\n", 100 * r[p] / n[p]
		printf "slateqos_nogap_batch_ntp,%%,,%.1f,the same: mean batch NTP over all 64 cases\n", 100 * t[p] / n[p]
	}
	all = 0
	for (k in keys) if (met[k] - ok["slateqos-nogap", k] == 3) { all++; for (p in tp) s3[p] += ntp[p, k] }
	split("rh-smqos slateqos volta-mps", ps, " ")
	for (i = 1; i <= 3; i++) {
		p = ps[i]; m = p; gsub(/-/, "_", m)
		if (all) printf "%s_batch_ntp_all_met,%%,%s,%.1f,mean batch NTP over the %d of 64 cases where RH-SMQoS and both baselines met QoS (Fig. 16)\n", m, tp[p], 100 * s3[p] / all, all
		else printf "%s_batch_ntp_all_met,%%,%s,,no case where all three met QoS (Fig. 16)\n", m, tp[p]
	}
}' "$out/rh.csv" >>"$out/reproduction.csv"
# Fig. 15-16 per approach, paper beside simulated: plots/smqos_rh.gp
{
	echo "approach,reach_paper,reach_sim,reach95_paper,reach95_sim,ntp_paper,ntp_sim"
	for a in rh_smqos:RH-SMQoS slateqos:SlateQoS volta_mps:Volta-MPS; do
		awk -F, -v m="${a%%:*}" -v name="${a#*:}" '
		$1 == m "_qos_reach" { r = $3 "," $4 } $1 == m "_qos_reach_95" { r95 = $3 "," $4 }
		$1 == m "_batch_ntp" { t = $3 "," $4 }
		END { if (r != "") print name "," r "," r95 "," t }' "$out/reproduction.csv"
	done
} >"$out/fig15_16.csv"
echo "wrote $out/reproduction.csv"
