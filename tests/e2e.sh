#!/bin/sh
# End-to-end checks of the combosim program: exit codes, error messages on bad input,
# byte-identical reruns, and the reproductions' numbers.  $COMBOSIM is the binary.
set -u
C=${COMBOSIM:-bin/combosim}
T=$(mktemp -d /tmp/combosim-e2e.XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0; n=0

ok()   { n=$((n+1)); echo "ok   $n $1"; }
bad()  { n=$((n+1)); fails=$((fails+1)); echo "FAIL $n $1"; }

# expect_error NAME EXPECTED-EXIT EXPECTED-STDERR-SUBSTRING -- ARGS...
expect_error() {
	name=$1 code=$2 want=$3; shift 4
	"$C" "$@" >"$T/out" 2>"$T/err"; rc=$?
	if [ $rc -ne "$code" ]; then bad "$name: exit $rc, expected $code ($(head -c 300 "$T/err"))"; return; fi
	if ! grep -qF -- "$want" "$T/err"; then bad "$name: stderr lacks '$want': $(head -c 300 "$T/err")"; return; fi
	ok "$name"
}

# ---- usage and bad input: exit 2 with a precise message
expect_error "no arguments" 2 "usage:" --
expect_error "unknown command" 2 "unknown command 'frobnicate'" -- frobnicate
expect_error "missing file" 2 "tests/bad/nope.json: cannot read" -- run tests/bad/nope.json
for f in tests/bad/*.json; do
	want=$(sed -n 's/^EXPECT: //p' "${f%.json}.expect")
	expect_error "bad input $(basename "$f")" 2 "$want" -- run "$f" --out "$T/bad"
done
expect_error "--set unknown policy" 2 '$.policies[0].name: expected one of "exclusive", "static", "pilotfish", "combo"' -- \
	run experiments/default.json --set 'policies[0].name=nosuch' --out "$T/x"
expect_error "--set out of range" 2 '$.policies[2].game_share: expected a number in [0, 1], got 1.5' -- \
	run experiments/default.json --set 'policies[2].game_share=1.5' --out "$T/x"
expect_error "--set bad syntax" 2 "--set 'seed'" -- run experiments/default.json --set seed --out "$T/x"
expect_error "--unset an absent key" 2 "--unset 'policies[2].game_sms': \$.policies[2]: no key 'game_sms' to remove" -- \
	run experiments/default.json --unset 'policies[2].game_sms' --out "$T/x"
expect_error "--unset without a path" 2 "combosim run: --unset needs a value" -- run experiments/default.json --unset
for c in run sweep trace validate; do
	if "$C" $c --help >"$T/out" 2>"$T/err" && grep -q "^usage: combosim $c" "$T/out" && [ ! -s "$T/err" ]; then
		ok "$c --help: usage on stdout, exit 0"
	else
		bad "$c --help: exit or output wrong: $(head -c 200 "$T/err")"
	fi
done
[ ! -e "$T/bad" ] && [ ! -e "$T/x" ] && ok "no results directory after bad input" || bad "bad input left a results directory"

# ---- timeline size: estimated before the run (a pilot of each policy), warned above 100 MB,
# refused above outputs.timeline_max_mb (exit 2, nothing written)
"$C" run experiments/default.json --set outputs.timeline=true --set duration_ms=20 -q --out "$T/tl0" 2>"$T/err"
[ $? -eq 0 ] && [ ! -s "$T/err" ] && ok "timeline: a small one runs without a warning" || bad "timeline small: $(head -c 300 "$T/err")"
SMS='outputs.timeline_lanes="sms"'
"$C" run experiments/default.json --set outputs.timeline=true --set "$SMS" --set duration_ms=200 -q --out "$T/tl1" 2>"$T/err"
est=$(sed -n 's/.*the timeline will take about \([0-9]*\) MB (5 policies over 200 ms.*/\1/p' "$T/err")
real=$(($(wc -c <"$T/tl1/timeline.json" 2>/dev/null || echo 0) / 1000000))
if [ -n "$est" ] && [ "$real" -gt 100 ] && [ $((est * 10)) -ge $((real * 8)) ] && [ $((est * 10)) -le $((real * 12)) ]; then
	ok "timeline: warned before the run, estimate $est MB within 20 % of the $real MB written"
else
	bad "timeline warning: estimate '$est' MB, written $real MB: $(head -c 300 "$T/err")"
fi
rm -rf "$T/tl0" "$T/tl1"
expect_error "timeline: refused above the default limit" 2 "above outputs.timeline_max_mb = 1000 MB" -- \
	run experiments/default.json --set outputs.timeline=true --set "$SMS" --set duration_ms=1000 --out "$T/tl2"
expect_error "timeline: refused above a lowered limit" 2 "above outputs.timeline_max_mb = 10 MB" -- \
	run experiments/default.json --set outputs.timeline=true --set "$SMS" --set duration_ms=50 --set outputs.timeline_max_mb=10 --out "$T/tl3"
[ ! -e "$T/tl2" ] && [ ! -e "$T/tl3" ] && ok "timeline: nothing written when refused" || bad "timeline: refused run left files"
expect_error "timeline: a limit without a timeline" 2 '$.outputs.timeline_max_mb: applies only with "timeline": true' -- \
	run experiments/default.json --set outputs.timeline_max_mb=10 --out "$T/tl4"

# ---- timeline options: window, policies, lanes, gzip (each changes what is written as asked)
TL="--set outputs.timeline=true --set duration_ms=100 -q"
# the slices of a timeline, one per line, without the separating comma
slices() { grep '^{"ph":"X"' "$1" | sed 's/,$//'; }
# slices overlapping [from, to) in us: ts < to and (ts + dur > from, or a zero-length one at from)
overlapping() { awk -v f="$2" -v t="$3" '{ match($0, /"ts":[0-9.]+/); ts = substr($0, RSTART + 5, RLENGTH - 5) + 0;
	match($0, /"dur":[0-9.]+/); d = substr($0, RSTART + 6, RLENGTH - 6) + 0;
	if (ts < t && (ts + d > f || ts >= f)) print }' "$1"; }
"$C" run experiments/default.json $TL --set "$SMS" --out "$T/tlall" 2>/dev/null
slices "$T/tlall/timeline.json" >"$T/all.x"
"$C" run experiments/default.json $TL --set "$SMS" --set outputs.timeline_from_ms=40 --set outputs.timeline_to_ms=45 \
	--out "$T/tlwin" 2>/dev/null
slices "$T/tlwin/timeline.json" >"$T/win.x"
overlapping "$T/all.x" 40000 45000 >"$T/want.x"
nwin=$(wc -l <"$T/win.x"); nall=$(wc -l <"$T/all.x")
if [ "$nwin" -gt 0 ] && [ "$nwin" -lt $((nall / 5)) ] && cmp -s "$T/win.x" "$T/want.x"; then
	ok "timeline window: exactly the $nwin of $nall slices overlapping 40-45 ms"
else
	bad "timeline window: $nwin slices written, $(wc -l <"$T/want.x") of $nall overlap 40-45 ms"
fi
"$C" run experiments/default.json $TL --set 'outputs.timeline_policies=["combo","be-alone"]' --out "$T/tlpol" 2>/dev/null
procs=$(grep -o '"process_name","pid":[0-9]*,"tid":0,"args":{"name":"[^"]*"' "$T/tlpol/timeline.json" | sed 's/.*"name":"//; s/"$//' | tr '\n' ,)
pids=$(slices "$T/tlpol/timeline.json" | grep -o '"pid":[0-9]*' | sort -u | tr '\n' ' ')
[ "$procs" = "policy be-alone,policy combo," ] && [ "$pids" = '"pid":1 "pid":4 ' ] &&
	ok "timeline policies: only be-alone and combo (pids 1, 4)" || bad "timeline policies: processes '$procs', slice pids '$pids'"
"$C" run experiments/default.json $TL --out "$T/tlstr" 2>/dev/null
nsm=$(grep -c '"thread_name".*"name":"SM ' "$T/tlall/timeline.json"); nsm0=$(grep -c '"name":"SM ' "$T/tlstr/timeline.json")
slices "$T/tlstr/timeline.json" >"$T/str.x"
grep '"tid":1[0-9]\{5\},' "$T/all.x" | cmp -s - "$T/str.x"; same=$?
[ "$nsm" -gt 100 ] && [ "$nsm0" -eq 0 ] && [ "$same" -eq 0 ] && [ -s "$T/str.x" ] &&
	ok "timeline lanes: streams by default (no SM lanes, the same stream slices), $nsm SM lanes with \"sms\"" ||
	bad "timeline lanes: $nsm SM lanes with sms, $nsm0 by default, stream slices differ: $same"
"$C" run experiments/default.json $TL --set outputs.timeline_gzip=true --out "$T/tlgz" 2>/dev/null
"$C" run experiments/default.json $TL --set outputs.timeline_gzip=true --out "$T/tlgz2" 2>/dev/null
if [ ! -e "$T/tlgz/timeline.json" ] && gunzip -c "$T/tlgz/timeline.json.gz" | cmp -s - "$T/tlstr/timeline.json" &&
	cmp -s "$T/tlgz/timeline.json.gz" "$T/tlgz2/timeline.json.gz"; then
	ok "timeline gzip: timeline.json.gz gunzips to the same JSON, byte-identical across runs"
else
	bad "timeline gzip: not the same JSON once gunzipped, or not deterministic"
fi
rm -rf "$T"/tlall "$T"/tlwin "$T"/tlpol "$T"/tlstr "$T"/tlgz "$T"/tlgz2 "$T"/*.x
# the estimate follows the options: the 276 MB of SM lanes over 200 ms shrink below the warning
"$C" run experiments/default.json --set outputs.timeline=true --set "$SMS" --set duration_ms=200 \
	--set outputs.timeline_gzip=true -q --out "$T/tl5" 2>"$T/err"
[ $? -eq 0 ] && [ ! -s "$T/err" ] && ok "timeline estimate: gzip SM lanes over 200 ms, no warning" || bad "timeline estimate gzip: $(head -c 300 "$T/err")"
expect_error "timeline estimate: a window 100x longer is refused" 2 "(1 policies over 100 ms" -- \
	run experiments/default.json --set outputs.timeline=true --set "$SMS" --set duration_ms=100 --set outputs.timeline_max_mb=10 \
	--set 'outputs.timeline_policies=["pilotfish"]' --set outputs.timeline_from_ms=0 --out "$T/tl6"
"$C" run experiments/default.json --set outputs.timeline=true --set "$SMS" --set duration_ms=100 --set outputs.timeline_max_mb=10 \
	--set 'outputs.timeline_policies=["pilotfish"]' --set outputs.timeline_to_ms=1 -q --out "$T/tl7" 2>"$T/err"
[ $? -eq 0 ] && ok "timeline estimate: the same over a 1 ms window is accepted" || bad "timeline estimate window: $(head -c 300 "$T/err")"
rm -rf "$T/tl5" "$T/tl6" "$T/tl7"
for kv in 'timeline_from_ms=100|$.outputs.timeline_from_ms: expected a time before the run'"'"'s end (duration_ms = 100), got 100' \
	'timeline_from_ms=-1|$.outputs.timeline_from_ms: expected a number' \
	'timeline_to_ms=5|$.outputs.timeline_to_ms: expected a time after timeline_from_ms (10), got 5' \
	'timeline_lanes="sm"|$.outputs.timeline_lanes: expected one of "streams", "sms", got "sm"' \
	'timeline_policies=["combo","nope"]|$.outputs.timeline_policies[1]: expected the label of one of $.policies, got "nope"' \
	'timeline_policies=["combo","combo"]|$.outputs.timeline_policies[1]: policy "combo" is listed twice' \
	'timeline_policies=[]|$.outputs.timeline_policies: expected at least one policy label' \
	'timeline_policies="combo"|$.outputs.timeline_policies: expected' \
	'timeline_gzip=1|$.outputs.timeline_gzip: expected a boolean'; do
	expect_error "timeline bad value: ${kv%%|*}" 2 "${kv#*|}" -- run experiments/default.json --set outputs.timeline=true \
		--set duration_ms=100 --set outputs.timeline_from_ms=10 --set "outputs.${kv%%|*}" --out "$T/tl8"
done
expect_error "timeline gzip without a timeline" 2 '$.outputs.timeline_gzip: applies only with "timeline": true' -- \
	run experiments/default.json --set outputs.timeline_gzip=true --out "$T/tl8"
[ ! -e "$T/tl8" ] && ok "timeline bad values: nothing written" || bad "timeline bad values left $T/tl8"

# outputs.kernels_csv / outputs.frames_csv false: those files are left out, the metrics do not move
"$C" run experiments/default.json --set duration_ms=300 --out "$T/all" >"$T/all.table" 2>&1
"$C" run experiments/default.json --set duration_ms=300 --set outputs.kernels_csv=false --set outputs.frames_csv=false \
	--out "$T/lean" >"$T/lean.table" 2>&1
if [ -s "$T/all/kernels.csv" ] && [ -s "$T/all/frames.csv" ] && [ ! -e "$T/lean/kernels.csv" ] &&
   [ ! -e "$T/lean/frames.csv" ] && [ -s "$T/lean/summary.json" ] &&
   grep -v '^results: ' "$T/all.table" >"$T/all.t" && grep -v '^results: ' "$T/lean.table" >"$T/lean.t" &&
   grep -q "^results: $T/lean/ (summary.json)\$" "$T/lean.table" &&
   cmp -s "$T/all.t" "$T/lean.t"; then
	ok "outputs.kernels/frames false: no kernels.csv, no frames.csv, the same table"
else
	bad "outputs.kernels/frames false: $(ls "$T/lean" 2>&1 | tr '\n' ' ')"
fi
expect_error "outputs.frames in a co-run experiment" 2 '$.outputs.frames_csv: applies only to experiments of type "run"' -- \
	run experiments/combo/table3.json --set outputs.frames_csv=false --out "$T/x"
expect_error "outputs.kernels not a boolean" 2 '$.outputs.kernels_csv' -- \
	run experiments/default.json --set outputs.kernels_csv=7 --out "$T/x"

# ---- output that cannot be written: a clear message, exit 1, no partial results directory
expect_error "unwritable results directory" 1 "cannot create results directory" -- \
	run experiments/default.json --out /proc/combosim-nope/x
if [ "$(id -u)" = 0 ] && mkdir -p "$T/full" && mount -t tmpfs -o size=200k tmpfs "$T/full" 2>/dev/null; then
	"$C" run experiments/default.json --out "$T/full/r" -q 2>"$T/full.err"; rc=$?
	if [ $rc -eq 1 ] && grep -Eq "disk full|No space left on device" "$T/full.err" && [ -z "$(ls -A "$T/full")" ]; then
		ok "full disk: exit 1, message, nothing left behind"
	else
		bad "full disk: rc=$rc, $(cat "$T/full.err"), left: $(ls -A "$T/full")"
	fi
	umount "$T/full"
fi

# ---- determinism: same experiment + seed -> identical bytes
"$C" run experiments/default.json --set duration_ms=300 --set outputs.timeline=true --out "$T/a" -q &&
"$C" run experiments/default.json --set duration_ms=300 --set outputs.timeline=true --out "$T/b" -q
if [ $? -eq 0 ] && diff -r "$T/a" "$T/b" >/dev/null; then ok "two runs give identical bytes"; else bad "two runs differ"; fi
"$C" run experiments/default.json --set duration_ms=300 --set seed=2 --set outputs.timeline=true --out "$T/c" -q
if ! cmp -s "$T/a/frames.csv" "$T/c/frames.csv"; then ok "another seed gives other frames"; else bad "seed has no effect"; fi

# ---- policy.h v2 workloads: a closed-loop game (varied CPU phase) beside an open 60 fps one, a
# BE app two kernels deep: identical bytes twice, and each closed-loop frame released 0.5-2 ms
# (cpu_ms 1 x the clipped variation) after the previous one was presented
hooks() {
	"$C" run experiments/default.json --set duration_ms=300 --set games[0].loop=closed --set games[0].cpu_ms=1 \
		--set games[0].cpu_cv=0.2 --set 'games[1]={"name":"g2","fps":60,"frame":["game_shade"]}' --set apps[0].depth=2 \
		--set 'policies=[{"name":"static","game_share":0.75},{"name":"combo"}]' --set baseline=null --out "$1" -q
}
if hooks "$T/h1" && hooks "$T/h2" && diff -r "$T/h1" "$T/h2" >/dev/null; then ok "closed loop, two games, depth 2: identical bytes"; else bad "closed loop, two games, depth 2: runs differ or failed"; fi
if awk -F, '$2 == "game" && $10 == 0 { if (($1 in fin) && ($4 - fin[$1] < 500000 || $4 - fin[$1] > 2000000)) bad++; fin[$1] = $6; n++ }
	$2 == "g2" && $4 != sprintf("%.0f", $3 * 16666667) { bad++ }
	END { exit !(n > 20 && !bad) }' "$T/h1/frames.csv"; then
	ok "closed-loop frames released after their CPU phase, the open game on its clock"
else
	bad "closed-loop or open-loop release times wrong"
fi

# ---- outputs are what they say
for f in summary.json frames.csv kernels.csv timeline.json; do
	[ -s "$T/a/$f" ] && ok "writes $f" || bad "missing $f"
done
if ! command -v python3 >/dev/null; then
	ok "timeline.json check skipped (no python3)"
elif python3 - "$T/a/timeline.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
assert ev and all(e["ph"] in "XM" for e in ev)
tracks = {}
for e in ev:
    if e["ph"] == "X":
        assert e["dur"] >= 0
        tracks.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["ts"] + e["dur"]))
# complete events on one track must not overlap (Perfetto nests them otherwise)
for t in tracks.values():
    t.sort()
    for (a0, a1), (b0, b1) in zip(t, t[1:]):
        assert b0 >= a1 - 1e-9, (a0, a1, b0, b1)
PY
then
	ok "timeline.json is a Chrome trace with non-overlapping slices per track"
else
	bad "timeline.json is not a well-formed Chrome trace"
fi

# ---- frame latency percentiles (kept in a bounded histogram) agree with the exact ones
if command -v python3 >/dev/null && python3 - "$T/a" <<'PY'
import csv, json, sys
d = sys.argv[1]
lat = {}
for r in csv.DictReader(open(d + "/frames.csv")):
    if r["dropped"] == "0":
        lat.setdefault(r["policy"], []).append(int(r["latency_ns"]) / 1e6)
def q(v, p):   # GSL's gsl_stats_quantile_from_sorted_data
    v = sorted(v); x = (len(v) - 1) * p; i = int(x)
    return v[i] if i + 1 >= len(v) else (1 - (x - i)) * v[i] + (x - i) * v[i + 1]
for run in json.load(open(d + "/summary.json"))["runs"]:
    for g in run["games"]:
        v = lat[run["policy"]]
        for p, k in ((0.5, "latency_p50_ms"), (0.99, "latency_p99_ms")):
            assert abs(q(v, p) - g[k]) <= 0.001, (run["policy"], k, q(v, p), g[k])
        assert abs(max(v) - g["latency_max_ms"]) < 1e-9
PY
then ok "latency percentiles within 1 us of the exact ones"; else bad "latency percentiles differ from frames.csv"; fi

# ---- COMBO Table 3: within 1 percentage point of the paper
"$C" run experiments/combo/table3.json --out "$T/t3" -q || bad "table3 run failed"
if awk -F, 'NR>1 { d=$4-$3; if (d<0) d=-d; if (d>1.0) { print "  " $1 ": sim " $4 " paper " $3; bad=1 } } END { exit bad }' "$T/t3/reproduction.csv"; then
	ok "Table 3: six pairs within 1 pp"
else
	bad "Table 3 off by more than 1 pp"
fi
"$C" run experiments/combo/table3.json --out "$T/t3b" >"$T/t3.txt" 2>&1
if [ "$(grep -c 'calibration input' "$T/t3.txt")" = 3 ] && grep 'kRT+kCD' "$T/t3.txt" | grep -q 'calibration input' &&
   ! grep 'kRT+kRT' "$T/t3.txt" | grep -q 'calibration'; then
	ok "Table 3 in the terminal: the three calibration rows marked, the predictions not"
else
	bad "Table 3's terminal rows do not mark calibration inputs as reproduction.csv does: $(head -4 "$T/t3.txt")"
fi

# ---- COMBO Fig. 4 vs Fig. 7: original kernels barely overlap, PTB kernels do
"$C" run experiments/combo/fig4_fig7.json --out "$T/f47" -q || bad "fig4_fig7 run failed"
f4=$(awk -F, '$1=="fig4_rt_cd_makespan_reduction_mean" {print $4}' "$T/f47/reproduction.csv")
f7=$(awk -F, '$1=="fig7_rt_cd_makespan_reduction_mean" {print $4}' "$T/f47/reproduction.csv")
tc=$(awk -F, '$1=="fig7_rt_tc_makespan_reduction_max" {print $4}' "$T/f47/reproduction.csv")
if awk -v a="$f4" -v b="$f7" -v c="$tc" 'BEGIN { exit !(a < 5 && b > a + 5 && c < 2) }'; then
	ok "Fig. 4/7 contrast: original RT+CD $f4 %, PTB RT+CD $f7 %, PTB RT+TC max $tc %"
else
	bad "Fig. 4/7 contrast missing: original RT+CD '$f4', PTB RT+CD '$f7', PTB RT+TC max '$tc'"
fi

# ---- COMBO Table 6: exact sharing wins under stable load, relaxed under dynamic load (a
# changing partition costs the exact scheme)
"$C" trace gen be --app mri-q >"$T/mri-q.json"
"$C" run experiments/combo/table6.json -q --set "apps[0].queue=$T/mri-q.json" --out "$T/t6a" &&
"$C" run experiments/combo/table6.json -q --set "apps[0].queue=$T/mri-q.json" --set games[0].trace=table6/dynamic.csv --out "$T/t6b" &&
sh experiments/combo/table6/report.sh "$T/t6a" "$T/t6b" "$T/t6" >/dev/null
if awk -F, '{ v[$1] = $4; p[$1] = $3 } END {
	ok = v["table6_exact_stable"] > v["table6_relaxed_stable"] &&
	     v["table6_relaxed_dynamic"] > v["table6_exact_dynamic"] &&
	     v["table6_exact_dynamic"] / v["table6_exact_stable"] < v["table6_relaxed_dynamic"] / v["table6_relaxed_stable"]
	for (m in v) if (m ~ /_stable$/ && (v[m] - p[m]) / p[m] > 0.10 || m ~ /_stable$/ && (p[m] - v[m]) / p[m] > 0.10) ok = 0
	exit !ok }' "$T/t6/reproduction.csv"; then
	ok "Table 6: exact > relaxed when stable, relaxed > exact when dynamic; stable within 10 % of the paper"
else
	bad "Table 6: $(tr '\n' ' ' <"$T/t6/reproduction.csv")"
fi

# ---- COMBO §5.2: a frame whose render group changes (original render kernels) sacrifices the
# BE work in that frame: no BE kernel is launched while such an exact frame renders
if awk -F, 'FNR == 1 { next }
	NR == FNR { if ($1 == "exact" && $11 ~ /^exact-[0-9]+-original$/) { s[++n] = $5; e[n] = $6 } next }
	$1 == "exact" && $6 == -1 { for (i = 1; i <= n; i++) if ($8 >= s[i] && $8 < e[i]) bad++ ; launched++ }
	END { exit !(n > 0 && launched > 0 && bad == 0) }' "$T/t6b/frames.csv" "$T/t6b/kernels.csv"; then
	ok "COMBO: no BE kernel launched during an exact frame with original render kernels"
else
	bad "COMBO launched BE kernels during exact frames with original render kernels"
fi

# ---- COMBO Fig. 2, 15-18 and §6.7 mechanisms, on workloads generated into $T (not build/figures)
W=$T/w
sh experiments/combo/fig13/workloads.sh "$C" "$W" high 1 1 240 && sh experiments/combo/fig15/workloads.sh "$C" "$W" 240 || bad "Fig. 15-18 workloads failed"
# value METRIC CSV: the sim column of a reproduction.csv row
value() { awk -F, -v m="$1" '$1 == m { print $4 }' "$2"; }

# Fig. 2: Pilotfish shares the GPU in time (the classes' active time and the unused time add up
# to the run: never two at once); COMBO overlaps them
"$C" run experiments/combo/fig2.json -q --set duration_ms=2000 --set "games[0].trace=$W/quake2.csv" \
	--set 'policies=[{"name":"pilotfish"},{"name":"combo"}]' --out "$T/f2" || bad "fig2 run failed"
sums=$(awk '/"policy":/ { gsub(/[",\t ]/, ""); split($0, kv, ":"); p = kv[2] }
	/"active_fraction":/ { a = 1; s = 0; next } a && /}/ { a = 0 } a { gsub(/[",\t ]/, ""); split($0, kv, ":"); s += kv[2] }
	/"gpu_idle_fraction":/ { gsub(/[",\t ]/, ""); split($0, kv, ":"); printf "%s=%.4f ", p, s + kv[2] }' "$T/f2/summary.json")
if echo "$sums" | awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
	END { d = v["pilotfish"] - 1; exit !(d < 0.005 && d > -0.005 && v["combo"] > 1.1) }'; then
	ok "Fig. 2: Pilotfish's kernel classes never overlap, COMBO's do (active + unused: $sums)"
else
	bad "Fig. 2: active + unused time: $sums"
fi

# Fig. 15: headroom merging delays every second frame and so makes fewer, larger headrooms, and
# the BE apps get more done
"$C" run experiments/combo/fig15.json -q --set duration_ms=2000 --set "games[0].trace=$W/quake2-dynamic.csv" \
	--set "apps[0].queue=$W/mri-q.json" --out "$T/f15" && sh experiments/combo/fig15/report.sh "$T/f15" "$T/f15r" >/dev/null || bad "fig15 run failed"
thr=$(awk '/"policy":/ { gsub(/[",\t ]/, ""); split($0, kv, ":"); p = kv[2] } /"total":/ { gsub(/[",\t ]/, ""); split($0, kv, ":"); printf "%s=%.4f ", p, kv[2] }' "$T/f15/summary.json")
r=$T/f15r/reproduction.csv
if awk -v mf="$(value fig15_merged_frames "$r")" -v hm="$(value fig15_headroom_mean_merge "$r")" -v hn="$(value fig15_headroom_mean_nomerge "$r")" \
	-v xm="$(value fig15_headroom_max_merge "$r")" -v xn="$(value fig15_headroom_max_nomerge "$r")" -v thr="$thr" 'BEGIN {
	split(thr, a, "[ =]"); for (i = 1; i < length(a); i += 2) t[a[i]] = a[i + 1]
	exit !(mf > 40 && hm > 1.15 * hn && xm > 1.5 * xn && t["merge"] > 1.1 * t["no-merge"]) }'; then
	ok "Fig. 15: merging delays $(value fig15_merged_frames "$r") % of frames, mean headroom $(value fig15_headroom_mean_nomerge "$r") -> $(value fig15_headroom_mean_merge "$r") ms, BE $thr"
else
	bad "Fig. 15: merged $(value fig15_merged_frames "$r") %, headroom mean $(value fig15_headroom_mean_nomerge "$r") -> $(value fig15_headroom_mean_merge "$r"), max $(value fig15_headroom_max_nomerge "$r") -> $(value fig15_headroom_max_merge "$r"), BE $thr"
fi

# Fig. 18: on Severed Steel, 240 stable then 240 dynamic frames, COMBO takes the exact scheme in
# the stable part and switches back and forth in the dynamic part; COMBO-NM never merges
"$C" run experiments/combo/fig18.json -q --set duration_ms=4000 --set "games[0].trace=$W/steel.csv" --set "apps[0].queue=$W/mri-q.json" \
	--set 'policies=[{"name":"combo"},{"name":"combo-nm"}]' --out "$T/f18" &&
	sh experiments/combo/fig18/report.sh "$T/f18" "$W/steel.csv" 240 "$T/f18r" >/dev/null || bad "fig18 run failed"
r=$T/f18r/reproduction.csv
es=$(value fig18_exact_frames_stable "$r"); ed=$(value fig18_exact_frames_dynamic "$r"); sd=$(value fig18_switches_dynamic "$r")
if awk -v es="$es" -v ed="$ed" -v sd="$sd" 'BEGIN { exit !(es > 90 && ed < 85 && ed > 15 && sd >= 4) }'; then
	ok "Fig. 18: exact in $es % of stable frames, $ed % of dynamic ones, $sd switches there"
else
	bad "Fig. 18: exact in $es % of stable frames, $ed % of dynamic ones, $sd switches there"
fi
mc=$(awk -F, '$1 == "combo" && $11 ~ /-merged$/' "$T/f18/frames.csv" | wc -l)
mn=$(awk -F, '$1 == "combo-nm" && $11 ~ /-merged$/' "$T/f18/frames.csv" | wc -l)
nn=$(awk -F, '$1 == "combo-nm"' "$T/f18/frames.csv" | wc -l)
if [ "$mc" -gt 0 ] && [ "$mn" -eq 0 ] && [ "$nn" -gt 400 ] && grep -q '"merged_frames":	0' "$T/f18/summary.json"; then
	ok "COMBO-NM never merges ($nn frames; COMBO merged $mc)"
else
	bad "merging: COMBO merged $mc frames, COMBO-NM $mn of $nn"
fi

# ---- The mechanisms experiments/combo/gaps.md names for the gaps to the paper
# Fig. 2: under Pilotfish a DNN job runs its kernels in order, each only where it fits the
# headroom; the first VGG16 kernel on the RTX 3090 longer than any headroom the game load
# leaves stops the job there (the VGG16 pairs' unused share)
"$C" run experiments/combo/fig2.json -q --set duration_ms=2000 --set "games[0].trace=$W/quake2.csv" \
	--set 'apps[0].queue=../../traces/dnn/rtx3090/vgg16.json' --out "$T/g2v" || bad "Fig. 2 VGG16 run failed"
nv=$(awk -F, '$5 == "dnn" && $10 >= 0' "$T/g2v/kernels.csv" | wc -l)
room=$(awk -F, '/^[0-9]/ { if (min == "" || $2 < min) min = $2 } END { print (1000 / 120 - min) * 1000 }' "$W/quake2.csv")
first=$(grep '^ *{ "name":' traces/dnn/rtx3090/vgg16.json | sed 's/.*"solo_us": *\([0-9.]*\).*/\1/' |
	awk -v r="$room" '$1 > r { print NR " " $1; exit }')
