#!/bin/sh
# The layering rules of docs/ARCHITECTURE.md, checked on the sources: each folder includes only
# headers of its own layer or of layers below, and no backend or command names a policy.
# Usage: COMBOSIM=bin/combosim sh tests/layers.sh   (run by make test)
set -u
C=${COMBOSIM:-bin/combosim}
fails=0
bad() { fails=$((fails + 1)); echo "FAIL $1"; }
# what each layer may include besides itself
allowed() {
	case $1 in
	base) echo "" ;;
	models) echo "base" ;;
	traces) echo "base models" ;;
	policies) echo "base models traces" ;;
	exp) echo "base models traces policies" ;;
	sim) echo "base models traces policies exp" ;;
	cuda) echo "base models traces policies exp" ;;
	app) echo "base models traces policies exp sim" ;;
	esac
}
for layer in base models traces policies exp sim cuda app; do
	ok="$layer $(allowed "$layer")"
	for f in "$layer"/*.c "$layer"/*.h "$layer"/*.cu; do
		[ -e "$f" ] || continue
		for inc in $(sed -n 's/^#include "\([a-z]*\)\/.*"/\1/p' "$f" | sort -u); do
			case " $ok " in
			*" $inc "*) ;;
			*) bad "$f includes a header of $inc/, a layer it may not use" ;;
			esac
		done
	done
done
# no backend and no command names a policy (tests may: they run them)
for name in $("$C" policies | awk '{ print $1 }'); do
	for f in app/*.c cuda/*.c cuda/*.h sim/*.c sim/*.h; do
		case $f in cuda/test_*) continue ;; esac
		# code, not comments (a usage example may show a policy)
		grep -v '^[[:space:]]*\(/\*\|\*\)' "$f" | grep -q "\"$name\"" && bad "$f names the policy \"$name\""
	done
done
[ $fails -eq 0 ] && echo "layers: ok" || echo "layers: $fails failed"
exit $((fails != 0))
