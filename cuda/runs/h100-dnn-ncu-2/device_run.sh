#!/bin/sh
# On the device machine, from the repository root (D: the folder holding this script, carried).
# One traces/dnn model (MODEL): one training iteration (after 20 warm-up ones) under Nsight
# Compute with cuda/runs/h100-dnn-ncu's reduced metric set and ncu flags, one row per kernel.
# BUDGET (s) bounds the whole script: ncu profiles at most COUNT kernels (the time left at RATE
# s per kernel), and at the budget's end the application gets SIGTERM (stop_on_term.py) so that
# ncu still prints what it collected.  Writes $OUT/run.tgz (env_MODEL.txt, ncu_MODEL.csv,
# log_MODEL.txt).
set -u
D=${D:-build/devcarry-dnn2}
m=${MODEL:?MODEL}
O=${OUT:-/tmp/out}; W=/tmp/w; mkdir -p $W $O
T0=$(date +%s); END=$((T0 + ${BUDGET:-380}))
{ nvidia-smi; ncu --version; python3 -c 'import torch,torchvision;print(torch.__version__,torchvision.__version__,torch.backends.cudnn.version())'; } > $W/env_$m.txt 2>&1
# cuda/runs/h100-dnn-ncu/log.txt "reduced metrics" (its pass check found 3 passes per kernel)
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__cycles_elapsed.avg.per_second
M=$M,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed
M=$M,launch__grid_size,launch__block_size,launch__waves_per_multiprocessor,launch__registers_per_thread
M=$M,launch__occupancy_limit_blocks,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps
L=$W/log_$m.txt
echo "metrics: $M" > $L
left=$((END - $(date +%s) - 15))
COUNT=$(python3 -c "print(max(1, int(($left - ${SETUP:-45}) / ${RATE:-0.21})))")
echo "$m budget ${BUDGET:-380}s: at most $COUNT kernels" >> $L
NCU="ncu --clock-control none --profile-from-start off --csv --page raw --print-units base --metrics $M -c $COUNT"
t1=$(date +%s)
PIDFILE=$W/app.pid timeout $((left + 12)) $NCU python3 $D/stop_on_term.py $D/ncu_iter.py $m 20 > $W/$m.raw 2> $W/$m.err &
NP=$!
( while [ $(date +%s) -lt $((END - 20)) ]; do sleep 2; kill -0 $NP 2>/dev/null || exit 0; done
  [ -s $W/app.pid ] && kill -TERM $(cat $W/app.pid) 2>/dev/null && echo "budget: SIGTERM to the application" >> $L ) &
WP=$!
wait $NP; rc=$?
kill $WP 2>/dev/null
M=$M HEADER=1 python3 $D/reduce.py $m < $W/$m.raw > $W/ncu_$m.csv
n=$(grep -c "^$m," $W/ncu_$m.csv)
w=$(( $(date +%s) - t1 ))
echo "$m rc=$rc rows=$n wall=${w}s ($(python3 -c "print(round($w/max($n,1),3))") s per row)" >> $L
grep -E "==ERROR==|==WARNING==" $W/$m.raw $W/$m.err | head -3 >> $L
tail -3 $W/$m.err >> $L
cat $L
cd $W && tar cf - env_$m.txt ncu_$m.csv log_$m.txt | gzip -9n > $O/run.tgz
ls -l $O
