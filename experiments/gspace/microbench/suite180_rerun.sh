#!/bin/sh
# Re-runs some searches of the stored suite-180 sweep (experiments/gspace/suite180/search.tgz)
# with the current binary and puts their runs in place of the stored ones, for a change that
# touches only those searches: the 180-instance table and the other searches stay as stored, at
# a fraction of the whole sweep's cost (the sweep's 13 pairs x 7 searches took 76 CPU-minutes).
# Needs B/microbench180.json from suite180.sh, checked against the md5 in suite180/RUN.md so a
# changed table is not mixed with stored runs.  Rewrites search.tgz; sweep.csv rows too.
# usage: [B=DIR] sh experiments/gspace/microbench/suite180_rerun.sh COMBOSIM JOBS LABEL...
#        (from the project root; B: suite180.sh's output folder, default build/suite180)
set -eu
[ $# -ge 3 ] || { echo "usage: suite180_rerun.sh COMBOSIM JOBS LABEL..." >&2; exit 2; }
C=$1; J=$2; shift 2
B=${B:-build/suite180}
S=experiments/gspace/suite180
want=$(sed -n 's/.*the same md5, \([0-9a-f]\{32\}\).*/\1/p' $S/RUN.md)
have=$(md5sum $B/microbench180.json | cut -d' ' -f1)
[ -n "$want" ] && [ "$want" = "$have" ] ||
	{ echo "suite180_rerun: $B/microbench180.json md5 $have, $S/RUN.md says '$want'" >&2; exit 2; }
rm -rf $B/rerun && mkdir -p $B/rerun
tar xzf $S/search.tgz -C $B/rerun
python3 - $B "$@" <<'PY'
import json, os, sys
b, labels = sys.argv[1], sys.argv[2:]
e = json.load(open("experiments/gspace/search.json"))
e["policies"] = [p for p in e["policies"] if p.get("label") in labels]
if len(e["policies"]) != len(labels):
    sys.exit("suite180_rerun: not every label is a policy of experiments/gspace/search.json: %s" % labels)
for p in e["policies"]:
    p["table"] = os.path.abspath(b + "/microbench180.json")
json.dump(e, open("experiments/gspace/search180r.json.tmp", "w"), indent=1)
s = json.load(open("experiments/gspace/search_sweep.json"))
s["experiment"] = "search180r.json.tmp"
json.dump(s, open("experiments/gspace/search180r_sweep.json.tmp", "w"), indent=1)
PY
$C sweep experiments/gspace/search180r_sweep.json.tmp -j "$J" --out $B/rerun/part >/dev/null
rm -f experiments/gspace/search180r.json.tmp experiments/gspace/search180r_sweep.json.tmp
python3 - $B/rerun "$($C version)" "$@" <<'PY'
import csv, glob, json, os, sys
d, version, labels = sys.argv[1], sys.argv[2], sys.argv[3:]
for f in sorted(glob.glob(os.path.join(d, "part", "runs", "*", "summary.json"))):
    new = json.load(open(f))
    old_f = os.path.join(d, "search", "runs", os.path.basename(os.path.dirname(f)), "summary.json")
    old = json.load(open(old_f))
    by = {r["policy"]: r for r in new["runs"]}
    old["runs"] = [by.get(r["policy"], r) for r in old["runs"]]
    pol = {p.get("label"): p for p in new["config"]["policies"]}
    old["config"]["policies"] = [pol.get(p.get("label"), p) for p in old["config"]["policies"]]
    old["combosim_version"] = "%s; %s re-run by %s (suite180_rerun.sh)" % (
        old["combosim_version"], " ".join(labels), version)
    json.dump(old, open(old_f, "w"), indent="\t")
def lines(f):
    """(key, raw line) per row: rows keep the sweep's own quoting"""
    raw = open(f, newline="").read().splitlines(keepends=True)
    return [((r[0], r[3]), l) for l in raw for r in csv.reader([l])]
old = lines(os.path.join(d, "search", "sweep.csv"))
fresh = dict(lines(os.path.join(d, "part", "sweep.csv"))[1:])
open(os.path.join(d, "search", "sweep.csv"), "w").write(
    old[0][1] + "".join(fresh.get(k, l) for k, l in old[1:]))
PY
(cd $B/rerun && tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf - search | gzip -9n) >$S/search.tgz.tmp
mv $S/search.tgz.tmp $S/search.tgz
echo "suite180_rerun: $* re-run; $S/search.tgz rewritten"
