#!/bin/sh
# Regenerates the vGASA games' frame-level traces (frame, render_ms, cpu_ms) from the scenes
# mode of their profiles (traces/games/{dirt3,starcraft2,farcry2}.json): 9000 frames each
# (300 s at the SLA's 30 FPS, more than any 100 s run presents).  farcry2_b and starcraft2_b
# are second sessions (the consolidation runs' fourth game): the same profile, another seed.
# tests/test_vgasa.c checks that the shipped files are what this writes.
# Usage: experiments/vgasa/traces/make.sh [COMBOSIM]   (default bin/combosim)
set -eu
bin=${1:-bin/combosim}
dir=$(dirname "$0")
gen() { "$bin" trace gen game --game "$1" --mode scenes --frames 9000 --seed "$2" >"$dir/$3.csv.tmp" && mv "$dir/$3.csv.tmp" "$dir/$3.csv"; }
gen dirt3 1 dirt3
gen starcraft2 1 starcraft2
gen farcry2 1 farcry2
gen farcry2 2 farcry2_b
gen starcraft2 2 starcraft2_b