if [ -n "$first" ] && [ "$nv" -eq $((${first% *} - 1)) ]; then
	ok "Fig. 2: Pilotfish's VGG16 job stops after $nv kernels (kernel ${first% *}, ${first#* } us, exceeds the largest headroom, $room us)"
else
	bad "Fig. 2: VGG16 under Pilotfish ran $nv kernels; first kernel longer than the largest headroom ($room us): '$first'"
fi
# Fig. 2 and 13: the dynamic frames leave at most 1/fps less 0.80 of the peak (about 1.67 ms),
# shorter than ResNet-50's longest kernel, so Pilotfish's ResNet-50 job stops in the dynamic
# stretch at a kernel that fits no headroom there (the unused share of the non-VGG16 pairs)
"$C" run experiments/combo/fig2.json -q --set duration_ms=4000 --set "games[0].trace=$W/quake2.csv" \
	--set 'apps[0].queue=../../traces/dnn/rtx3090/resnet50.json' --set outputs.kernels_csv=true --out "$T/g2r" ||
	bad "Fig. 2 ResNet-50 run failed"
nr=$(awk -F, '$5 == "dnn" && $9 >= 0' "$T/g2r/kernels.csv" | wc -l)
lastr=$(awk -F, '$5 == "dnn" && $9 >= 0 { if ($9 > m) m = $9 } END { printf "%.0f\n", m }' "$T/g2r/kernels.csv")
droom=$(awk -F, '/^[0-9]/ && $1 >= 240 { if (min == "" || $2 < min) min = $2 } END { print (1000 / 120 - min) * 1000 }' "$W/quake2.csv")
qn=$(grep -c '^ *{ "name":' traces/dnn/rtx3090/resnet50.json)
nextr=$(grep '^ *{ "name":' traces/dnn/rtx3090/resnet50.json | sed 's/.*"solo_us": *\([0-9.]*\).*/\1/' | sed -n "$((nr % qn + 1))p")
if [ "$lastr" -ge 2000000000 ] && [ "$lastr" -lt 3900000000 ] && awk -v k="$nextr" -v r="$droom" 'BEGIN { exit !(k > r) }'; then
	ok "Fig. 2: Pilotfish's ResNet-50 job stops at $lastr ns in the dynamic stretch: its next kernel ($nextr us) exceeds the dynamic headroom ($droom us)"
