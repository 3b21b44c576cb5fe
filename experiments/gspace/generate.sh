#!/bin/sh
# Writes the G-Space reproduction's experiment and sweep files (experiments/gspace/*.json) and
# its queues (experiments/gspace/workloads/*.json) from the TITAN V profiles under
# traces/gspace/titanv/ and traces/gspace/measured.tsv.  The files are tracked, so that every
# experiment runs on a fresh clone; run it again after a profile changes.
# Usage: sh experiments/gspace/generate.sh  (from the project root)
#
# The workload (G-Space Table 2, §3, §5): BE benchmarks CFD, MD, MM, NN; LC benchmarks BP,
# LBM, HOTSPOT, PF, SC, SPMV; LC applications TC, CN, CC.  Every experiment runs the BE app
# (the queue of its kernel, repeated) as app 0 and the LC app as app 1 under the gspace policy
# on the TITAN V (models/titanv.json).  QoS target 2 x the LC kernel's solo time (§4.5's
# example; the paper states no other); the LC kernel arrives 100 us after the last one ended
# (the policy's default, an assumption).
set -eu
D=experiments/gspace
M=traces/gspace/measured.tsv
BE="cfd md mm nn"
LCB="bp lbm hotspot pf sc spmv"
LCA="tc cn cc"
BENCH="$BE $LCB"
TABLE=traces/gspace/microbench.json
mkdir -p $D/workloads

for b in $BENCH $LCA; do
	bin/combosim trace gen be --profile traces/gspace/titanv/$b.json >$D/workloads/$b.json.tmp
	mv $D/workloads/$b.json.tmp $D/workloads/$b.json
done
# The BE app as G-Space runs it (§4.3): one persistent kernel whose task queue holds the blocks
# of R consecutive launches of the benchmark's kernel (R: enough for 1 s alone), so that the BE
# kernel never ends during an LC kernel (a BE kernel ending would leave the LC kernel the whole
# GPU until the next one lands).  Fig. 2 uses the original launches (workloads/BE.json).
for b in $BE; do
	awk '/"grid":/ {
		match($0, /"grid": [0-9]+/); g = substr($0, RSTART + 8, RLENGTH - 8) + 0
		match($0, /"solo_us": [0-9.]+/); t = substr($0, RSTART + 11, RLENGTH - 11) + 0
		r = int(1e6 / t) + 1
		sub(/"grid": [0-9]+/, "\"grid\": " g * r); sub(/"solo_us": [0-9.]+/, sprintf("\"solo_us\": %.3f", t * r))
		sub(/"name": "[^"]*"/, "&, \"note\": \"" r " launches of the original kernel in one persistent task queue (experiments/gspace/generate.sh)\"")
	}
	/"name": "/ && !/"grid":/ { sub(/"name": "[^"]*"/, "\"name\": \"'$b'-persistent\"") }
	{ print }' $D/workloads/$b.json >$D/workloads/$b-persistent.json
done
# measured.tsv column of a benchmark (slug = lower-case bench name)
col() { awk -F'\t' -v b="$1" -v c="$2" 'tolower($1) == b { print $c }' $M; }

# Placeholders for Fig. 3-4: the benchmark's block shape, one block per slot that never ends
# and uses (almost) nothing, so that a yield of k blocks on n SMs leaves the benchmark exactly
# k blocks on n SMs and nothing to contend with (the SM-centric transformation's idle blocks).
for b in $BENCH; do
	awk -F'\t' -v b=$b 'tolower($1) == b {
		printf "{\n  \"format\": \"combosim be-queue\",\n  \"version\": 1,\n  \"name\": \"hold-%s\",\n", b
		printf "  \"description\": \"placeholder holding every %s block slot of the TITAN V (80 x %d) for Fig. 3-4: its shape, demand 1e-6, no DRAM, one block a slot lasting 1000 s\",\n", $1, $16
		printf "  \"generator\": \"experiments/gspace/generate.sh\",\n  \"kernels\": [\n"
		printf "    { \"name\": \"hold_%s\", \"class\": \"CD\", \"grid\": %d, \"threads\": %d, \"regs\": %d, \"smem\": %d, \"solo_us\": 1000000000, \"demand\": { \"cuda\": 0.000001 }, \"dram\": 0 }\n  ]\n}\n", b, 80 * $16, $5, $6, $7
	}' $M >$D/workloads/hold-$b.json
