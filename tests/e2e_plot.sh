#!/bin/sh
# End-to-end checks of occupancy.csv (outputs.occupancy_ms) and `combosim plot`: the per-workload
# occupancy adds up to summary.json's, the figures' data agree with summary.json, every figure
# is drawn, and bad input or a missing gnuplot gets its exit code and message.  $COMBOSIM is
# the binary.
NAME=e2e-plot
. tests/e2e_lib.sh

# summary.json's number KEY (the first after "policy": "P"), by awk over its pretty JSON
summary_num() {
	awk -v p="\"policy\":[ \t]*\"$1\"" -v k="\"$2\":" '$0 ~ p { on = 1 } on && index($0, k) {
		sub(/.*:[ \t]*/, ""); sub(/,$/, ""); print; exit }' "$R/summary.json"
}

R="$T/run"
"$C" run experiments/default.json -q --set duration_ms=200 --set outputs.occupancy_ms=10 --out "$R" >/dev/null 2>"$T/err" ||
	bad "run with occupancy_ms: $(head -c 300 "$T/err")"
check "occupancy.csv written with its header" "head -1 '$R/occupancy.csv' | grep -qx 'policy,t_ms,owner,occupancy,sms'"
# Each policy's occupancy summed over its workloads, averaged over the 20 bins of 10 ms, is the
# run's thread-slot occupancy of summary.json (the same integral, split by owner and time).
for p in game-alone be-alone static-75 pilotfish combo; do
	want=$(summary_num "$p" occupancy)
	got=$(awk -F, -v p="$p" '$1 == p { s += $4 } END { printf "%.6f", s / 20 }' "$R/occupancy.csv")
	check "occupancy of $p adds up to summary.json's ($got vs $want)" \
		"awk -v a='$got' -v b='$want' 'BEGIN { d = a - b; exit !(d < 1e-4 && d > -1e-4 && b > 0) }'"
done
check "no workload holds more SMs than the GPU has (82)" \
	"awk -F, 'NR > 1 && (\$5 < 0 || \$5 > 82.0001) { bad = 1 } END { exit bad }' '$R/occupancy.csv'"
"$C" run experiments/default.json -q --set duration_ms=200 --set outputs.occupancy_ms=10 --out "$T/run2" >/dev/null 2>&1
check "occupancy.csv is byte-identical on a rerun" "cmp -s '$R/occupancy.csv' '$T/run2/occupancy.csv'"

# ---- combosim plot
if "$C" plot "$R" >"$T/out" 2>"$T/err"; then ok "plot exits 0"; else bad "plot: $(head -c 300 "$T/err")"; fi
for f in latency_cdf fps be_throughput occupancy; do
	check "plot drew $f.png and $f.svg" "[ -s '$R/plots/$f.png' ] && grep -q '<svg' '$R/plots/$f.svg'"
done
# BE throughput per 20 ms window (a tenth of the run) averages to summary.json's Eq. 6 total.
for p in be-alone pilotfish combo; do
	want=$(summary_num "$p" total)
	got=$(awk -v p="# $p" '$0 == p { on = 1; next } on && NF == 0 { exit } on { s += $2; m++ } END { printf "%.6f", s / m }' "$R/plots/be_throughput.dat")
	check "be_throughput.dat of $p averages to summary.json's ($got vs $want)" \
		"awk -v a='$got' -v b='$want' 'BEGIN { d = a - b; exit !(d < 1e-3 && d > -1e-3 && b > 0) }'"
done
# The latency CDF has a point per finished frame and ends at 1 when none was dropped.
want=$(awk -F, '$1 == "combo" && $10 == 0' "$R/frames.csv" | wc -l)
got=$(awk '$0 == "# combo / game" { on = 1; next } on && NF == 0 { exit } on { m++; last = $2 } END { print m, last }' "$R/plots/latency_cdf.dat")
check "latency CDF of combo: one point per finished frame, ending at 1 ($got vs $want)" "[ '$got' = '$want 1.000000' ]"
check "the figures' scripts rerun by hand" "(cd '$R/plots' && gnuplot fps.gp)"
"$C" plot "$R" --format png --window-ms 50 >/dev/null 2>&1
check "--window-ms 50 gives 4 windows" "[ \$(awk '\$0 == \"# combo\" { on = 1; next } on && NF == 0 { exit } on { m++ } END { print m }' '$R/plots/be_throughput.dat') = 4 ]"

# ---- without occupancy.csv: the other figures and a word on the missing one
"$C" run experiments/default.json -q --set duration_ms=50 --out "$T/plain" >/dev/null 2>&1
"$C" plot "$T/plain" --format svg >"$T/out" 2>&1
check "no occupancy.csv: three figures and how to get the fourth" \
	"[ -s '$T/plain/plots/fps.svg' ] && [ ! -e '$T/plain/plots/occupancy.svg' ] && grep -q 'outputs.occupancy_ms' '$T/out'"

# ---- bad input and a missing gnuplot
expect_error "plot: not a results directory" 2 "$T/nope/summary.json: cannot read" -- plot "$T/nope"
expect_error "plot: bad --format" 2 "--format: expected png, svg or both" -- plot "$R" --format gif
expect_error "plot: bad --window-ms" 2 "--window-ms: expected a number" -- plot "$R" --window-ms 0
expect_error "plot: no directory" 2 "a results directory is needed" -- plot
cp -r "$R" "$T/tampered"
sed -i '3s/^combo,/nosuch,/; 3s/^[a-z0-9-]*,/nosuch,/' "$T/tampered/frames.csv"
expect_error "plot: a frames.csv row of an unknown policy" 2 "frames.csv:3: policy \"nosuch\" is not among summary.json's runs" -- plot "$T/tampered"
"$C" run experiments/combo/table3.json -q --out "$T/corun" >/dev/null 2>&1
expect_error "plot: co-run results" 2 "co-run experiment's results are drawn by plots/reproduction.gp" -- plot "$T/corun"
PATH=/nonexistent "$(command -v "$C" || echo "$C")" plot "$R" >"$T/out" 2>"$T/err"; rc=$?
check "plot without gnuplot: exit 1 and how to install it" "[ $rc -eq 1 ] && grep -q 'apt-get install gnuplot-nox' '$T/err'"
expect_error "occupancy_ms out of range" 2 '$.outputs.occupancy_ms: expected a number in' -- \
	run experiments/default.json --set outputs.occupancy_ms=0 --out "$T/x"
expect_error "occupancy_ms in a co-run experiment" 2 '$.outputs.occupancy_ms: applies only to experiments of type "run"' -- \
	run experiments/combo/table3.json --set outputs.occupancy_ms=1 --out "$T/x"

echo "e2e_plot: $((n - fails)) of $n passed"
[ $fails -eq 0 ]
