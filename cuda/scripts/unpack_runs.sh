#!/bin/sh
# Unpacks the stored runs' gzipped kernels.csv.gz / frames.csv.gz beside themselves, for the
# report scripts that read the plain files.  The whole tracked tree travels to the device
# machine, which takes 64 MiB at most, so the runs keep these records gzipped; the plain copies
# are ignored by git (.gitignore) and remade here whenever the .gz is newer.
# Usage: sh cuda/scripts/unpack_runs.sh   (called by cuda/scripts/validation.sh)
set -eu
cd "$(dirname "$0")/../.."
for gz in cuda/runs/*/kernels.csv.gz cuda/runs/*/frames.csv.gz; do
	[ -e "$gz" ] || continue
	csv=${gz%.gz}
	[ -e "$csv" ] && [ ! "$gz" -nt "$csv" ] && continue
	gzip -dc "$gz" > "$csv.tmp-$$"
	mv "$csv.tmp-$$" "$csv"
done
