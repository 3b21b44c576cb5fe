#!/bin/sh
# The paper-size micro-benchmark co-run table (180 instances: suite180.py) for the TITAN V, and
# Fig. 9-10 rerun with it: the co-run experiments in SHARDS shards (JOBS at a time), reduced by
# table.py into B/microbench180.json (about 50 MB: not tracked), then the search
# sweep (experiments/gspace/search_sweep.json) with every policy reading that table, and
# B/search (the sweep's summaries, which experiments/gspace/suite180/ stores).
# About 11 CPU-minutes for the table (run on the device machine's 16 cores: RUN.md of
# experiments/gspace/suite180/).  Deterministic.
# usage: [B=DIR] [SHARDS=N] sh experiments/gspace/microbench/suite180.sh [COMBOSIM [JOBS]]
#        (from the project root; B: the output folder, default build/suite180)
set -eu
C=${1:-bin/combosim}
J=${2:-2}
D=experiments/gspace/microbench
B=${B:-build/suite180}
SHARDS=${SHARDS:-90}
mkdir -p $B/shards
seq 0 $((SHARDS - 1)) | xargs -P "$J" -I{} sh -c "
	[ -s $B/shards/{}/summary.json ] && exit 0
	python3 $D/suite180.py titanv $SHARDS {} > $B/shards/{}.json &&
	$C run $B/shards/{}.json --out $B/shards/{} -q && rm $B/shards/{}.json"
python3 $D/table.py --suite 180 $B/shards/*/summary.json > $B/microbench180.json.tmp
mv $B/microbench180.json.tmp $B/microbench180.json
# the search sweep with the big table: the experiment copied with every policy's table replaced
python3 - $B <<'PY'
import json, os, sys
b = sys.argv[1]
e = json.load(open("experiments/gspace/search.json"))
for p in e["policies"]:
    if "table" in p:
        p["table"] = os.path.abspath(b + "/microbench180.json")
json.dump(e, open("experiments/gspace/search180.json.tmp", "w"), indent=1)
s = json.load(open("experiments/gspace/search_sweep.json"))
s["experiment"] = "search180.json.tmp"
json.dump(s, open("experiments/gspace/search180_sweep.json.tmp", "w"), indent=1)
PY
rm -rf $B/search
if ! command -v parallel >/dev/null; then
	# no GNU parallel (the device machine): the sweep's points run by xargs, then the sweep
	# finds them done and writes sweep.csv
	$C sweep experiments/gspace/search180_sweep.json.tmp --dry-run --out $B/search >/dev/null
	tr '\n' '\0' < $B/search/jobs.txt | xargs -0 -P "$J" -n 1 sh -c
fi
$C sweep experiments/gspace/search180_sweep.json.tmp -j "$J" --out $B/search >/dev/null
rm -f experiments/gspace/search180.json.tmp experiments/gspace/search180_sweep.json.tmp
find $B/search -name '*.csv' ! -name sweep.csv -delete
