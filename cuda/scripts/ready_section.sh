#!/bin/sh
# cuda/VALIDATION.md's section on the issue slots a kernel's idle warps leave (called by
# validation.sh): models/h200.json's interference.warp_ready, fitted by cuda/scripts/fit_ready.py
# to the 8-warp same-class pairs of cuda/runs/h200-describe/pairs-dev3.tgz (calibration), and
# the development pair sets (the rest of pairs-dev3.tgz, cuda/runs/h200-pairs-dev2,
# h200-pairs-test3, the pair rows of h200-describe's pairs.tgz) and co-run sets against
# models/h200.json with the key and without it (the same description less warp_ready, its
# issue table as fitted with it).  Usage: sh cuda/scripts/ready_section.sh BIN/combosim
set -eu
C=${1:?usage: ready_section.sh BIN/combosim}
tmp=$(mktemp -d /tmp/combosim-ready.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/dev" "$tmp/dev3"
tar xzf cuda/runs/h200-describe/pairs.tgz -C "$tmp/dev"
tar xzf cuda/runs/h200-describe/pairs-dev3.tgz -C "$tmp/dev3"
python3 - models/h200.json "$tmp/without.json" <<'PY'
import json, sys
g = json.load(open(sys.argv[1]))
del g['interference']['warp_ready']
json.dump(g, open(sys.argv[2], 'w'))
PY
for set in dev3 dev2 test3 dev; do
	case $set in
	dev) run="$tmp/dev/r/bench-pairs" ;;
	dev3) run="$tmp/dev3/r/bench-pairs-dev3" ;;
	*) run=cuda/runs/h200-pairs-$set ;;
	esac
	python3 cuda/scripts/compare_pairs.py "$C" "$run" --gpu models/h200.json --json "$tmp/$set-with.json" > "$tmp/$set-with.md"
	python3 cuda/scripts/compare_pairs.py "$C" "$run" --gpu "$tmp/without.json" --json "$tmp/$set-without.json" > /dev/null
done
fig() { python3 -c "import json, sys; j = json.load(open(sys.argv[1])); print('%.1f' % (100 * j[sys.argv[2]][sys.argv[3]]))" "$1" "$2" "$3"; }
row() {
	for w in with without; do
		T=$tmp/$1-$w.json
		echo "| $2, $w | $(fig $T corun median) / $(fig $T corun max) % | $(fig $T makespan median) / $(fig $T makespan max) % |"
	done
}
key() { python3 -c "import json, sys; j = json.load(open('models/h200.json'))
for k in sys.argv[1].split('.'): j = j[k]
print(j)" "$1"; }
cat <<TXT

## Issue slots a kernel's idle warps leave (interference.warp_ready)

Under the age discipline the kernel served first took every unit and issue slot it wanted and a
later one got nothing until it ended.  Kernels resident together on an H200 do not behave so
(cuda/runs/h200-pairs-dev2 and -dev3, per block): of two CD kernels of one 256-thread block per
SM (8 warps) the first runs at ~0.72 of its solo speed and the second at ~0.37; with 4 warps
each they run about evenly, with 16 the first keeps ~0.91; co-run set 1's kernels of 32 warps
come near strict order.  A warp stalls now and then (a dependent instruction, a load); in the
cycles none of a kernel's warps on a scheduler can issue, another kernel's warps do.  So with
\`warp_ready\` a kernel served first keeps 1 - (1 - p)^w of what it would take, w its warps per
warp scheduler (4 per SM on Hopper), and leaves the rest to the kernels after it as far as they
want it.  p is fitted per class by cuda/scripts/fit_ready.py on the 8-warp same-class pairs of
h200-describe's pairs-dev3.tgz (calibration): CD $(key interference.warp_ready.CD), TC
$(key interference.warp_ready.TC) (strict; of two TC kernels the first ran at its solo speed); RT's pair does
not contend (no fit).  The issue table is fitted after it (cuda/scripts/describe_gpu.py).
models/h100.json takes the H200's (the same SM; no such bench has run on an H100).

Development sets against models/h200.json, with warp_ready and without it (the same
description less the key), per-kernel duration error and pair makespan error, median / worst:

| set | co-running: median / worst | pair makespan: median / worst |
|---|---|---|
$(row dev3 "h200-describe pairs-dev3.tgz (its calibration pairs among them)")
$(row dev2 "h200-pairs-dev2")
$(row test3 "h200-pairs-test3")
$(row dev "h200-describe pairs.tgz, pair rows")

pairs-dev3.tgz with warp_ready:

$(cat "$tmp/dev3-with.md")

A block of 4 warps does not saturate the SM's CD or TC unit alone (r-CD1+CD1n, r-TC1+TC1n: the
two kernels run side by side); the descriptions' saturation in warps (\`class_defaults.C.sat_warps\`,
fit_sat.py) now says so (the two pairs' errors in warp_ready's source).  What is left:
launch-bound kernels behind others still pile where the GPU spreads (the pile-up and
block-drain sections).
TXT
