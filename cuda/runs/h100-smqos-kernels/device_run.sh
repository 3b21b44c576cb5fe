#!/bin/sh
# On the device machine, from the repository root: each driver once with event timing, then
# each kernel under Nsight Compute.  Writes $OUT/events.txt, $OUT/ncu.csv, $OUT/env.txt.
# Binaries: build/smqos-bin (cuda/runs/h100-smqos-kernels/build.sh, carried).
# INPUTS=standard (default): the drivers' defaults (cuda/runs/h100-smqos-kernels);
# INPUTS=gpgpusim: the sizes of GPGPU-Sim's copies where they differ (BINO 1 option, MERGE 8192
# keys: cuda/runs/h100-smqos-kernels-gpgpusim/RUN.md); every other driver's default is already
# the input GPGPU-Sim's define-all-apps.yml names.
set -u
B=${B:-build/smqos-bin}
O=${OUT:-/tmp/out}
INPUTS=${INPUTS:-standard}
case $INPUTS in standard | gpgpusim) ;; *) echo "unknown INPUTS=$INPUTS" >&2; exit 2 ;; esac
args() { # driver -> its arguments under $INPUTS
	case "$INPUTS:$1" in
	gpgpusim:bino) echo 1 ;;
	gpgpusim:merge) echo 8192 ;;
	esac
}
{ nvidia-smi; ncu --version; nvcc --version; } > "$O/env.txt" 2>&1
for d in bino merge cp tpacf lbm mrig hs pf atax bicg gesummv lib; do
	"$B/$d" $(args $d) >> "$O/events.txt" 2>&1 || echo "FAILED $d" >> "$O/events.txt"
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
prof() { # binary kernel-regex launches
	ncu --clock-control none --csv --page raw --metrics "$M" -k "regex:$2" -c "$3" "$B/$1" $(args $1) > /tmp/ncu.$$ 2>&1
	grep '^"' /tmp/ncu.$$ >> "$O/ncu.csv" || { echo "ncu failed on $1"; tail -5 /tmp/ncu.$$; }
}
prof bino binomialOptionsKernel 3
prof merge mergeSortSharedKernel 3
prof cp cuda_cutoff_potential 11
prof tpacf gen_hists 2
prof lbm performStreamCollide 3
prof mrig binning_kernel 3
prof hs calculate_temp 3
prof pf dynproc_kernel 5
prof atax atax_kernel1 2
prof atax atax_kernel2 2
prof bicg bicg_kernel1 2
prof bicg bicg_kernel2 2
prof gesummv gesummv_kernel 3
prof lib 'Pathcalc_Portfolio_KernelGPU2' 2
prof lib 'Pathcalc_Portfolio_KernelGPU$' 2
cp "$B"/*.ptxas.txt /tmp/ 2>/dev/null; cat "$B"/*.ptxas.txt > "$O/ptxas.txt"
cat "$O/events.txt"
wc -l "$O/ncu.csv"
