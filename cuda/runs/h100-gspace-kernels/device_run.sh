#!/bin/sh
# On the device machine, from the repository root: each driver once with event timing, then
# each kernel under Nsight Compute.  Writes $OUT/events.txt, $OUT/ncu.csv, $OUT/env.txt,
# $OUT/ptxas.txt.  Binaries: build/gspace-bin (build.sh, carried); B= names another folder.
set -u
B=${B:-build/gspace-bin}
O=${OUT:-/tmp/out}
{ nvidia-smi; ncu --version; nvcc --version; } > "$O/env.txt" 2>&1
for d in cfd md mm nn bp sc spmv; do
	"$B/$d" >> "$O/events.txt" 2>&1 || echo "FAILED $d" >> "$O/events.txt"
done
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
prof() { # binary kernel-regex launches
	ncu --clock-control none --csv --page raw --metrics "$M" -k "regex:$2" -c "$3" "$B/$1" > /tmp/ncu.$$ 2>&1
	grep '^"' /tmp/ncu.$$ >> "$O/ncu.csv" || { echo "ncu failed on $1"; tail -5 /tmp/ncu.$$; }
}
prof cfd cuda_compute_flux 3
prof md compute_lj_force 3
prof mm matrixMul 3
prof nn euclid 3
prof bp bpnn_layerforward_CUDA 3
prof bp bpnn_adjust_weights_cuda 3
prof sc kernel_compute_cost 3
prof spmv spmv_csr_vector_kernel 3
cat "$B"/*.ptxas.txt > "$O/ptxas.txt"
cat "$O/events.txt"
wc -l "$O/ncu.csv"
