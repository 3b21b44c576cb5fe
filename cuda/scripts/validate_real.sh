#!/bin/sh
# `make validate-real`: the stored PyTorch captures of cuda/runs/h100-pytorch-validate checked by
# `combosim validate --real` (a test set: captured once, never used to choose or fit the model).
# Writes each report (report.txt, report.json, durations.png, timeline.png) into the run's
# report-streams/ and report-mps/, and the trimmed copy's report that `make test` compares
# against into tests/validate/.  Usage: sh cuda/scripts/validate_real.sh BIN/combosim
set -eu
C=$1
R=cuda/runs/h100-pytorch-validate
B=build/validate-real
rm -rf "$B"
mkdir -p "$B"
tar xzf "$R/capture.tgz" -C "$B"
for x in streams mps; do
	case $x in streams) t=$B/cap/streams.json ;; mps) t=$B/cap/mps/merged.json ;; esac
	"$C" validate --real "$t" --solo "$B/cap/solo.json" --gpu h100 --window-ms 0:30 --out "$B/$x" >/dev/null
	mkdir -p "$R/report-$x"
	cp "$B/$x/report.txt" "$B/$x/report.json" "$B/$x/plots/durations.png" "$B/$x/plots/timeline.png" "$R/report-$x/"
	head -4 "$R/report-$x/report.txt"
done
"$C" validate --real tests/validate/mps-trim.json --solo tests/validate/solo-trim.json --gpu h100 --out "$B/trim" >/dev/null
cp "$B/trim/report.json" tests/validate/mps-trim.report.json