done

app() { printf '{"name": "%s", "queue": "workloads/%s.json"}' "$1" "$1"; }
pbe() { printf '{"name": "%s", "queue": "workloads/%s-persistent.json"}' "$1" "$1"; }
hold() { printf '{"name": "hold-%s", "queue": "workloads/hold-%s.json"}' "$1" "$1"; }
gs() { # label search [extra]
	printf '{"name": "gspace", "label": "%s", "be": 0, "lc": 1, "deadline_ratio": 2, "search": "%s"%s}' "$1" "$2" "${3:-}"
}
header() { # name description duration_ms
	printf '{\n  "name": "%s",\n  "description": "%s",\n' "$1" "$2"
	printf '  "inputs": "G-Space Table 2 (benchmarks: traces/gspace/, make_profiles.py), Table 1 (GPU: models/titanv.json), §4.3-4.5 (policies/gspace.c)",\n'
	printf '  "gpu": "titanv",\n  "seed": 1,\n  "duration_ms": %s,\n  "kernels": [],\n' "$3"
}

# fig2.json: the LC kernel launched right after a BE kernel, nothing yielded (k = 0): it waits
# for the BE kernel (§3.1).  fig2_sweep.json: every BE x LC pair of Table 2 (4 x 9 = 36; the
# paper says 35 without listing them).  The first LC kernel's latency over its solo time.
{
	header gspace-fig2 "G-Space Fig. 2: QoS violation without preemption: the LC kernel launched right after the BE kernel (lc_gap_us 0), the BE kernel yielding nothing (k = 0); fig2_sweep.json runs all 36 BE x LC pairs of Table 2 (this file: CFD + BP)." 20
	printf '  "apps": [%s, %s],\n  "policies": [%s],\n  "baseline": null\n}\n' "$(app cfd)" "$(app bp)" \
		"$(gs no-yield fixed ', "n": 80, "k": 0, "lc_gap_us": 0')"
} >$D/fig2.json
{
	printf '{\n "description": "G-Space Fig. 2: every BE x LC pair of Table 2 (4 BE x 9 LC).",\n'
	printf ' "experiment": "fig2.json",\n "grid": {\n  "apps": [\n'
	sep=""
	for be in $BE; do for lc in $LCB $LCA; do
		printf '%s   [%s, %s]' "$sep" "$(app $be)" "$(app $lc)"; sep=",
"
	done; done
	printf '\n  ]\n }\n}\n'
} >$D/fig2_sweep.json
{
	echo "point,be,lc"; n=0
	for be in $BE; do for lc in $LCB $LCA; do printf '%06d,%s,%s\n' $n $be $lc; n=$((n + 1)); done; done
} >$D/workloads/fig2.csv

