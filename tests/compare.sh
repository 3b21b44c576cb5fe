#!/bin/sh
# The cross-policy comparison (experiments/compare/) on a tiny version of its families (first
# workload of each, short runs, a coarser oracle grid, both GPUs): every policy that applies to
# a family has a result there, the set of policies that apply is the expected one
# (tests/compare_applies.txt: a change of spec/ that drops a policy from a family must change
# it too), and no policy inside the oracle's space beats the oracle.  Then each check is shown
# to fail on a doctored copy (a policy's run removed; static-smqos given more BE than the oracle).
set -u
C=${COMBOSIM:-bin/combosim}
T=$(mktemp -d /tmp/combosim-compare.XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0; n=0
ok()  { n=$((n+1)); echo "ok   $n $1"; }
bad() { n=$((n+1)); fails=$((fails+1)); echo "FAIL $n $1"; }

COMBOSIM=$C python3 experiments/compare/generate.py --tiny "$T/exp" || { echo "FAIL generate --tiny"; exit 1; }
awk -F, '$4=="yes"{print $1","$2}' "$T/exp/applicability.csv" >"$T/applies"
if cmp -s "$T/applies" tests/compare_applies.txt; then ok "the policies that apply to each family are the expected ones"
else bad "applicability changed: $(diff tests/compare_applies.txt "$T/applies" | tr '\n' ' ')"; fi
awk -F, '$4=="yes"{print $1","$2}' experiments/compare/applicability.csv >"$T/applies.shipped"
cmp -s "$T/applies.shipped" tests/compare_applies.txt && ok "the shipped applicability.csv is current" \
	|| bad "experiments/compare/applicability.csv differs from tests/compare_applies.txt (run generate.py)"
for f in "$T"/exp/*_sweep.json; do
	"$C" sweep "$f" -j 2 --out "$T/out/$(basename "$f" _sweep.json)" >/dev/null 2>"$T/sweep.err" \
		|| bad "sweep $(basename "$f"): $(head -c 300 "$T/sweep.err")"
done
if python3 experiments/compare/reduce.py "$T/exp" "$T/out" "$T/report" --check >"$T/check" 2>&1; then
	ok "tiny families: $(tail -1 "$T/check")"
else
	bad "tiny families: $(grep FAIL "$T/check" | head -5 | tr '\n' ' ')"
fi
# the oracle's grid refined at the QoS cliff: every candidate written lies strictly between the
# best split meeting QoS and a grid neighbour; once run, the reduction reads them as candidates.
# At most 4 a cliff: the tiny grid is 3 x coarser, and all 17 of the H100's vGASA cliff took
# 20 s each
python3 experiments/compare/refine.py "$T/exp" "$T/out" --most 4 >"$T/refine.txt" 2>"$T/refine.err" \
	|| bad "refine.py: $(head -c 300 "$T/refine.err")"
if [ -s "$T/refine.txt" ]; then
	# one experiment per candidate, run side by side as `make compare` runs them
	xargs -P "$(nproc 2>/dev/null || echo 2)" -I{} sh -c 'f={}; "$0" run "$f" -q --out "${f%.json}" >/dev/null 2>&1 || echo "$f"' "$C" \
		<"$T/refine.txt" >"$T/refine.fail"
	[ -s "$T/refine.fail" ] && bad "refine runs failed: $(head -3 "$T/refine.fail" | tr '\n' ' ')"
	python3 - "$T/refine.txt" <<'PY' && ok "refine: $(wc -l <"$T/refine.txt") oracle candidates between grid points, one experiment each" || bad "refine: a candidate on the grid, or not one a file"
import json, sys
for f in open(sys.argv[1]).read().split():
    e = json.load(open(f))
    step = {"rtx3090": 4, "h100": 6, "gpgpusim-sm24": 2}[e["gpu"]] * 3      # the tiny grid
    assert len(e["policies"]) == 1, f
    for p in e["policies"]:
        k = p.get("game_sms", p.get("ls_sms"))
        assert p["label"].startswith("oracle:") and k % step, (f, p["label"])
PY
	python3 experiments/compare/reduce.py "$T/exp" "$T/out" "$T/report" --check >"$T/check" 2>&1 \
		&& ok "tiny families with the refined oracle: $(tail -1 "$T/check")" || bad "refined: $(grep FAIL "$T/check" | head -3 | tr '\n' ' ')"
	# fault: a refined run that did not run is not dropped in silence
	cp -r "$T/out" "$T/f0"
	first=$(head -1 "$T/refine.txt"); rel=${first#"$T/out/"}
	rm -rf "$T/f0/${rel%.json}"
	python3 experiments/compare/reduce.py "$T/exp" "$T/f0" "$T/r0" --check >"$T/c0" 2>&1
	[ $? -eq 1 ] && grep -q "refined oracle run" "$T/c0" && ok "a refined oracle run missing fails the check" \
		|| bad "a missing refined run passed: $(head -c 300 "$T/c0")"
else
	bad "refine.py wrote no experiment on the tiny families (their grid is 3 x coarser: a cliff is expected)"
fi
for f in combo vgasa smqos gspace; do
	[ -s "$T/report/$f.md" ] && [ -s "$T/report/$f.csv" ] && ok "table of the $f family written" || bad "no table for $f"
done

# fault 1: a policy that applies silently missing from one run
cp -r "$T/out" "$T/f1"
python3 - "$T/f1/combo_rtx3090/runs/000000/summary.json" <<'PY'
import json, sys
p = sys.argv[1]; d = json.load(open(p))
d["runs"] = [r for r in d["runs"] if r["policy"] != "pilotfish"]
json.dump(d, open(p, "w"))
PY
python3 experiments/compare/reduce.py "$T/exp" "$T/f1" "$T/r1" --check >"$T/c1" 2>&1
[ $? -eq 1 ] && grep -q "pilotfish dropped out of the combo family" "$T/c1" && ok "a dropped policy fails the check" \
	|| bad "a dropped policy passed: $(head -c 300 "$T/c1")"
# fault 2: a policy inside the oracle's space (static-smqos) with more BE than the oracle
cp -r "$T/out" "$T/f2"
python3 - "$T/f2/gspace_rtx3090/runs/000000/kernels.csv" <<'PY'
import csv, sys
p = sys.argv[1]
rows = list(csv.DictReader(open(p)))
be = [r for r in rows if r["policy"] == "static-smqos" and r["owner"] == "mm"][0]
extra = dict(be, solo_ns=str(10 ** 9))          # a BE kernel worth 1 s of solo work
with open(p, "a", newline="") as f:
    csv.DictWriter(f, fieldnames=list(rows[0])).writerow(extra)
PY
python3 experiments/compare/reduce.py "$T/exp" "$T/f2" "$T/r2" --check >"$T/c2" 2>&1
[ $? -eq 1 ] && grep -q "static-smqos beats the oracle" "$T/c2" && ok "beating the oracle from inside its space fails the check" \
	|| bad "beating the oracle passed: $(head -c 300 "$T/c2")"

# a bad registry entry: exit 2 naming the file, the JSON path and what was expected
mkdir -p "$T/spec"
cp experiments/compare/spec/families.json "$T/spec/"
python3 - experiments/compare/spec/policies.json "$T/spec/policies.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["policies"][2]["needs"] = ["game", "nosuch"]
json.dump(d, open(sys.argv[2], "w"))
PY
COMPARE_SPEC="$T/spec" COMBOSIM=$C python3 experiments/compare/generate.py --tiny "$T/bad" 2>"$T/err"
[ $? -eq 2 ] && grep -q "policies.json: \$.policies\[2\].needs: unknown need 'nosuch'" "$T/err" \
	&& ok "an unknown need: exit 2, file and JSON path" || bad "unknown need: $(head -c 300 "$T/err")"
python3 - experiments/compare/spec/policies.json "$T/spec/policies.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["policies"].append({"label": "x", "policy": "pilotfish", "pending": "test"})
json.dump(d, open(sys.argv[2], "w"))
PY
COMPARE_SPEC="$T/spec" COMBOSIM=$C python3 experiments/compare/generate.py --tiny "$T/bad" 2>"$T/err"
[ $? -eq 2 ] && grep -q "marked pending but .combosim policies. lists it" "$T/err" \
	&& ok "a pending policy that exists: exit 2" || bad "pending but registered: $(head -c 300 "$T/err")"

echo "compare: $((n-fails))/$n passed"
[ $fails -eq 0 ]
