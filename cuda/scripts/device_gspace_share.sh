#!/bin/sh
# What the second part of a cuda/runs/h100-gspace-search2 device call runs: G-Space's yield at
# fixed configurations (policies/gspace.c "search": "fixed") for MD + LBM on the H100, to tell
# whether the LC kernel is slow beside the BE kernel's resident workers (k < K: LBM's blocks
# share SMs with MD's) or only when it has fewer slots (k = K: whole SMs).  300 ms a
# configuration (the persistent MD kernel, 1 s of work, then runs to its end).  Packs
# $OUT/share.tgz.
# usage (from the tree device_gspace.sh runs in, after it): sh cuda/scripts/device_gspace_share.sh CARRY_DIR
set -u
C=${1:?usage: device_gspace_share.sh CARRY_DIR}
export LD_LIBRARY_PATH=$C/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
R=$OUT/share
mkdir -p $R
P='['
for nk in 14,1 14,8 132,1 132,7 132,8; do
	n=${nk%,*}; k=${nk#*,}
	P="$P{\"name\":\"gspace\",\"label\":\"n${n}k${k}\",\"be\":0,\"lc\":1,\"deadline_ratio\":2,\"search\":\"fixed\",\"n\":$n,\"k\":$k},"
done
P="${P%,}]"
$C/combosim-cuda run experiments/gspace/h100_search.json \
	--set 'apps=[{"name":"md","queue":"workloads-h100/md-persistent.json"},{"name":"lbm","queue":"workloads-h100/lbm.json"}]' \
	--set "policies=$P" --set duration_ms=300 --out $R/md-lbm --calib $OUT/r/calib.json >$R/md-lbm.log 2>&1
rc=$?
tail -6 $R/md-lbm.log
tar -czf $OUT/share.tgz -C $OUT share
exit $rc
