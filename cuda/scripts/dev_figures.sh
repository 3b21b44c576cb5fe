#!/bin/sh
# The H200's development figures, the ones a choice of the model's structure is judged on: per
# development pair set (cuda/scripts/validation_runs.sh says which runs are development) the
# co-running kernels' median error and the pair makespans' median and worst
# (compare_pairs.py, seeds 1-5), and per pile-up run L's time behind S against the GPU's
# (pileup_report.py).  Test sets are left out: they are reported, never chosen on
# (cuda/VALIDATION.md).  About 15 s per description on two cores.
# Usage: sh cuda/scripts/dev_figures.sh BIN/combosim GPU.json [GPU2.json ...]   (from the root)
set -u
[ $# -ge 2 ] || { sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
bin=$1; shift
tmp=$(mktemp -d /tmp/combosim-devfig.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
for t in pairs pileup; do
	mkdir -p "$tmp/$t" && tar xzf "cuda/runs/h200-describe/$t.tgz" -C "$tmp/$t"
done
sets="$tmp/pairs/r/bench-pairs cuda/runs/h200-pairs-dev2 cuda/runs/h200-pairs-dev3 cuda/runs/h200-pairs-dev4
cuda/runs/h200-pairs-dev5 cuda/runs/h200-pairs-dev6 cuda/runs/h200-pairs-dev7 cuda/runs/h200-pairs-dev8 cuda/runs/h200-delay"
for gpu in "$@"; do
	echo "## $gpu"
	echo
	echo "| development set | co-running median | makespan median / worst |"
	echo "|---|---|---|"
	for r in $sets; do
		name=$(echo "$r" | sed "s|$tmp/pairs/r/bench-pairs|h200-describe pairs.tgz|; s|cuda/runs/||")
		python3 cuda/scripts/compare_pairs.py "$bin" "$r" --gpu "$gpu" --json "$tmp/f.json" > /dev/null ||
			{ echo "dev_figures: compare_pairs.py failed on $r" >&2; exit 1; }
		python3 - "$tmp/f.json" "$name" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
print('| %s | %.1f %% | %.1f / %.1f %% |' % (sys.argv[2], 100 * f['corun']['median'], 100 * f['makespan']['median'],
                                           100 * f['makespan']['max']))
PY
	done
	echo
	echo "| pile-up (development) | L behind S: GPU, repetitions | simulator |"
	echo "|---|---|---|"
	for r in "$tmp/pileup/r" cuda/runs/h200-pileup-wide; do
		python3 cuda/scripts/pileup_report.py "$bin" "$r" --gpu "$gpu" | awk -F'|' 'NR > 2 { print "|" $2 "|" $4 "|" $6 "|" }' |
			sed 's/ (L [^)]*)//'
	done
	echo
done
