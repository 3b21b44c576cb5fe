#!/bin/sh
# Writes the SMQoS reproduction's experiment and sweep files (experiments/smqos/*.json) and its
# BE queues (experiments/smqos/workloads/*.json, from the profiles under traces/smqos/$PROFILES/).
# The files it writes are tracked, so that every experiment runs on a fresh clone; run it again
# after a profile changes.  Usage: sh experiments/smqos/generate.sh  (from the project root)
#
# The workload (SMQoS §5.1): the 12 benchmarks of its Table 3; every ordered pair of two
# different ones as LS task + batch task (132 mixes: the paper does not list its pairs); 2 M
# cycles at the GPU's 1.4 GHz per mix, tasks re-executed until then; SMs split evenly at the
# start; QoS policy 80-95 % in steps of 5.
set -eu
GPU=gpgpusim-sm24
# the profile set (traces/smqos/README.md): gpgpusim-sm24-gsinputs (the inputs GPGPU-Sim's
# benchmark distribution runs, the simulator the paper used: the default) or gpgpusim-sm24
# (the benchmarks' standard inputs); PROFILES=... sh experiments/smqos/generate.sh
PROFILES=${PROFILES:-gpgpusim-sm24-gsinputs}
CI="bino merge cp tpacf hs pf"
MI="atax bicg gesummv lib lbm mri-g"
ALL="$CI $MI"
D=experiments/smqos
RUN_MS=1.428571          # 2 M cycles at 1400 MHz (Table 2)
SMS=24
mkdir -p $D/workloads

for b in $ALL; do
	bin/combosim trace gen be --profile traces/smqos/$PROFILES/$b.json >$D/workloads/$b.json.tmp
	mv $D/workloads/$b.json.tmp $D/workloads/$b.json
done