else
	bad "Fig. 2: Pilotfish's ResNet-50 job: last start $lastr ns, next kernel '$nextr' us, largest dynamic headroom $droom us"
fi
# Fig. 13 per game: the four games' stable stretches are the same load (the same fraction of
# the same Table-4 peak), so Pilotfish's BE work there is the same in every game, and the
# dynamic stretch, where the games differ, carries a small share of either policy's BE work:
# the games' means lie close together whatever their order
pg=""
for g in quake2 steel dutm ascent; do
	"$C" run experiments/combo/fig13.json -q --set duration_ms=4000 --set "games[0].trace=$W/$g.csv" --set "games[0].profile=$g" \
		--set "games[0].name=$g" --set "apps[0].queue=$W/mri-q.json" --set outputs.kernels_csv=true --out "$T/pg-$g" || bad "Fig. 13 $g run failed"
	pg="$pg$(awk -F, -v g="$g" 'NR > 1 && $5 != g && $10 >= 0 { w[$1, $10 < 2e9 ? "s" : "d"] += $11 }
		END { printf "%s %.0f %.0f %.0f %.0f\n", g, w["pilotfish", "s"], w["pilotfish", "d"], w["combo", "s"], w["combo", "d"] }' "$T/pg-$g/kernels.csv")
"
done
if echo "$pg" | awk 'NF == 5 { n++; if (!ref) ref = $2; if ($2 < 0.99 * ref || $2 > 1.01 * ref) bad = 1
		if ($3 > 0.25 * ($2 + $3) || $5 > 0.25 * ($4 + $5)) bad = 1 } END { exit !(n == 4 && !bad) }'; then
	ok "Fig. 13 per game: Pilotfish's stable-stretch BE work equal, the dynamic stretch under 25 % (BE solo ns, game pf-stable pf-dynamic combo-stable combo-dynamic: $(echo "$pg" | sed '/^$/d' | paste -sd';'))"