# fig34.json: each benchmark alone on n SMs x k blocks (§3.2): n = 8, 16, .., 80 at its full
# occupancy K (Fig. 3), k = 1 .. K on all 80 SMs (Fig. 4).  fig34_sweep.json: the ten
# benchmarks (zip: each its placeholder, its configurations, a duration covering its slowest).
cfgs34() { # K
	sep=""
	for n in 8 16 24 32 40 48 56 64 72 80; do
		printf '%s%s' "$sep" "$(gs sm-$n fixed ", \"n\": $n, \"k\": $1, \"lc_gap_us\": 0")"; sep=", "
	done
	k=1
	while [ $k -le $1 ]; do
		printf ', %s' "$(gs blk-$k fixed ", \"n\": 80, \"k\": $k, \"lc_gap_us\": 0")"; k=$((k + 1))
	done
}
dur34() { awk -F'\t' -v b=$1 'tolower($1) == b { printf "%d", ($15 * ($16 + 12) * 1.5) / 1000 + 2 }' $M; }
{
	header gspace-fig34 "G-Space Fig. 3-4: solo scalability: the benchmark alone on n SMs with k blocks each, its other slots held by an idle placeholder; fig34_sweep.json runs the ten benchmarks (this file: CFD)." "$(dur34 cfd)"
	printf '  "apps": [%s, %s],\n  "policies": [%s],\n  "baseline": null\n}\n' "$(hold cfd)" "$(app cfd)" "$(cfgs34 $(col cfd 16))"
} >$D/fig34.json
{
	printf '{\n "description": "G-Space Fig. 3-4: the ten Table 2 benchmarks alone, by SMs and by blocks per SM.",\n'
	printf ' "experiment": "fig34.json",\n "combine": "zip",\n "grid": {\n  "apps": [\n'
	sep=""
	for b in $BENCH; do printf '%s   [%s, %s]' "$sep" "$(hold $b)" "$(app $b)"; sep=",
"; done
	printf '\n  ],\n  "policies": [\n'
	sep=""
	for b in $BENCH; do printf '%s   [%s]' "$sep" "$(cfgs34 $(col $b 16))"; sep=",
"; done
	printf '\n  ],\n  "duration_ms": ['
	sep=""
	for b in $BENCH; do printf '%s%s' "$sep" "$(dur34 $b)"; sep=", "; done
	printf ']\n }\n}\n'
} >$D/fig34_sweep.json
{ echo "point,bench"; n=0; for b in $BENCH; do printf '%06d,%s\n' $n $b; n=$((n + 1)); done; } >$D/workloads/fig34.csv

# fig56.json: 280 BE blocks yielded to the LC kernel in every (n, k) with n x k = 280,
# k <= the BE kernel's K (§3.3); fig56_sweep.json: every pair whose BE kernel has such a
# configuration (CFD: K = 6, MD, NN: K = 8; MM holds 2 blocks of 1024 threads a SM, at most
# 160 blocks, and is left out).
cfgs56() { # K
	sep=""
	for k in 8 7 6 5 4; do
		[ $k -le $1 ] || continue
		[ $((280 % k)) -eq 0 ] || continue
		n=$((280 / k)); [ $n -le 80 ] || continue
		printf '%s%s' "$sep" "$(gs "$n-$k" fixed ", \"n\": $n, \"k\": $k")"; sep=", "
	done
}
BE56="cfd md nn"
{
	header gspace-fig56 "G-Space Fig. 5-6: LC speedup and BE throughput with 280 BE blocks yielded to the LC kernel, in each (n SMs, k blocks) with n x k = 280; fig56_sweep.json runs every pair of a BE kernel with such configurations (CFD, MD, NN) and an LC benchmark (this file: NN + PF)." 40
	printf '  "apps": [%s, %s],\n  "policies": [%s],\n  "baseline": null\n}\n' "$(pbe nn)" "$(app pf)" "$(cfgs56 8)"
} >$D/fig56.json
{
	printf '{\n "description": "G-Space Fig. 5-6: 3 BE x 6 LC benchmarks, every 280-block configuration.",\n'
	printf ' "experiment": "fig56.json",\n "combine": "zip",\n "grid": {\n  "apps": [\n'
	sep=""
	for be in $BE56; do for lc in $LCB; do printf '%s   [%s, %s]' "$sep" "$(pbe $be)" "$(app $lc)"; sep=",
"; done; done
	printf '\n  ],\n  "policies": [\n'
	sep=""
	for be in $BE56; do for lc in $LCB; do printf '%s   [%s]' "$sep" "$(cfgs56 $(col $be 16))"; sep=",
"; done; done
	printf '\n  ]\n }\n}\n'
} >$D/fig56_sweep.json
{ echo "point,be,lc"; n=0; for be in $BE56; do for lc in $LCB; do printf '%06d,%s,%s\n' $n $be $lc; n=$((n + 1)); done; done; } >$D/workloads/fig56.csv

