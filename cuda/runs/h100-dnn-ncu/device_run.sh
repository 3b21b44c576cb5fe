#!/bin/sh
# On the device machine, from the repository root (D: the folder holding this script, carried).
# Each traces/dnn model: one training iteration (after 20 warm-up ones) under Nsight Compute,
# one row per kernel with a minimal metric set.  Writes $OUT/run.tgz (env.txt, passcheck.txt,
# ncu.csv, log.txt).
set -u
D=${D:-build/devcarry-dnn}
O=${OUT:-/tmp/out}; W=/tmp/w; mkdir -p $W
T0=$(date +%s); END=$((T0 + ${BUDGET:-380}))
{ nvidia-smi; ncu --version; python3 -c 'import torch,torchvision;print(torch.__version__,torchvision.__version__,torch.backends.cudnn.version())'; } > $W/env.txt 2>&1
ncu --query-metrics --chip gh100 > $W/qm.txt 2>&1
has() { grep -q "^$1 " $W/qm.txt; }
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__cycles_elapsed.avg.per_second
M=$M,sm__inst_executed.avg.pct_of_peak_sustained_elapsed
M=$M,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_elapsed
for t in sm__pipe_tensor_cycles_active sm__pipe_tensor_op_hmma_cycles_active sm__pipe_tensor_op_gmma_cycles_active; do
	has $t && { M=$M,$t.avg.pct_of_peak_sustained_elapsed; break; }  # the first: all tensor ops
done
M=$M,launch__grid_size,launch__block_size,launch__waves_per_multiprocessor,launch__registers_per_thread
M=$M,launch__occupancy_limit_blocks,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps
echo "metrics: $M" > $W/log.txt
NCU="ncu --clock-control none --profile-from-start off --csv --page raw --print-units base --metrics $M"
# pass check on 3 kernels of ResNet-50 (1 warm-up iteration)
timeout 60 $NCU -c 3 python3 $D/ncu_iter.py resnet50 1 > $W/passcheck.raw 2>&1
grep -E "==PROF==.*pass|==ERROR==" $W/passcheck.raw | head -5 > $W/passcheck.txt
M=$M HEADER=1 python3 $D/reduce.py resnet50 < $W/passcheck.raw >> $W/passcheck.txt
cat $W/passcheck.txt
P=$(python3 -c "import csv,sys;r=list(csv.DictReader(open('$W/passcheck.txt').read().split(chr(10))[[i for i,l in enumerate(open('$W/passcheck.txt').read().split(chr(10))) if l.startswith('model,')][0]:]));print(max(int(x['profiler__replayer_passes']) for x in r))" 2>/dev/null || echo 0)
echo "passes per kernel: $P" >> $W/log.txt
if [ "$P" -gt 2 ]; then  # keep ncu to one or two passes: DRAM, FMA and the Tensor pipe only
	M=$(echo "$M" | sed 's/,sm__inst_executed[^,]*//; s/,sm__pipe_alu[^,]*//')
	echo "reduced metrics: $M" >> $W/log.txt
fi
H=1
for m in resnet50 vgg16 inception_v3 densenet121; do
	left=$((END - $(date +%s)))
	[ $left -gt 20 ] || { echo "SKIP $m (no time)" >> $W/log.txt; continue; }
	t1=$(date +%s)
	timeout $left $NCU python3 $D/ncu_iter.py $m 20 > $W/$m.raw 2> $W/$m.err
	rc=$?
	M=$M HEADER=$H python3 $D/reduce.py $m < $W/$m.raw >> $W/ncu.csv && H=0
	echo "$m rc=$rc rows=$(grep -c "^$m," $W/ncu.csv) wall=$(( $(date +%s) - t1 ))s" >> $W/log.txt
	grep -E "==ERROR==|==WARNING==" $W/$m.raw $W/$m.err | head -3 >> $W/log.txt
	tail -2 $W/$m.err >> $W/log.txt
done
cat $W/log.txt
cd $W && tar cf - env.txt passcheck.txt ncu.csv log.txt | gzip -9n > $O/run.tgz
ls -l $O
