#!/bin/sh
# Runs every benchmark program $1/bench-* and writes each one's output, after a header saying
# when, where and how it ran, to bench/results/<name>.txt (name: the program minus "bench-").
# Usage: sh bench/run.sh BINDIR      (make bench does this).  Exit status: 1 if any failed.
set -u
bindir=${1:?usage: bench/run.sh BINDIR}
results=$(dirname "$0")/results
mkdir -p "$results" || exit 1

cpu=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n 1)
cc_version=$(${CC:-cc} --version 2>/dev/null | head -n 1)
status=0
found=0
for prog in "$bindir"/bench-*; do
	if [ ! -f "$prog" ] || [ ! -x "$prog" ]; then
		continue
	fi
	found=1
	name=${prog##*/bench-}
	out=$results/$name.txt
	{
		echo "# benchmark: $name"
		echo "# date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
		echo "# uname: $(uname -a)"
		echo "# cpu: ${cpu:-unknown}, $(nproc) cores online"
		echo "# load average (1/5/15 min) at start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
		echo "# compiler: ${cc_version:-unknown}"
		echo "# command: $prog"
	} >"$out"
	echo "bench: running $prog" >&2
	if ! "$prog" >>"$out"; then
		echo "bench: $prog failed" >&2
		echo "# FAILED" >>"$out"
		status=1
	fi
	echo "# load average (1/5/15 min) at end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)" >>"$out"
	cat "$out"
done
[ "$found" = 1 ] || { echo "bench: no $bindir/bench-* programs" >&2; exit 1; }
exit $status
