#!/bin/sh
# On the device machine: the CC driver once with event timing, then its five kernels under
# Nsight Compute (the metrics of cuda/runs/h100-gspace-kernels/device_run.sh; 3 passes).
# Writes $OUT/events.txt, $OUT/ncu.csv, $OUT/env.txt, $OUT/ptxas.txt.  B: the binaries' folder.
set -u
B=${B:-build/gspace-cc-bin}
O=${OUT:-/tmp/out}
{ nvidia-smi; ncu --version; nvcc --version; } > "$O/env.txt" 2>&1
"$B/cc" >> "$O/events.txt" 2>&1 || echo "FAILED cc" >> "$O/events.txt"
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
M=$M,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed
M=$M,gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum
M=$M,l1tex__throughput.avg.pct_of_peak_sustained_active,sm__inst_executed.avg.pct_of_peak_sustained_active
M=$M,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active
M=$M,sm__warps_active.avg.pct_of_peak_sustained_active,sm__maximum_warps_per_active_cycle_pct
M=$M,sm__cycles_active.avg,gpc__cycles_elapsed.max,sm__cycles_elapsed.avg.per_second
M=$M,launch__registers_per_thread,launch__grid_size,launch__block_size,launch__shared_mem_per_block_static
M=$M,launch__occupancy_limit_blocks,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps
M=$M,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,smsp__inst_executed.sum
ncu --clock-control none --csv --page raw --metrics "$M" -k "regex:^(init|compute1|compute2|compute3|flatten)$" -c 15 "$B/cc" > /tmp/ncu.$$ 2>&1
grep '^"' /tmp/ncu.$$ >> "$O/ncu.csv" || { echo "ncu failed on cc"; tail -5 /tmp/ncu.$$; }
cat "$B"/*.ptxas.txt > "$O/ptxas.txt"
cat "$O/events.txt"
wc -l "$O/ncu.csv"
