#!/bin/sh
# Makes room for a device call: the device tool takes the working tree (tracked files and
# untracked ones git does not ignore) plus the carried build/devcarry.tgz, at most 64 MB in
# all, and the stored runs under cuda/runs/ fill most of it.  `aside` moves the largest run
# directories to DIR until what travels is under 63 MB, says which and lists them in DIR/moved
# (the device scripts read no stored run but a CALIB_SEED the command names: keep that one);
# `back` returns them.  Run `back` after the call, before committing: git sees the moved runs
# as deleted until then.
# Usage: sh cuda/scripts/carry_aside.sh aside|back [DIR]   (from the root; DIR default /tmp/combosim-aside)
set -eu
what=${1:-}
dir=${2:-/tmp/combosim-aside}
limit=63000000
travels() {
	python3 - <<'PY'
import os, subprocess
out = subprocess.run(['git', 'ls-files', '-z', '--cached', '--others', '--exclude-standard'],
                     capture_output=True, check=True).stdout.split(b'\0')
n = sum(os.path.getsize(f) for f in out if f and os.path.isfile(f))
c = 'build/devcarry.tgz'
print(n + (os.path.getsize(c) if os.path.isfile(c) else 0))
PY
}
case $what in
aside)
	[ -f build/devcarry.tgz ] || { echo "carry_aside.sh: no build/devcarry.tgz (make cuda && sh cuda/scripts/carry.sh first)" >&2; exit 2; }
	mkdir -p "$dir"
	touch "$dir/moved"
	for run in $(du -s cuda/runs/*/ | sort -rn | awk '{print $2}'); do
		[ "$(travels)" -lt "$limit" ] && break
		run=${run%/}
		mv "$run" "$dir/" && echo "$(basename "$run")" >> "$dir/moved"
	done
	echo "carry_aside.sh: $(travels) bytes travel; moved to $dir: $(tr '\n' ' ' < "$dir/moved")"
	;;
back)
	[ -f "$dir/moved" ] || { echo "carry_aside.sh: nothing moved ($dir/moved missing)" >&2; exit 2; }
	while read -r run; do
		[ -n "$run" ] && mv "$dir/$run" cuda/runs/
	done < "$dir/moved"
	rm -f "$dir/moved"
	echo "carry_aside.sh: runs back; $(travels) bytes travel"
	;;
*)
	sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
	;;
esac
