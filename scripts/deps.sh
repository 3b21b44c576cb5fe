#!/bin/sh
# Checks that the Debian packages combosim builds against are installed; installs the missing
# ones when run as root, prints the exact command otherwise.  Usage: scripts/deps.sh [build|test|all]
set -u
want="libgsl-dev libcjson-dev zlib1g-dev pkg-config"
case "${1:-build}" in
  test) want="$want libcunit1-dev parallel gnuplot-nox" ;;
  all)  want="$want libcunit1-dev gnuplot-nox parallel" ;;
esac
missing=""
for p in $want; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
cmd="apt-get install -y --no-install-recommends$missing"
# Wait for another apt/dpkg (a parallel make, unattended upgrades) instead of failing on its lock.
lock="-o DPkg::Lock::Timeout=600"
if [ "$(id -u)" = 0 ]; then
  echo "deps: installing$missing" >&2
  if ! DEBIAN_FRONTEND=noninteractive $cmd $lock >/tmp/combosim-apt.log 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get $lock update >>/tmp/combosim-apt.log 2>&1 &&
      DEBIAN_FRONTEND=noninteractive $cmd $lock >>/tmp/combosim-apt.log 2>&1 ||
      { echo "deps: '$cmd' failed; see /tmp/combosim-apt.log" >&2; exit 1; }
  fi
else
  echo "deps: missing Debian packages:$missing" >&2
  echo "deps: run as root:  sudo $cmd" >&2
  exit 1
fi