else
	bad "Fig. 13 per game: BE solo ns (game pf-stable pf-dynamic combo-stable combo-dynamic): $(echo "$pg" | sed '/^$/d' | paste -sd';')"
fi
# Run length: COMBO's first 10 frames profile the game alone (no BE kernel starts before the
# 10th frame ends), a fixed cost that a short run overweights
"$C" run experiments/combo/fig13.json -q --set duration_ms=2000 --set "games[0].trace=$W/quake2.csv" \
	--set "apps[0].queue=$W/cp.json" --set baseline=null --set 'policies=[{"name":"combo"},{"name":"combo-intra"}]' --out "$T/g13" ||
	bad "Fig. 13 stable-half run failed"
f10=$(awk -F, '$1 == "combo" && $3 == 9 { print $6 }' "$T/g13/frames.csv")
be0=$(awk -F, '$1 == "combo" && ($5 == "parboil" || $5 == "dnn") && $9 >= 0 { if (m == "" || $9 < m) m = $9 } END { print m }' "$T/g13/kernels.csv")
if [ -n "$f10" ] && [ -n "$be0" ] && [ "$be0" -ge "$f10" ]; then
	ok "COMBO profiles 10 frames alone: its first BE kernel starts at $be0 ns, frame 9 ends at $f10 ns"
