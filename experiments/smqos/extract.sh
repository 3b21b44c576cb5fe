#!/bin/sh
# Flattens the smqos / rollover objects of summary.json files into CSV rows on stdout:
#   point,policy,qos,ls_perf,ls_norm,batch_ntp,active_sms,energy_j,avg_power_w
# `point` is the run directory's name (a sweep point), `policy` the run's label.  Power
# columns are empty when the GPU has no power model.  summary.json is cJSON's formatted
# print: one key per line.
# Usage: extract.sh SUMMARY.json...
set -eu
for f in "$@"; do
	point=$(basename "$(dirname "$f")")
	awk -v point="$point" '
	function val(line,   v) { v = line; sub(/^[^:]*:[ \t]*/, "", v); gsub(/[",\t ]/, "", v); return v }
	function flush() {
		if (pol != "" && perf != "")
			printf "%s,%s,%s,%s,%s,%s,%s,%s,%s\n", point, pol, qos, perf, norm, ntp, active, energy, power
		perf = ""; qos = ""; norm = ""; ntp = ""; active = ""; energy = ""; power = ""
	}
	/^\t\t\t"policy":/ { flush(); pol = val($0); next }
	/^\t\t\t"(smqos|rollover)":/ { inpol = 1; next }
	/^\t\t\t"power":/ { inpow = 1; next }
	/^\t\t\t}/ { inpol = 0; inpow = 0; next }
	inpol && /"qos":/ { qos = val($0) }
	inpol && /"ls_perf":/ { perf = val($0) }
	inpol && /"ls_norm":/ { norm = val($0) }
	inpol && /"batch_ntp_sum":/ { ntp = val($0) }
	inpol && /"active_sms_mean":/ { active = val($0) }
	inpow && /"energy_j":/ { energy = val($0) }
	inpow && /"avg_power_w":/ { power = val($0) }
	END { flush() }' "$f"
done
