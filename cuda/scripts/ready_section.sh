#!/bin/sh
# cuda/VALIDATION.md's section on the issue slots a kernel's idle warps leave (called by
# validation.sh): models/h200.json's interference.warp_left, fitted by cuda/scripts/fit_left.py
# to the one-block pairs of cuda/runs/h200-describe/pairs-warps.tgz (calibration), and the
# development runs (its pairs of 2-16 blocks per SM, pairs-dev3.tgz, cuda/runs/h200-pairs-dev2,
# -dev5, -dev6, -test3, the pair rows of h200-describe's pairs.tgz) against models/h200.json,
# the same with warp_ready's (1 - p)^w and the H100's issue_yield in its place (the description
# before warp_left: p from cuda/scripts/fit_ready.py on pairs-dev3.tgz, the issue table
# refitted with them by cuda/scripts/fit_issue.py), and with neither (strict order, issue table
# as fitted with warp_left).  Usage: sh cuda/scripts/ready_section.sh BIN/combosim
set -eu
C=${1:?usage: ready_section.sh BIN/combosim}
export COMBOSIM=$C
tmp=$(mktemp -d /tmp/combosim-ready.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/dev" "$tmp/dev3" "$tmp/corun"
tar xzf cuda/runs/h200-describe/pairs.tgz -C "$tmp/dev"
tar xzf cuda/runs/h200-describe/pairs-dev3.tgz -C "$tmp/dev3"
tar xzf cuda/runs/h200-describe/corun.tgz -C "$tmp/corun"
python3 cuda/scripts/fit_ready.py cuda/runs/h200-describe/pairs-dev3.tgz --gpu models/h100.json --json > "$tmp/ready.json"
python3 - models/h200.json models/h100.json "$tmp" <<'PY'
import json, sys
g, h100, tmp = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
inter = dict(g['interference'])
del inter['warp_left']
json.dump(dict(g, interference=inter), open(tmp + '/without.json', 'w'))
ready = json.load(open(tmp + '/ready.json'))['values']['interference']['warp_ready']
inter = dict(inter, warp_ready=ready, issue_yield=h100['interference']['issue_yield'])
json.dump(dict(g, interference=inter), open(tmp + '/ready-draft.json', 'w'))
PY
python3 cuda/scripts/fit_issue.py --gpu "$tmp/ready-draft.json" --run "$tmp/corun/r/bench-corun" --json > "$tmp/issue.json"
python3 - "$tmp" <<'PY'
import json, sys
tmp = sys.argv[1]
g = json.load(open(tmp + '/ready-draft.json'))
f = json.load(open(tmp + '/issue.json'))
g['interference']['issue'] = dict(f['values']['interference']['issue'], source=f['source'])
json.dump(g, open(tmp + '/ready.json', 'w'))
PY
python3 cuda/scripts/fit_left.py cuda/runs/h200-describe/pairs-warps.tgz --gpu models/h200.json > "$tmp/left.txt"
for set in warps dev3 dev2 dev5 dev6 test3 dev; do
	case $set in
	dev) run="$tmp/dev/r/bench-pairs" ;;
	dev3) run="$tmp/dev3/r/bench-pairs-dev3" ;;
	warps) run="" ;;
	*) run=cuda/runs/h200-pairs-$set ;;
	esac
	[ -n "$run" ] || continue
	for d in with:models/h200.json ready:$tmp/ready.json without:$tmp/without.json; do
		python3 cuda/scripts/compare_pairs.py "$C" "$run" --gpu "${d#*:}" --json "$tmp/$set-${d%%:*}.json" > "$tmp/$set-${d%%:*}.md"
	done
