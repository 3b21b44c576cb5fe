#!/bin/sh
# LBM (LC) yielded k blocks on all 132 SMs beside the persistent MD kernel (BE), with MD's
# stand-in kernel of class CD (FMA chains, issue share 1.0 in models/h100.json) and of class
# MEM (streaming reads, issue share 0.08): does the LC slowdown at k < K follow the resident BE
# worker's issue appetite?  300 ms a configuration.
set -u
C=${1:?usage: share_class.sh CARRY_DIR}
export LD_LIBRARY_PATH=$C/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
R=$OUT/share; mkdir -p $R
cp $C/calib-seed.json $R/calib.json
P='['
for nk in 132,8 132,7 132,4; do
	n=${nk%,*}; k=${nk#*,}
	P="$P{\"name\":\"gspace\",\"label\":\"n${n}k${k}\",\"be\":0,\"lc\":1,\"deadline_ratio\":2,\"search\":\"fixed\",\"n\":$n,\"k\":$k},"
done
P="${P%,}]"
for cls in cd mem; do
	q=workloads-h100/md-persistent.json; [ $cls = mem ] && q=$C/md-persistent-mem.json
	$C/combosim-cuda run experiments/gspace/h100_search.json \
		--set "apps=[{\"name\":\"md\",\"queue\":\"$q\"},{\"name\":\"lbm\",\"queue\":\"workloads-h100/lbm.json\"}]" \
		--set "policies=$P" --set duration_ms=300 --out $R/md-$cls-lbm --calib $R/calib.json >$R/md-$cls-lbm.log 2>&1
	tail -5 $R/md-$cls-lbm.log
done