else
	bad "COMBO's first BE kernel at '$be0' ns, frame 9 ends at '$f10' ns"
fi
# Fig. 17: in the stable load (the first 2 s), a compute-bound CD app gets more from relaxed
# intra-SM sharing (headroom plus RT+CD co-runs) than from COMBO's exact scheme; a DRAM-bound
# one (lbm) more from the exact scheme's BE group
"$C" run experiments/combo/fig13.json -q --set duration_ms=2000 --set "games[0].trace=$W/quake2.csv" \
	--set "apps[0].queue=$W/lbm.json" --set 'apps[1].queue=../../traces/dnn/rtx3090/vgg16.json' \
	--set baseline=null --set 'policies=[{"name":"combo"},{"name":"combo-intra"}]' --out "$T/g13l" || bad "Fig. 13 lbm run failed"
thr() { awk '/"policy":/ { gsub(/[",\t ]/, ""); split($0, kv, ":"); p = kv[2] } /"total":/ { gsub(/[",\t ]/, ""); split($0, kv, ":"); printf "%s=%s ", p, kv[2] }' "$1"; }
tc=$(thr "$T/g13/summary.json"); tl=$(thr "$T/g13l/summary.json")
if echo "$tc|$tl" | awk -F'|' '{ split($1, a, "[ =]"); split($2, b, "[ =]"); for (i = 1; i < length(a); i += 2) x[a[i]] = a[i + 1]
	for (i = 1; i < length(b); i += 2) y[b[i]] = b[i + 1]; exit !(x["combo-intra"] > x["combo"] && y["combo"] > y["combo-intra"]) }'; then
	ok "Fig. 17: stable load, cp + ResNet-50: intra-SM > COMBO ($tc); lbm + VGG16: COMBO > intra-SM ($tl)"
