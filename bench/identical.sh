#!/bin/sh
# Exactness check for engine speed work: runs a set of shipped experiments with a reference
# binary and a candidate binary and compares every output file byte for byte (frames.csv,
# kernels.csv, summary.json, occupancy.csv, timeline.json and the stdout table; the version
# string in summary.json aside).
# The Fig. 13 sweep is compared too (sweep.csv and each run's summary.json).
# Usage: sh bench/identical.sh REF_BINARY [NEW_BINARY]   (NEW_BINARY defaults to bin/combosim)
# Exit status 0: every output identical.  Outputs are written to a temporary directory and
# deleted afterwards (the 10 000-frame kernels.csv is ~100 MB while it lives).
set -u
ref=${1:?usage: bench/identical.sh REF_BINARY [NEW_BINARY]}
new=${2:-bin/combosim}
tmp=$(mktemp -d /tmp/combosim-identical.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
# the Fig. 13-18 reproductions read the tracked workloads of experiments/combo/workloads
check() {
	name=$1; shift
	n=$((n + 1))
	# one output path for both (the table's last line names it)
	"$ref" run "$@" --out "$tmp/r" >"$tmp/a.stdout" 2>&1; ra=$?
	rm -rf "$tmp/a"; [ -e "$tmp/r" ] && mv "$tmp/r" "$tmp/a"
	"$new" run "$@" --out "$tmp/r" >"$tmp/b.stdout" 2>&1; rb=$?
	rm -rf "$tmp/b"; [ -e "$tmp/r" ] && mv "$tmp/r" "$tmp/b"
	bad=""
	[ "$ra" = "$rb" ] || bad="$bad exit($ra/$rb)"
	cmp -s "$tmp/a.stdout" "$tmp/b.stdout" || bad="$bad stdout"
	for f in frames.csv kernels.csv summary.json corun.csv reproduction.csv occupancy.csv timeline.json; do
		[ -e "$tmp/a/$f" ] || [ -e "$tmp/b/$f" ] || continue
		if [ "$f" = summary.json ]; then
			# the binary's version string differs by construction
			grep -v '"combosim_version"' "$tmp/a/$f" >"$tmp/a.s" 2>/dev/null
			grep -v '"combosim_version"' "$tmp/b/$f" >"$tmp/b.s" 2>/dev/null
			cmp -s "$tmp/a.s" "$tmp/b.s" || bad="$bad $f"
		else
			cmp -s "$tmp/a/$f" "$tmp/b/$f" || bad="$bad $f"
		fi
	done
	if [ -n "$bad" ]; then
		echo "DIFFER $name:$bad"
		fail=1
	else
		[ "$ra" = 0 ] && echo "same   $name" || echo "same   $name (both exit $ra)"
	fi
	rm -rf "$tmp/a" "$tmp/b"
}
check default experiments/default.json
check combo-10k experiments/default.json --set duration_ms=83333 --set 'policies=[{"name":"combo"}]' --set baseline=null
check pilotfish-10k experiments/default.json --set duration_ms=83333 --set 'policies=[{"name":"pilotfish"}]' --set baseline=null
check table6 experiments/combo/table6.json
check fig18 experiments/combo/fig18.json
check fig15 experiments/combo/fig15.json
check table6-dynamic experiments/combo/table6.json --set games[0].trace=table6/dynamic.csv
check table3 experiments/combo/table3.json
check fig13-point experiments/combo/fig13.json
check fig13-steel-sgemm experiments/combo/fig13.json --set games[0].trace=workloads/steel.csv --set games[0].profile=steel --set apps[0].queue=workloads/sgemm.json
check fig2 experiments/combo/fig2.json
check fig4-fig7 experiments/combo/fig4_fig7.json
for p in combo-exact combo-intra combo-nm pilotfish static exclusive; do
	check "default-$p-8k" experiments/default.json --set duration_ms=8333 --set "policies=[{\"name\":\"$p\"$(test $p = static && echo ,\"game_share\":0.75)}]" --set baseline=null
done
check default-seed7 experiments/default.json --set seed=7 --set duration_ms=4000
check default-timeline-sms experiments/default.json --set duration_ms=1000 \
	--set 'outputs={"timeline":true,"timeline_lanes":"sms","timeline_from_ms":300,"timeline_to_ms":330,"occupancy_ms":1}'
# the other papers' policies, on both GPUs (the H100's dispatch timing, persistent workers,
# masks, SM limits and power gating take the engine's other paths)
for x in combo_rtx3090 gspace_rtx3090 gspace_h100 smqos_rtx3090 smqos_h100 smqos_gpgpusim-sm24 vgasa_rtx3090; do
	check "compare-$x" experiments/compare/$x.json
done
check compare-combo_h100-1s experiments/compare/combo_h100.json --set duration_ms=1000
check compare-vgasa_h100-mask18-2s experiments/compare/vgasa_h100.json --set duration_ms=2000 \
	--set 'policies=[{"name":"static","game_sms":18,"mechanism":"mask"}]' --set baseline=null
# the Fig. 13 sweep (256 runs through `combosim batch`, chunked, inputs read once per process):
# sweep.csv and every run's summary.json
n=$((n + 1))
"$ref" sweep experiments/combo/fig13_sweep.json -j 2 --out "$tmp/swa" >/dev/null 2>&1
"$new" sweep experiments/combo/fig13_sweep.json -j 2 --out "$tmp/swb" >/dev/null 2>&1
bad=""
cmp -s "$tmp/swa/sweep.csv" "$tmp/swb/sweep.csv" || bad="$bad sweep.csv"
for d in "$tmp"/swa/runs/*/; do
	r=$(basename "$d")
	grep -v '"combosim_version"' "$d/summary.json" >"$tmp/a.s" 2>/dev/null
	grep -v '"combosim_version"' "$tmp/swb/runs/$r/summary.json" >"$tmp/b.s" 2>/dev/null
	cmp -s "$tmp/a.s" "$tmp/b.s" || { bad="$bad runs/$r"; break; }
done
[ "$(ls "$tmp/swa/runs" | wc -l)" -eq 256 ] || bad="$bad (reference: $(ls "$tmp/swa/runs" | wc -l) runs)"
if [ -n "$bad" ]; then echo "DIFFER fig13-sweep:$bad"; fail=1; else echo "same   fig13-sweep (sweep.csv, 256 summaries)"; fi
rm -rf "$tmp/swa" "$tmp/swb"
echo "$n runs compared"
exit $fail