# Each benchmark's longest thread block on this GPU (solo time / waves of sat_blocks per SM):
# an SM changes hands only once its blocks finished (§4.1), so a task whose blocks outlast the
# run keeps the SMs it started on whatever the policy decides.
{
	echo "benchmark,block_us,outlasts_run"
	for b in $ALL; do
		awk -F'[:,]' -v b=$b -v sms=$SMS -v run_ms=$RUN_MS '
		/"name":/ && /"grid":/ {
			for (i = 1; i < NF; i++) {
				k = $i; gsub(/[ "{]/, "", k)
				if (k == "grid") g = $(i + 1) + 0
				if (k == "solo_us") t = $(i + 1) + 0
				if (k == "sat_blocks") s = $(i + 1) + 0
			}
			slots = sms * (s > 0 ? s : 1); if (slots > g) slots = g
			w = int((g + slots - 1) / slots); bt = t / w; if (bt > m) m = bt
		}
		END { printf "%s,%.1f,%s\n", b, m, (m > 1000 * run_ms ? "yes" : "no") }' $D/workloads/$b.json
	done
} >$D/workloads/blocks.csv

# An H100 experiment's head (name, description, inputs, assumptions; 100 ms), and a policy per
# QoS policy from a printf format whose two %s are the QoS policy (label, value).
h100_header() {
	printf '{\n  "name": "%s",\n  "description": "%s",\n' "$1" "$2"
	printf '  "inputs": "%s",\n  "assumptions": "%s",\n' "$3" "$4"
	printf '  "gpu": "h100",\n  "seed": 1,\n  "duration_ms": 100,\n  "kernels": [],\n'
}
qos_policies() {
	sep=""
	for q in 0.80 0.85 0.90 0.95; do
		printf "%s\n    $1" "$sep" $q $q
		sep=","
	done
}

app() { printf '{"name": "%s", "queue": "workloads/%s.json"}' "$1" "$1"; }

# policies at every QoS policy, then the Offline candidates: every static split (§5.4)
policies() {
	sep=""
	for q in 0.80 0.85 0.90 0.95; do
		for p in smqos static-smqos spart rollover; do
			printf '%s\n    {"name": "%s", "label": "%s-%s", "qos": %s}' "$sep" $p $p $q $q
			sep=","
		done
	done
	k=1
	while [ $k -lt $SMS ]; do
		printf ',\n    {"name": "static-smqos", "label": "split-%02d", "qos": 0.95, "ls_sms": %d}' $k $k
		k=$((k + 1))
	done
}

header() { # name description
	printf '{\n  "name": "%s",\n  "description": "%s",\n' "$1" "$2"
	printf '  "inputs": "SMQoS Table 2 (GPU: models/%s.json), Table 3 (benchmarks: traces/smqos/README.md), §5.1 (2 M cycles, 10 K-cycle epochs, even initial split, QoS policy 80-95 %%), Alg. 1-3 (policies/smqos.c)",\n' $GPU
	printf '  "gpu": "%s",\n  "seed": 1,\n  "duration_ms": %s,\n  "kernels": [],\n' $GPU $RUN_MS
}

# pairs.json: one mix (BINO as LS, LBM as batch) under every policy; pairs_sweep.json: all 132
{
	header smqos-pairs "SMQoS Fig. 7, 8, 11-13 and Static-SMQoS vs SMQoS: one LS task + one batch task under SMQoS, Static-SMQoS, Spart and Rollover at QoS policy 80-95 %, and every static split (the Offline candidates). This file runs one mix (BINO + LBM); pairs_sweep.json runs all 132."
	printf '  "apps": [%s, %s],\n  "policies": [' "$(app bino)" "$(app lbm)"
	policies
	printf '\n  ],\n  "baseline": null\n}\n'
} >$D/pairs.json

{
	printf '{\n "description": "SMQoS §5.2-5.4: every ordered pair of two different Table 3 benchmarks (132 mixes) as LS + batch task, each under every policy of pairs.json.",\n'
	printf ' "experiment": "pairs.json",\n "grid": {\n  "apps": [\n'
	sep=""
	for ls in $ALL; do
		for bt in $ALL; do
			[ $ls = $bt ] && continue
			printf '%s   [%s, %s]' "$sep" "$(app $ls)" "$(app $bt)"
			sep=",
"
		done
	done
	printf '\n  ]\n }\n}\n'
} >$D/pairs_sweep.json
# which point of pairs_sweep.json is which pair (the reports join on it)
{
	echo "point,ls,batch"
	n=0
	for ls in $ALL; do
		for bt in $ALL; do
			[ $ls = $bt ] && continue
			printf '%06d,%s,%s\n' $n $ls $bt
			n=$((n + 1))
		done
	done
} >$D/workloads/pairs.csv

# fig9.json: SM_active and opt_k per epoch at 95 %; fig9_sweep.json: the paper's four mixes
{
	header smqos-fig9 "SMQoS Fig. 9: the active SMs and opt_k of the batch task per epoch at 95 % QoS policy, for BINO-CP, BINO-LBM, BICG-CP and BICG-LBM (fig9_sweep.json; this file runs BINO-LBM)."
	printf '  "apps": [%s, %s],\n' "$(app bino)" "$(app lbm)"
	printf '  "policies": [{"name": "smqos", "qos": 0.95, "series": true}],\n  "baseline": null\n}\n'
} >$D/fig9.json
{
	printf '{\n "description": "SMQoS Fig. 9: CI-CI (BINO-CP), CI-MI (BINO-LBM), MI-CI (BICG-CP), MI-MI (BICG-LBM).",\n'
	printf ' "experiment": "fig9.json",\n "grid": {\n  "apps": [\n'
	printf '   [%s, %s],\n   [%s, %s],\n   [%s, %s],\n   [%s, %s]\n  ]\n }\n}\n' \
		"$(app bino)" "$(app cp)" "$(app bino)" "$(app lbm)" "$(app bicg)" "$(app cp)" "$(app bicg)" "$(app lbm)"
} >$D/fig9_sweep.json

# fig10.json: threshold 0.01-0.1 with LBM as the LS task at 95 %, each other benchmark as batch
{
	header smqos-fig10 "SMQoS Fig. 10: batch throughput (normalised to isolated) against Alg. 2's threshold, 0.01 to 0.1, LS task LBM at 95 % QoS policy; fig10_sweep.json runs every other benchmark as the batch task (this file: BINO)."
	printf '  "apps": [%s, %s],\n  "policies": [' "$(app lbm)" "$(app bino)"
	sep=""
	for t in 0.01 0.02 0.03 0.04 0.05 0.06 0.07 0.08 0.09 0.10; do
		printf '%s\n    {"name": "smqos", "label": "threshold-%s", "qos": 0.95, "threshold": %s}' "$sep" $t $t
		sep=","
	done
	printf '\n  ],\n  "baseline": null\n}\n'
} >$D/fig10.json
{
	printf '{\n "description": "SMQoS Fig. 10: every benchmark but LBM as the batch task beside LBM.",\n'
	printf ' "experiment": "fig10.json",\n "grid": {\n  "apps": [\n'
	sep=""
	for bt in $ALL; do
		[ $bt = lbm ] && continue
		printf '%s   [%s, %s]' "$sep" "$(app lbm)" "$(app $bt)"
		sep=",
"
	done
	printf '\n  ]\n }\n}\n'
} >$D/fig10_sweep.json

# fig14.json: three tasks, one LS + two batch (§5.5): 3 CI and 3 MI benchmarks
T3="bino cp hs atax lbm lib"
{
	header smqos-fig14 "SMQoS Fig. 14: one LS task + two batch tasks at QoS policy 80-95 %; fig14_sweep.json runs each of BINO, CP, HS, ATAX, LBM, LIB as the LS task with every pair of the other five as batch tasks (6 x 10 = 60 mixes; this file: BINO + CP + LBM)."
	printf '  "apps": [%s, %s, %s],\n  "policies": [' "$(app bino)" "$(app cp)" "$(app lbm)"
	qos_policies '{"name": "smqos", "label": "smqos-%s", "qos": %s}'
	printf '\n  ],\n  "baseline": null\n}\n'
} >$D/fig14.json
{
	printf '{\n "description": "SMQoS Fig. 14 / §5.5: 6 LS tasks x C(5,2) batch pairs = 60 three-task mixes.",\n'
	printf ' "experiment": "fig14.json",\n "grid": {\n  "apps": [\n'
	sep=""
	for ls in $T3; do
		rest=$(echo $T3 | tr ' ' '\n' | grep -vx $ls | tr '\n' ' ')
		for a in $rest; do
			for b in $rest; do
				[ "$a" \< "$b" ] || continue
				printf '%s   [%s, %s, %s]' "$sep" "$(app $ls)" "$(app $a)" "$(app $b)"
				sep=",
"
			done
		done
	done
	printf '\n  ]\n }\n}\n'
} >$D/fig14_sweep.json
echo "wrote $D/{pairs,fig9,fig10,fig14}{,_sweep}.json and $D/workloads/"


# h100_rh.json: RH-SMQoS as §6 evaluates it (LS SM share = QoS policy, no adjustment, task
# duration as the metric) beside the apps sharing every SM, on the H100 description with the
# H100 profiles; h100_rh_sweep.json: the paper's 16 pairs (§6.1: HS, MERGE, LIB, LBM as LS
# tasks; PF, BINO, GESUMMV, ATAX as batch tasks).  cuda/scripts/device_smqos.sh replays the
# same pairs on the GPU.  After RH-SMQoS and the shared run come the paper's two GPU-side
# baselines at each QoS policy (Fig. 15-16), always last (device_smqos.sh leaves them out on the
# GPU, whose backend cannot run them): Volta-MPS (policies/volta_mps.c: each app an MPS client
# whose SM count is limited, LS to the QoS policy's share) and SlateQoS (policies/slateqos.c:
# each app's kernels re-launched on its SM range, LS on the QoS policy's share), the latter also
# with no host gap between grids (slateqos-nogap: what the re-launching costs without the host).
# Each app keeps two kernels in flight on one stream (a benchmark's host
# enqueues its kernels asynchronously, as cuda/experiments/h100_static.json's apps do).
RH_LS="hs merge lib lbm"
RH_BATCH="pf bino gesummv atax"
mkdir -p $D/workloads-h100
for b in $RH_LS $RH_BATCH; do
	bin/combosim trace gen be --profile traces/smqos/h100/$b.json >$D/workloads-h100/$b.json.tmp
	mv $D/workloads-h100/$b.json.tmp $D/workloads-h100/$b.json
done
happ() { printf '{"name": "%s", "queue": "workloads-h100/%s.json", "depth": 2, "streams": 1}' "$1" "$1"; }
{
	h100_header smqos-h100-rh \
		"SMQoS Fig. 15-16 setting on the H100: one LS task + one batch task under RH-SMQoS (static-smqos: the LS task on the QoS policy's share of the SMs, SM-bound persistent workers) at QoS policy 80-95 %, the two sharing every SM (exclusive run=be, labelled shared), and the paper's baselines Volta-MPS (each app limited to a share of the SMs the hardware picks, the LS app's = the QoS policy) and SlateQoS (each app's kernels re-launched on its SM range until all blocks ran). NPM and NTP come from kernels.csv (experiments/smqos/rh_report.sh). This file runs HS + PF; h100_rh_sweep.json the 16 pairs; cuda/scripts/device_smqos.sh all but Volta-MPS on the GPU (its backend cannot limit a kernel to a count of SMs; cuda/scripts/device_mps.sh runs it under real MPS)." \
		"SMQoS §6.1 (pairs, QoS policies, the LS SM share = QoS policy); profiles measured on the H100 (traces/smqos/h100, cuda/runs/h100-smqos-kernels)" \
		"100 ms per policy; two kernels in flight per app on one stream; the epoch (2 M cycles = 1 ms) only integrates the batch work for summary.json; Volta-MPS: the batch app's thread percentage the rest (1 - QoS policy: the paper gives no batch limit), each percentage's SMs as measured on the H100 (cuda/runs/h100-volta-mps); SlateQoS: a 16 us host gap between grids (policies/slateqos.c), slateqos-nogap none"
	printf '  "apps": [%s, %s],\n  "policies": [' "$(happ hs)" "$(happ pf)"
	qos_policies '{"name": "static-smqos", "label": "rh-smqos-%s", "qos": %s, "metric": "duration", "epoch_cycles": 2000000}'
	printf ',\n    {"name": "exclusive", "label": "shared", "run": "be"},'
	# Volta-MPS's SM limits: what the H100 gave MPS clients of each active thread percentage
	# (cuda/runs/h100-volta-mps/sms.txt, read from the device: 80 % -> 104 SMs, 20 % -> 26, ...)
	sep=""
	for m in 0.80:104:26 0.85:112:18 0.90:118:12 0.95:124:8; do
		q=${m%%:*}; r=${m#*:}
		printf '%s\n    {"name": "volta-mps", "label": "volta-mps-%s", "qos": %s, "ls_sm_limit": %s, "batch_sm_limit": %s}' \
			"$sep" $q $q ${r%%:*} ${r#*:}
		sep=","
	done
	printf ','
	qos_policies '{"name": "slateqos", "label": "slateqos-%s", "qos": %s}'
	printf ','
	qos_policies '{"name": "slateqos", "label": "slateqos-nogap-%s", "qos": %s, "relaunch_us": 0}'
	printf '\n  ],\n  "baseline": null\n}\n'
} >$D/h100_rh.json
{
	printf '{\n "description": "SMQoS §6: the 16 LS + batch pairs of its real-hardware evaluation under h100_rh.json'"'"'s policies.",\n'
	printf ' "experiment": "h100_rh.json",\n "grid": {\n  "apps": {\n   "values": [\n'
	sep=""
	for ls in $RH_LS; do
		for bt in $RH_BATCH; do
			printf '%s    [%s, %s]' "$sep" "$(happ $ls)" "$(happ $bt)"
			sep=",
"
		done
	done
	printf '\n   ],\n   "labels": ['
	sep=""
	for ls in $RH_LS; do
		for bt in $RH_BATCH; do
			printf '%s"%s+%s"' "$sep" $ls $bt
			sep=", "
		done
	done
	printf ']\n  }\n }\n}\n'
} >$D/h100_rh_sweep.json
echo "wrote $D/h100_rh.json, $D/h100_rh_sweep.json and $D/workloads-h100/"

# h100_dyn.json: SMQoS itself (Alg. 1-3, SMs moved between running kernels) on the same 16 pairs
# and the H100 description, with the duration metric and without gating (the GPU backend cannot
# gate SMs); epochs of 200 K cycles (101 us): on the GPU a move takes 20-90 us to take effect
# (cuda/runs/h100-reshape), so 10 K-cycle epochs (5 us) would judge each move before it lands.
# Apps one kernel at a time (a move resizes the app's kernel in flight).
dapp() { printf '{"name": "%s", "queue": "workloads-h100/%s.json"}' "$1" "$1"; }
{
	h100_header smqos-h100-dyn \
		"SMQoS (dynamic, Alg. 1-3) on the H100 description: one LS task + one batch task at QoS policy 80-95 %, duration metric, no gating, 200 K-cycle epochs; h100_dyn_sweep.json runs the 16 pairs of SMQoS §6; cuda/scripts/device_smqos.sh (EXP=h100_dyn.json) the same on the GPU." \
		"SMQoS Alg. 1-3, §6.1 pairs; profiles measured on the H100 (traces/smqos/h100)" \
		"100 ms per policy; 200 K-cycle epochs instead of §5.1's 10 K (the GPU's move latency); one kernel in flight per app"
	printf '  "apps": [%s, %s],\n  "policies": [' "$(dapp hs)" "$(dapp pf)"
	qos_policies '{"name": "smqos", "label": "smqos-%s", "qos": %s, "metric": "duration", "epoch_cycles": 200000, "gate": false}'
	printf '\n  ],\n  "baseline": null\n}\n'
} >$D/h100_dyn.json
sed -e 's/"experiment": "h100_rh.json"/"experiment": "h100_dyn.json"/' \
    -e 's/under h100_rh.json/under h100_dyn.json/' \
    -e 's/, "depth": 2, "streams": 1}/}/g' $D/h100_rh_sweep.json >$D/h100_dyn_sweep.json
echo "wrote $D/h100_dyn.json, $D/h100_dyn_sweep.json"

# ---- Fig. 20 (§6.6): RH-SMQoS against MIG on the A100 ----------------------------------------
# a100_mig.json: the §6 pairs on the A100 description (models/a100.json, with its MIG profiles)
# at the two splits §6.6 evaluates, LS:batch 2:1 ("67 % QoS policy") and 1:1 ("50 %"): RH-SMQoS
# (static-smqos, the LS task on 72 or 54 of the 108 SMs, sharing the chip's DRAM) and MIG
# (policies/mig.c: 4g.40gb + 2g.20gb, 3g.40gb + 3g.40gb, each app alone in its instance with its
# memory slices' DRAM bandwidth).  Profiles carried from the H100 to the A100
# (traces/smqos/a100, make_profiles.py); apps as in h100_rh.json.  a100_mig_sweep.json: the 16 pairs.
a100_fig20() {
	mkdir -p $D/workloads-a100
	for b in $RH_LS $RH_BATCH; do
		bin/combosim trace gen be --profile traces/smqos/a100/$b.json >$D/workloads-a100/$b.json.tmp
		mv $D/workloads-a100/$b.json.tmp $D/workloads-a100/$b.json
	done
	aapp() { printf '{"name": "%s", "queue": "workloads-a100/%s.json", "depth": 2, "streams": 1}' "$1" "$1"; }
	{
		printf '{\n  "name": "smqos-a100-mig",\n'
		printf '  "description": "SMQoS Fig. 20-21 (§6.6) on the A100: one LS task + one batch task under RH-SMQoS (static-smqos: the LS task on 2/3 or 1/2 of the 108 SMs, the chip'"'"'s DRAM shared) and under MIG (4g.40gb + 2g.20gb, 3g.40gb + 3g.40gb: each app alone in its GPU instance, with its SMs and its memory slices'"'"' DRAM bandwidth). NPM and NTP from kernels.csv (experiments/smqos/rh_report.sh, experiments/smqos/mig_report.sh). This file runs HS + PF; a100_mig_sweep.json the 16 pairs of §6.",\n'
		printf '  "inputs": "SMQoS §6.1 (pairs), §6.6 (resource ratio LS:batch 2 and 1, labelled 67 %% and 50 %% QoS policy); MIG profiles and placements: models/a100.json (NVIDIA MIG user guide); profiles carried from the H100 (traces/smqos/a100)",\n'
		printf '  "assumptions": "100 ms per policy; two kernels in flight per app on one stream; A100 profiles derived from H100 measurements by the roofline transform of traces/smqos/README.md (no A100 was measured); each MIG instance one compute instance",\n'
		printf '  "gpu": "a100",\n  "seed": 1,\n  "duration_ms": 100,\n  "kernels": [],\n'
		printf '  "apps": [%s, %s],\n  "policies": [\n' "$(aapp hs)" "$(aapp pf)"
		printf '    {"name": "static-smqos", "label": "rh-smqos-0.67", "qos": 0.67, "metric": "duration", "epoch_cycles": 2000000},\n'
		printf '    {"name": "static-smqos", "label": "rh-smqos-0.50", "qos": 0.50, "metric": "duration", "epoch_cycles": 2000000},\n'
		printf '    {"name": "mig", "label": "mig-0.67", "instances": ["4g.40gb", "2g.20gb"]},\n'
		printf '    {"name": "mig", "label": "mig-0.50", "instances": ["3g.40gb", "3g.40gb"]}\n'
		printf '  ],\n  "baseline": null\n}\n'
	} >$D/a100_mig.json
	sed -e 's/"experiment": "h100_rh.json"/"experiment": "a100_mig.json"/' \
	    -e 's/under h100_rh.json/under a100_mig.json (A100, Fig. 20)/' \
	    -e 's/workloads-h100/workloads-a100/g' $D/h100_rh_sweep.json >$D/a100_mig_sweep.json
	echo "wrote $D/a100_mig.json, $D/a100_mig_sweep.json and $D/workloads-a100/"
}
a100_fig20