else
	bad "Fig. 17 mechanism: cp + ResNet-50: $tc; lbm + VGG16: $tl"
fi

# §6.7: the decisions' wall-clock cost is measured only when asked for (it is not reproducible)
"$C" run experiments/combo/overhead.json -q --set duration_ms=500 --set "apps[0].queue=$W/mri-q.json" \
	--set "games[0].trace=$W/quake2.csv" --out "$T/ov" && sh experiments/combo/overhead/report.sh "$T/ov" "$T/ovr" >/dev/null || bad "overhead run failed"
pr=$(value overhead_predict_avg "$T/ovr/reproduction.csv"); se=$(value overhead_select_avg "$T/ovr/reproduction.csv")
if awk -v p="$pr" -v s="$se" 'BEGIN { exit !(p > 0 && p < 1 && s > 0 && s < 1) }' && ! grep -q '_ms_avg' "$T/f18/summary.json"; then
	ok "§6.7 overhead: predict $pr ms, select $se ms; absent unless measure_overhead"
else
	bad "§6.7 overhead: predict '$pr' ms, select '$se' ms (or measured without measure_overhead)"
fi

# ---- sweeps: -j 1 and -j 2 agree; an interrupted sweep resumes without redoing finished runs
SW=experiments/sweeps/default_seeds.json
"$C" sweep $SW -j 1 --out "$T/sw1" 2>/dev/null && "$C" sweep $SW -j 2 --out "$T/sw2" 2>/dev/null
if cmp -s "$T/sw1/sweep.csv" "$T/sw2/sweep.csv" && [ "$(wc -l <"$T/sw1/sweep.csv")" -eq 17 ]; then
	ok "sweep: -j 1 and -j 2 give the same sweep.csv (16 runs)"
