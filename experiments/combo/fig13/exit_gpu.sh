#!/bin/sh
# Writes OUT: the RTX 3090 description (models/rtx3090.json) with the H100's measured exit time
# (models/h100.json "exit_hold") added, for the exit-hold sensitivity sweep of make figures
# (fig13_exit_sweep.json).  How long an exiting block holds its slot on an RTX 3090 was not
# measured; this file is a proxy and says so in its name.  Usage: exit_gpu.sh OUT
set -eu
out=${1:?usage: exit_gpu.sh OUT}
root=$(dirname "$0")/../../..
mkdir -p "$(dirname "$out")"
# the "exit_hold" member of models/h100.json: from its line to the closing "}," at its indent
BLOCK=$(awk '/^  "exit_hold": [{]/ { on = 1 } on { print } on && /^  [}],?$/ { exit }' "$root/models/h100.json")
[ -n "$BLOCK" ] || { echo "exit_gpu.sh: no exit_hold in models/h100.json" >&2; exit 1; }
export BLOCK
awk '/^  "name": / && !named { print "  \"name\": \"NVIDIA GeForce RTX 3090 with the H100 exit hold (sensitivity proxy)\","; named = 1; next }
	/^  "interference": [{]/ && !done { print ENVIRON["BLOCK"]; done = 1 }
	{ print }
	END { if (!named || !done) { print "exit_gpu.sh: models/rtx3090.json lacks a name or interference line" > "/dev/stderr"; exit 1 } }' \
	"$root/models/rtx3090.json" >"$out"
