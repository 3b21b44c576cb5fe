#!/bin/sh
# SMQoS §6's measures from the kernels.csv of runs of experiments/smqos/h100_rh.json or
# h100_dyn.json (simulated
# or replayed on a GPU): per pair and policy, the LS task's NPM = T_solo / (qos x T_co) and the
# batch task's NTP = T_solo / T_co, with T the summed start-to-finish time of the task's
# finished kernels and T_solo their summed solo times (0 for a task that finished none).  The shared run (no partition) is judged
# against every QoS policy.  Rows on stdout:
#   source,pair,policy,qos,npm,ntp,reached
# Usage: rh_report.sh SOURCE RUN_DIR...   (each RUN_DIR holds one pair's kernels.csv)
set -eu
src=${1:?usage: rh_report.sh SOURCE RUN_DIR...}
shift
echo "source,pair,policy,qos,npm,ntp,reached"
for d in "$@"; do
	if [ ! -f "$d/kernels.csv" ]; then
		echo "rh_report.sh: $d has no kernels.csv (a failed run): left out" >&2
		continue
	fi
	awk -F, -v src="$src" '
	NR == 1 { next }
	{
		pol = $1; own = $5; dur = $10 - $9
		if (!(own in role)) role[own] = (own ~ /^(hs|merge|lib|lbm)$/) ? "ls" : "batch"
		if (role[own] == "ls") ls = own; else bt = own
		solo[pol, role[own]] += $11; busy[pol, role[own]] += dur; pols[pol] = 1
	}
	END {
		for (p in pols) {
			# a task that finished no kernel in the run counts as NPM / NTP 0
			if (busy[p, "ls"] <= 0 && busy[p, "batch"] <= 0) continue
			perf = busy[p, "ls"] > 0 ? solo[p, "ls"] / busy[p, "ls"] : 0
			ntp = busy[p, "batch"] > 0 ? solo[p, "batch"] / busy[p, "batch"] : 0
			# a label NAME-QOS is a run at that QoS policy; any other is judged against each
			name = p
			if (match(p, /-0\.[0-9]+$/)) { name = substr(p, 1, RSTART - 1); nq = 1; qs[1] = substr(p, RSTART + 1) + 0 }
			else { nq = 4; qs[1] = 0.80; qs[2] = 0.85; qs[3] = 0.90; qs[4] = 0.95 }
			for (i = 1; i <= nq; i++)
				printf "%s,%s+%s,%s,%.2f,%.4f,%.4f,%d\n", src, ls, bt, name,
					qs[i], perf / qs[i], ntp, (perf / qs[i] >= 1)
		}
	}' "$d/kernels.csv"
done