else
	bad "sweep: -j 1 and -j 2 differ or runs are missing"
fi
rm -rf "$T/sw2/runs/000003" "$T/sw2/runs/000007" "$T/sw2/runs/000011"
mkdir -p "$T/sw2/runs/000005.tmp-99999"           # a run killed mid-write: never counted
touch -d '2000-01-01' "$T/sw2/runs/000000/summary.json"
"$C" sweep $SW -j 2 --out "$T/sw2" 2>"$T/sw.err"
if grep -q "16 points, 3 to run, 13 finished before" "$T/sw.err" && cmp -s "$T/sw1/sweep.csv" "$T/sw2/sweep.csv" &&
   [ ! -e "$T/sw2/runs/000005.tmp-99999" ] &&
   [ "$(stat -c %Y "$T/sw2/runs/000000/summary.json")" -lt 1000000000 ]; then
	ok "sweep: resumes only the 3 missing runs, keeps finished ones, same sweep.csv"
else
	bad "sweep resume: $(cat "$T/sw.err")"
fi
setsid "$C" sweep $SW -j 2 --out "$T/sw3" 2>/dev/null &
sleep 0.15; kill -TERM -- -$! 2>/dev/null; wait $! 2>/dev/null
"$C" sweep $SW -j 2 --out "$T/sw3" 2>/dev/null
if cmp -s "$T/sw1/sweep.csv" "$T/sw3/sweep.csv"; then ok "sweep: killed and resumed, same sweep.csv"; else bad "sweep: killed + resumed differs"; fi
# ---- combosim batch: a sweep's job lines in one process; a bad line fails alone
printf "'x' run experiments/default.json --set duration_ms=50 -q --out '%s/b1'\n\n'x' walk\n'x' run experiments/default.json --set duration_ms=50 -q --out '%s/b2'\n" "$T" "$T" |
	"$C" batch >/dev/null 2>"$T/batch.err"; rc=$?
if [ $rc -eq 2 ] && grep -q "line 3: expected a command line 'COMBOSIM run ...'" "$T/batch.err" &&
   [ -s "$T/b1/summary.json" ] && [ -s "$T/b2/summary.json" ]; then
	ok "batch: runs every good line, exit 2 for the bad one"
else
	bad "batch: exit $rc, $(head -c 300 "$T/batch.err")"
fi
printf "'x' run experiments/default.json --set 'outputs.frames_csv=false' --out '%s/b3'\n" "$T" |
	"$C" batch --under "$T/sw1/runs/" >/dev/null 2>"$T/batch.err"; rc=$?
if [ $rc -eq 2 ] && grep -qF "expected a run whose --out lies under $T/sw1/runs/" "$T/batch.err" && [ ! -e "$T/b3" ]; then
	ok "batch --under: a line writing elsewhere is refused"
else
	bad "batch --under: exit $rc, $(head -c 300 "$T/batch.err")"
fi
# batch --chunk K/N: lines K, K+N, ...; the chunks together run every line once
for i in 1 2 3 4 5; do
	printf "'x' run experiments/default.json --set duration_ms=20 --set seed=%d -q --out '%s/ch/%d'\n" $i "$T" $i
done >"$T/ch.txt"
"$C" batch --chunk 2/3 "$T/ch.txt" 2>/dev/null; r2=$(ls "$T/ch" 2>/dev/null | tr '\n' ' ')
"$C" batch --chunk 1/3 "$T/ch.txt" 2>/dev/null && "$C" batch --chunk 3/3 "$T/ch.txt" 2>/dev/null
"$C" batch --chunk 4/3 "$T/ch.txt" 2>"$T/ch.err"; rc=$?
"$C" run experiments/default.json --set duration_ms=20 --set seed=5 -q --out "$T/ch5" 2>/dev/null
if [ "$r2" = "2 5 " ] && [ "$(ls "$T/ch" | tr '\n' ' ')" = "1 2 3 4 5 " ] && [ $rc -eq 2 ] &&
   grep -q "expects K/N with 1 <= K <= N, got '4/3'" "$T/ch.err" && cmp -s "$T/ch/5/frames.csv" "$T/ch5/frames.csv"; then
	ok "batch --chunk: chunk 2/3 runs lines 2 and 5, the three chunks every line, as single runs do"
else
	bad "batch --chunk: chunk 2/3 ran '$r2', all: $(ls "$T/ch" | tr '\n' ' '), bad chunk exit $rc"