done
fig() { python3 -c "import json, sys; j = json.load(open(sys.argv[1])); print('%.1f' % (100 * j[sys.argv[2]][sys.argv[3]]))" "$1" "$2" "$3"; }
row() {
	echo "| $2 | $(fig "$tmp/$1-with.json" corun median) / $(fig "$tmp/$1-with.json" makespan median) % | $(fig "$tmp/$1-ready.json" corun median) / $(fig "$tmp/$1-ready.json" makespan median) % | $(fig "$tmp/$1-without.json" corun median) / $(fig "$tmp/$1-without.json" makespan median) % |"
}
issue_fig() { python3 -c "import json, sys, re; s = json.load(open(sys.argv[1]))['interference']['issue']['source']
m = re.search(r'set 1 \(calibration\) median ([\d.]+) % worst ([\d.]+) %.*set 2 \(development\) median ([\d.]+) % worst ([\d.]+) %', s)
print('%s / %s %%, set 2 %s / %s %%' % m.groups())" "$1"; }
paces() { python3 -c "import json; w = json.load(open('models/h200.json'))['interference']['warp_left']
for b in sorted(k for k in w if k not in ('source', 'schedulers')):
    for k in sorted(w[b]):
        print('| %s | %s | %s |' % (b, k, ', '.join('%.2f' % v for v in w[b][k])))"; }
dev_rows() { grep '^development' "$tmp/left.txt" | sed 's/^development /- /'; }
cat <<TXT

## Issue slots a kernel's idle warps leave (interference.warp_left)

Under the age discipline the kernel served first took every unit and issue slot it wanted and a
later one got nothing until it ended.  Kernels resident together on an H200 do not behave so
(cuda/runs/h200-pairs-dev2 and -dev3, per block): of two CD kernels of one 256-thread block per
SM (8 warps) the first runs at ~0.72 of its solo speed and the second at ~0.37.  A warp stalls
now and then; in the cycles none of a kernel's warps on a scheduler can issue, another
kernel's warps do.  The first form, \`warp_ready\`, had a kernel served first keep
1 - (1 - p)^w of what it would take, w its warps per warp scheduler, p per class fitted on
pairs-dev3.tgz's 8-warp pairs (cuda/scripts/fit_ready.py: CD 0.47, TC 0.88).

bench pairs-warps (h200-describe's pairs-warps.tgz, calibration: L of one block per SM at 1-8
warps per scheduler beside S of 4-warp blocks, every class beside every class, launched 150
us after L) measured what the formula stands for, and it is not a law of w: beside one CD
block S runs at 0.58 of its speed with 1 warp per scheduler, 0.26 with 2, 0.01 with 3, 0.58
again with 4 (the bench's warps run one unrolled FMA loop in phase), and the later kernel's
class sets how much of those cycles become progress (a MEM S at 1.0 / 0.36 / 0.01 / 0.98, a
TC S at 0.34 / 0.09 / 0.03 / 0.30, where one issue share per class cannot follow: a MEM
kernel that takes a seventh of the slots when it runs first turned any cycles left into
nearly full speed).  A CD kernel beside an older TC one runs at 0.7-0.86 of its speed, not
ahead of it as the H100's \`issue_yield\` had it.  So models/h200.json takes the measured
paces, \`warp_left\`: beside an older kernel of class b with w warps on a scheduler a later one of
class k runs at most at the table's pace there (the product over older kernels, the least over
the schedulers it has warps on; between counts the line, beyond 8 the last), and the older
kernel gives up what the later one uses at that pace.  fit_left.py fits each count's pace by
simulating the LS pair (each within 0.0000-0.03 mean squared log error of L's and S's
durations, its source lists them); the issue table is fitted after it (set 1 calibration
median / worst $(issue_fig models/h200.json) development; with warp_ready $(issue_fig "$tmp/ready.json")).
models/h100.json keeps warp_ready and its issue_yield, chosen on the H100's runs, until bench
pairs-warps runs on an H100.

The paces of models/h200.json (w = 1 .. 8 warps of the older kernel per scheduler):

| older | later | pace |
|---|---|---|
$(paces)

On the GPU the pace goes by the older kernel's warps per scheduler on the SM whatever its
blocks in 10 of pairs-warps' 13 CD layouts of 2-16 blocks per SM (development); the three
that do not are blocks of 8 or 16 warps, 2 or 3 per SM (2 x 8: 0.26 where one block of 16
gives 0.58; 3 x 8: 0.22 for 0.01; 2 x 16: 0.36 for 0.18).  The simulator's blocks of one wave
end at their own times (block_spread), so in a pair of 2 or more blocks per SM some have left
when S lands and the pair reads a lower count.  Those pairs at the fitted table (S's error
beside L's, mean squared log):

$(dev_rows)

Development sets against models/h200.json (warp_left), the same with warp_ready and the
H100's issue_yield in its place and the issue table refitted with them (the description before
warp_left), and with neither (strict order): per-kernel co-running duration error and pair
makespan error, medians:

| set | warp_left | warp_ready | neither |
|---|---|---|---|
$(row dev6 "h200-pairs-dev6 (multi-block CD beside other classes)")
$(row dev5 "h200-pairs-dev5 (warps that do not divide among the schedulers)")
$(row dev3 "h200-describe pairs-dev3.tgz")
$(row dev2 "h200-pairs-dev2")
$(row test3 "h200-pairs-test3")
$(row dev "h200-describe pairs.tgz, pair rows")

h200-pairs-dev6 with warp_left:

$(cat "$tmp/dev6-with.md")

What is left: the pace of a later kernel beside two or more older ones (the product is not
measured), and launch-bound kernels behind others still pile where the GPU spreads (the
pile-up and block-drain sections).
TXT
