#!/bin/sh
# Every stored GPU run has a row in cuda/VALIDATION.md's runs table, and every row names a stored
# run: cuda/scripts/validation_runs.sh's table (what `make cuda-validation` writes) against the
# directories under cuda/runs/, without running the generator; and the committed VALIDATION.md
# carries that table as the script writes it (regenerated after a row was added).
# Usage: sh tests/validation_runs.sh [RUNS_DIR]   (make test; RUNS_DIR defaults to cuda/runs)
set -u
RUNS=${1:-cuda/runs}
T=$(mktemp -d /tmp/combosim-vruns.XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
if ! sh cuda/scripts/validation_runs.sh > "$T/table.md"; then
	echo "FAIL cuda/scripts/validation_runs.sh exited non-zero"
	exit 1
fi
# the runs each row names: its first cell up to ", ", {a,b} groups expanded
python3 - "$T/table.md" > "$T/named.txt" <<'PY'
import re, sys
def expand(s):
    m = re.search(r'\{([^{}]*)\}', s)
    if not m:
        return [s]
    return [x for alt in m.group(1).split(',') for x in expand(s[:m.start()] + alt + s[m.end():])]
for line in open(sys.argv[1]):
    if line.startswith('| cuda/runs/'):
        cell = line.split('|')[1].strip().split(', ')[0]
        for run in expand(cell):
            print(run[len('cuda/runs/'):])
PY
sort -u "$T/named.txt" > "$T/named.sorted"
for d in "$RUNS"/*/; do basename "$d"; done | sort > "$T/dirs.txt"
for r in $(comm -23 "$T/dirs.txt" "$T/named.sorted"); do
	echo "FAIL $RUNS/$r has no row in cuda/scripts/validation_runs.sh (the runs table of cuda/VALIDATION.md)"
	fails=$((fails + 1))
done
for r in $(comm -13 "$T/dirs.txt" "$T/named.sorted"); do
	echo "FAIL cuda/scripts/validation_runs.sh names cuda/runs/$r, which is not under $RUNS"
	fails=$((fails + 1))
done
# the committed report's runs table is the script's (only for the repository's own runs)
if [ "$RUNS" = cuda/runs ]; then
	awk '/^## Runs$/ { on = 1 } on && /^## / && !/^## Runs$/ { exit } on' cuda/VALIDATION.md | sed '$ { /^$/ d }' > "$T/committed.md"
	if ! cmp -s "$T/committed.md" "$T/table.md"; then
		echo "FAIL cuda/VALIDATION.md's runs table differs from cuda/scripts/validation_runs.sh (make cuda-validation):"
		diff "$T/committed.md" "$T/table.md" | head -10
		fails=$((fails + 1))
	fi
fi
# a run's kernels.csv / frames.csv is ignored by git (the stored copy is the .gz beside it,
# cuda/scripts/unpack_runs.sh): one without its .gz would silently not be committed
if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
	for f in "$RUNS"/*/kernels.csv "$RUNS"/*/frames.csv; do
		[ -e "$f" ] || continue
		if ! git ls-files --error-unmatch "$f" > /dev/null 2>&1 && [ ! -e "$f.gz" ]; then
			echo "FAIL $f is ignored by git and has no $f.gz: store it as gzip -9n $f"
			fails=$((fails + 1))
		fi
	done
fi
n=$(wc -l < "$T/dirs.txt")
if [ $fails -eq 0 ]; then
	echo "ok   validation runs table: $n run directories, each with a row"
	exit 0
fi
exit 1