fi
# the Slurm array script: task K of N runs chunk K/N (no Slurm needed to check that)
"$C" sweep $SW --dry-run --out "$T/sl" >/dev/null 2>&1
for k in 1 2 3; do SLURM_ARRAY_TASK_ID=$k SLURM_ARRAY_TASK_COUNT=3 bash experiments/slurm/sweep.sbatch "$T/sl" 2>/dev/null; done
if [ "$(ls "$T/sl/runs" | wc -l)" -eq 16 ] && "$C" sweep $SW --out "$T/sl" 2>"$T/sl.err" &&
   grep -q "16 points, 0 to run, 16 finished before" "$T/sl.err" && cmp -s "$T/sw1/sweep.csv" "$T/sl/sweep.csv"; then
	ok "Slurm array script: 3 tasks run the 16 points in chunks, same sweep.csv"
else
	bad "Slurm array script: $(ls "$T/sl/runs" 2>/dev/null | wc -l) runs; $(head -c 300 "$T/sl.err" 2>/dev/null)"
fi
# other hosts: the GNU parallel command a sweep would run (no ssh needed to check it)
printf 'a.example\n2/b.example\n' >"$T/hosts"
"$C" sweep $SW -j 2 --hosts "$T/hosts" --transfer --dry-run --out "$T/sh" 2>"$T/sh.err"
"$C" sweep $SW -j 3 --dry-run --out "$T/sl2" 2>"$T/sl2.err"
"$C" sweep $SW --transfer --dry-run --out "$T/sh2" 2>"$T/sh2.err"; rc=$?
shd=$(cd "$T/sh" && pwd)
if grep -qF "'--sshloginfile' '$T/hosts'" "$T/sh.err" && grep -qF "'--basefile' '$(pwd)/experiments/default.json'" "$T/sh.err" &&
   grep -qF "'--basefile' '$(pwd)/models/rtx3090.json'" "$T/sh.err" && grep -qF "'--basefile' '$shd/jobs.txt'" "$T/sh.err" &&
   grep -qF "'--return' '$shd/runs'" "$T/sh.err" && grep -qF "'batch' '--under' '$shd/runs/' '--chunk' '{}/4' '$shd/jobs.txt' ':::' '1' '2' '3' '4'" "$T/sh.err" &&
   grep -qF "PARALLEL_RSYNC_OPTS='-rlDzR --exclude=*.tmp-* --exclude=*.old-*'" "$T/sh.err" &&
   grep -qF "'-j' '3' '-q'" "$T/sl2.err" && ! grep -q "basefile\|sshlogin" "$T/sl2.err" && grep -qF "'{}/6'" "$T/sl2.err" &&
   [ $rc -eq 2 ] && grep -q "give --hosts" "$T/sh2.err" && [ ! -e "$T/sh/runs" ]; then
	ok "sweep --hosts --transfer: basefiles, return of runs/, chunked batch jobs; --transfer needs --hosts"
else
	bad "sweep --hosts --transfer --dry-run: $(head -c 600 "$T/sh.err") / $(head -c 300 "$T/sh2.err")"
fi
# --hosts --transfer end to end, through a stand-in for ssh that runs here (needs rsync)
if command -v rsync >/dev/null 2>&1; then
	printf '1/host-a\n1/host-b\n' >"$T/hosts2"
	FAKESSH_LOG=$T/ssh.log PARALLEL_SSH="$(pwd)/tests/fakessh.sh" "$C" sweep $SW --hosts "$T/hosts2" --transfer --out "$T/tr" 2>"$T/tr.err"
	if cmp -s "$T/sw1/sweep.csv" "$T/tr/sweep.csv" && [ "$(grep -c 'rsync --server --sender' "$T/ssh.log")" -eq 2 ] &&
	   grep -q "host-a" "$T/ssh.log" && grep -q "host-b" "$T/ssh.log"; then
		ok "sweep --hosts --transfer: 2 hosts, basefiles out, runs back (stand-in ssh), same sweep.csv"
	else
		bad "sweep --hosts --transfer: $(head -c 300 "$T/tr.err")"
	fi
else
	ok "sweep --hosts --transfer end to end: skipped (no rsync)"
fi
expect_error "sweep: bad grid" 2 '$.grid.seed.range: expected [first, last] or [first, last, step]' -- \
	sweep tests/bad_sweeps/range.json --out "$T/swbad"

# ---- outputs.frames_csv / kernels_csv false: the file is not written, the rest is unchanged
"$C" run experiments/default.json --set duration_ms=50 -q --out "$T/csv1" 2>/dev/null
"$C" run experiments/default.json --set duration_ms=50 --set 'outputs={"frames_csv": false}' -q --out "$T/csv2" 2>/dev/null
"$C" run experiments/default.json --set duration_ms=50 --set 'outputs={"kernels_csv": false}' -q --out "$T/csv3" 2>/dev/null
if [ ! -e "$T/csv2/frames.csv" ] && cmp -s "$T/csv1/kernels.csv" "$T/csv2/kernels.csv" && [ ! -e "$T/csv3/kernels.csv" ] &&
	cmp -s "$T/csv1/frames.csv" "$T/csv3/frames.csv" && [ -s "$T/csv2/summary.json" ] && [ -s "$T/csv3/summary.json" ]; then
	ok "outputs.frames_csv / kernels_csv false leave that file out, the other as it was"
else
	bad "outputs.frames_csv / kernels_csv: $(ls "$T/csv2" "$T/csv3" | tr '\n' ' ')"
fi
rm -rf "$T/csv1" "$T/csv2" "$T/csv3"

# ---- every shipped experiment runs on a clone as it stands (briefly), every shipped sweep's
# points load; generated inputs (build/) are not needed
shipped=0 broken=""
for f in experiments/*.json experiments/*/*.json; do
	case $f in
	experiments/sweeps/*) "$C" sweep "$f" --dry-run --out "$T/shipped-sweep" >/dev/null 2>"$T/shipped.err" ;;
	*/workloads/*) continue ;;
	*_sweep.json) "$C" sweep "$f" --dry-run --out "$T/shipped-sweep" >/dev/null 2>"$T/shipped.err" ;;
	*) "$C" run "$f" --set duration_ms=5 -q --out "$T/shipped" 2>"$T/shipped.err" ;;
	esac || broken="$broken $f ($(head -c 200 "$T/shipped.err"))"
	shipped=$((shipped + 1))
done
if [ -z "$broken" ]; then ok "all $shipped shipped experiments and sweeps load and run"; else bad "shipped experiments fail:$broken"; fi

echo "e2e: $((n-fails))/$n passed"
[ $fails -eq 0 ]
