#!/bin/sh
# Times `make figures` per recipe line, from an empty build/figures (every sweep runs), and
# writes the table to OUT (default bench/results/figures_time.txt): make runs each line through
# a SHELL wrapper that times it with /usr/bin/time.  The build is left out (make -o all): build
# first.  Run it on an idle machine; the header records the load before and after.
# Usage: bench/figures_time.sh [OUT]
set -eu
out=${1:-bench/results/figures_time.txt}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/timesh" <<SH
#!/bin/sh
# make calls SHELL -c LINE
shift
# (time's format treats backslash and percent specially: the label drops the one, doubles the other)
exec /usr/bin/time -a -o "$tmp/lines" -f "%e %U %S	\$(printf '%s' "\$1" | tr '\n\t' '  ' | tr -d '\\\\' | cut -c1-150 | sed 's/%/%%/g')" sh -c "\$1"
SH
chmod +x "$tmp/timesh"
before=$(uptime)
start=$(date -u +%Y-%m-%dT%H:%M:%SZ)
rm -rf build/figures
/usr/bin/time -o "$tmp/total" -f "%e %U %S" make -o all figures SHELL="$tmp/timesh" >/dev/null
after=$(uptime)
{
	echo "# make figures, timed per recipe line (bench/figures_time.sh: make SHELL=a wrapper running /usr/bin/time -f '%e %U %S' sh -c LINE)"
	echo "# date: $start; $(uname -sr); $(nproc) cores; load average at start / end:"
	echo "#   $before"
	echo "#   $after"
	echo "# tree: $(git describe --always --dirty); build/figures removed first (every sweep runs)"
	echo "# command: bench/figures_time.sh   (the build left out)"
	echo "# total: $(cat "$tmp/total")   (wall, user, sys in s of the top make; recursive makes counted once)"
	echo "# columns: wall user sys <tab> command (first 150 characters)"
	cat "$tmp/lines"
} >"$out"
echo "wrote $out: total $(cat "$tmp/total") (wall user sys s)"
