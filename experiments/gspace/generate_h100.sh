#!/bin/sh
# Writes the G-Space experiments run on the H100 (experiments/gspace/h100_search.json, its sweep
# h100_search_sweep.json and their queues experiments/gspace/workloads-h100/) from the
# H100-measured profiles under traces/gspace/h100/.  The same files run in the simulator
# (`combosim sweep experiments/gspace/h100_search_sweep.json`) and on the GPU
# (`combosim-cuda run experiments/gspace/h100_search.json --set apps=...`,
# cuda/scripts/device_gspace.sh); cuda/runs/h100-gspace-search holds both sides.
# Usage: sh experiments/gspace/generate_h100.sh  (from the project root)
#
# Pairs (BE + LC of G-Space Table 2): MM + LBM, MD + LBM, CFD + SPMV, MM + SC: every BE kernel
# but NN (whose 16-register blocks leave no LC block room at k = 1), LC kernels of 15 to 163 us;
# each one LC block fits in one yielded BE block (threads and registers, generate.sh's fits()
# with the H100's 256-register warp unit).  Every search method of policies/gspace.h but
# `fixed`, over the H100 micro-benchmark table (traces/gspace/microbench-h100.json, made by the
# simulator: experiments/gspace/microbench/regen.sh bin/combosim h100).  QoS target 2 x solo,
# LC arrivals 100 us after the previous LC kernel ended, as the TITAN V experiments.
set -eu
D=experiments/gspace
W=$D/workloads-h100
P=traces/gspace/h100
TABLE=traces/gspace/microbench-h100.json
PAIRS="mm:lbm md:lbm cfd:spmv mm:sc"
METHODS="brute nn lr ns gns nn_ns nn_gns nn_srs"
mkdir -p $W

field() { # profile key
	python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['kernels'][0][sys.argv[2]])" $P/$1.json $2
}
for p in $PAIRS; do
	be=${p%%:*}; lc=${p#*:}
	for b in $be $lc; do
		bin/combosim trace gen be --profile $P/$b.json >$W/$b.json.tmp
		mv $W/$b.json.tmp $W/$b.json
	done
	# the BE kernel as one persistent task queue of R launches (1 s alone), as generate.sh
	awk '/"grid":/ {
		match($0, /"grid": [0-9]+/); g = substr($0, RSTART + 8, RLENGTH - 8) + 0
		match($0, /"solo_us": [0-9.]+/); t = substr($0, RSTART + 11, RLENGTH - 11) + 0
		r = int(1e6 / t) + 1
		sub(/"grid": [0-9]+/, "\"grid\": " g * r); sub(/"solo_us": [0-9.]+/, sprintf("\"solo_us\": %.3f", t * r))
		sub(/"name": "[^"]*"/, "&, \"note\": \"" r " launches of the original kernel in one persistent task queue (experiments/gspace/generate_h100.sh)\"")
	}
	/"name": "/ && !/"grid":/ { sub(/"name": "[^"]*"/, "\"name\": \"'$be'-persistent\"") }
	{ print }' $W/$be.json >$W/$be-persistent.json
done

apps() { printf '[{"name": "%s", "queue": "workloads-h100/%s-persistent.json"}, {"name": "%s", "queue": "workloads-h100/%s.json"}]' "$1" "$1" "$2" "$2"; }
methods() {
	sep=""
	for m in $METHODS; do
		printf '%s{"name": "gspace", "label": "%s", "be": 0, "lc": 1, "deadline_ratio": 2, "search": "%s", "table": "%s"}' \
			"$sep" $m $m $TABLE; sep=", "
	done
}
# Long enough for brute force's 10 x K configurations at up to 100 x the LC solo time each
# plus the arrival gap: ms = 10 K (0.1 + 0.1 t_us) + 5, K the BE kernel's blocks per SM on the
# H100 (threads and registers).
dur() { # be lc
	python3 - $P/$1.json $P/$2.json <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))["kernels"][0]
t = json.load(open(sys.argv[2]))["kernels"][0]["solo_us"]
warp_regs = (b["regs"] * 32 + 255) // 256 * 256
k = min(2048 // b["threads"], 32, 65536 // (warp_regs * ((b["threads"] + 31) // 32)))
print(int(10 * k * (0.1 + 0.1 * t) + 5))
PY
}
first=${PAIRS%% *}
{
	printf '{\n  "name": "gspace-h100-search",\n'
	printf '  "description": "G-Space on the H100: brute force and the searches NN, LR, NS, GNS, NN_NS, NN_GNS, NN_SRS over the H100 micro-benchmark table, one BE + LC pair (this file: %s + %s; h100_search_sweep.json: the four pairs run on the GPU, cuda/runs/h100-gspace-search)",\n' ${first%%:*} ${first#*:}
	printf '  "inputs": "G-Space Table 2 benchmarks measured on the H100 (traces/gspace/h100/, cuda/runs/h100-gspace-kernels), GPU models/h100.json, §4.3-4.5 (policies/gspace.c)",\n'
	printf '  "assumptions": "QoS target 2 x the LC solo time; LC arrivals 100 us after the previous one ended; BE kernel: 1 s of its launches as one persistent task queue; micro-benchmark table simulated on models/h100.json (experiments/gspace/microbench/make.py)",\n'
	printf '  "gpu": "h100",\n  "seed": 1,\n  "duration_ms": %s,\n  "kernels": [],\n' "$(dur ${first%%:*} ${first#*:})"
	printf '  "apps": %s,\n  "policies": [%s],\n  "baseline": null\n}\n' "$(apps ${first%%:*} ${first#*:})" "$(methods)"
} >$D/h100_search.json
{
	printf '{\n "description": "G-Space on the H100: the four BE + LC pairs of cuda/runs/h100-gspace-search under every search.",\n'
	printf ' "experiment": "h100_search.json",\n "combine": "zip",\n "grid": {\n  "apps": [\n'
	sep=""
	for p in $PAIRS; do printf '%s   %s' "$sep" "$(apps ${p%%:*} ${p#*:})"; sep=",
"; done
	printf '\n  ],\n  "duration_ms": ['
	sep=""
	for p in $PAIRS; do printf '%s%s' "$sep" "$(dur ${p%%:*} ${p#*:})"; sep=", "; done
	printf ']\n }\n}\n'
} >$D/h100_search_sweep.json
{ echo "point,be,lc"; n=0; for p in $PAIRS; do printf '%06d,%s,%s\n' $n ${p%%:*} ${p#*:}; n=$((n + 1)); done; } >$W/pairs.csv