# search.json: every configuration search of §5.2 plus brute force, with the micro-benchmark
# table (Fig. 9: NN's and LR's prediction errors over brute force's trials, every
# configuration; Fig. 10: each method's final configuration, search time and violations);
# search_sweep.json: the BE x LC benchmark pairs (the paper: 25 co-runs, not listed) but those\n# fits() leaves out.
# Whether one block of LC fits in the room one yielded BE block leaves (threads and registers,
# cc 7.0 allocation: 256 registers a warp unit): if not, a configuration with k = 1 never starts
# the LC kernel (it waits for the persistent BE kernel to end) and the search cannot proceed.
# Such pairs (CFD-SC, MD-HOTSPOT, MD-SC, NN-SC) are left out of search_sweep.json.
fits() { # be lc
	awk -F'\t' -v be=$1 -v lc=$2 '
	function rb(t, r) { return int((t + 31) / 32) * int((r * 32 + 255) / 256) * 256 }
	tolower($1) == be { bt = $5; br = rb($5, $6) } tolower($1) == lc { lt = $5; lr = rb($5, $6) }
	END { exit !(lt <= bt && lr <= br) }' $M
}
methods() {
	sep=""
	for m in brute nn ns gns nn_ns nn_gns nn_srs; do
		printf '%s%s' "$sep" "$(gs $m $m ", \"table\": \"$TABLE\"")"; sep=", "
	done
}
dursearch() { # be lc: every configuration at 40 x the LC solo time plus the gap, twice over
	k=$(col $1 16); t=$(col $2 15)
	awk -v k=$k -v t=$t 'BEGIN { printf "%d", 2 * 10 * k * (0.1 + 40 * t / 1000) + 5 }'
}
{
	header gspace-search "G-Space Fig. 9-10: brute force (every configuration, with NN's and LR's predictions for each) and the searches NN, NS, GNS, NN_NS, NN_GNS, NN_SRS over the micro-benchmark table; search_sweep.json runs the 20 BE x LC benchmark pairs whose LC block fits in one yielded BE block (this file: MM + LBM)." "$(dursearch mm lbm)"
	printf '  "apps": [%s, %s],\n  "policies": [%s],\n  "baseline": null\n}\n' "$(pbe mm)" "$(app lbm)" "$(methods)"
} >$D/search.json
{
	printf '{\n "description": "G-Space Fig. 9-10: the 20 of the 4 BE x 6 LC benchmark pairs whose LC block fits in one yielded BE block, under every search.",\n'
	printf ' "experiment": "search.json",\n "combine": "zip",\n "grid": {\n  "apps": [\n'
	sep=""
	for be in $BE; do for lc in $LCB; do fits $be $lc || continue
		printf '%s   [%s, %s]' "$sep" "$(pbe $be)" "$(app $lc)"; sep=",
"; done; done
	printf '\n  ],\n  "duration_ms": ['
	sep=""
	for be in $BE; do for lc in $LCB; do fits $be $lc || continue; printf '%s%s' "$sep" "$(dursearch $be $lc)"; sep=", "; done; done
	printf ']\n }\n}\n'
} >$D/search_sweep.json
{ echo "point,be,lc"; n=0; for be in $BE; do for lc in $LCB; do fits $be $lc || continue; printf '%06d,%s,%s\n' $n $be $lc; n=$((n + 1)); done; done; } >$D/workloads/search.csv
echo "wrote $D/{fig2,fig34,fig56,search}{,_sweep}.json and $D/workloads/"
