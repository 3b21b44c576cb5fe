#!/bin/sh
# Flattens the vgasa objects of a run's summary.json into CSV rows on stdout:
#   policy,kind,t_s,key,value
# kind "series" (one row per window and key: gpu_usage, gpu_usage_all, fps<i>, usage<i>, ref<i>,
# esa_fps, fsa_moved) or "mean" (t_s empty: mean_fps<i>, mean_usage<i>, gpu_usage_mean/min/max,
# be_usage_mean, pole, be_throughput, fsa_moves).  summary.json is cJSON's formatted print: one
# key per line, number arrays on one line.
# Usage: extract.sh RUN_DIR
set -eu
run=${1:?usage: extract.sh RUN_DIR}
awk '
function val(line,   v) { v = line; sub(/^[^:]*:[ \t]*/, "", v); gsub(/[",\t ]/, "", v); return v }
function list(key, line,   v, n, a, i) {
	v = line; sub(/^[^\[]*\[/, "", v); sub(/\].*$/, "", v); gsub(/[ \t]/, "", v)
	n = split(v, a, ",")
	for (i = 1; i <= n; i++) printf "%s,series,%s,%s%d,%s\n", pol, t, key, i - 1, a[i]
}
/^\t\t\t"policy":/ { pol = val($0); g = 0; next }
/"be_throughput":/ && pol != "" { inbe = 1; be = 0; next }
inbe && /}/ { printf "%s,mean,,be_throughput,%s\n", pol, be; inbe = 0; next }
inbe && /"total":/ { be = val($0); next }
inbe { next }
/"t_s":/ { t = val($0); next }
/"gpu_usage":|"gpu_usage_all":|"esa_fps":|"fsa_moved":/ {
	k = $0; sub(/^[ \t]*"/, "", k); sub(/".*/, "", k); printf "%s,series,%s,%s,%s\n", pol, t, k, val($0); next }
/"fps":[ \t]*\[/ { list("fps", $0); next }
/"usage":[ \t]*\[/ { list("usage", $0); next }
/"reference":[ \t]*\[/ { list("ref", $0); next }
/"mean_fps":/ { printf "%s,mean,,mean_fps%d,%s\n", pol, g, val($0); next }
/"mean_usage":/ { printf "%s,mean,,mean_usage%d,%s\n", pol, g++, val($0); next }
/"gpu_usage_mean":|"gpu_usage_min":|"gpu_usage_max":|"be_usage_mean":|"pole":|"fsa_moves":/ {
	k = $0; sub(/^[ \t]*"/, "", k); sub(/".*/, "", k); printf "%s,mean,,%s,%s\n", pol, k, val($0); next }
' "$run/summary.json"
