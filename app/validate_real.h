/* validate_real — `combosim validate --real TRACE --gpu GPU`: a real trace of concurrent GPU
 * work (Nsight Systems cuda_gpu_trace CSV, PyTorch profiler JSON) checks the simulator.
 *
 * The trace's kernels become the workload: each stream a BE app replaying its kernels in order
 * (depth 1), each kernel's shape from the trace, its solo time from a solo capture the user
 * names (--solo: the same kernel, by name and shape, at the same launch rank on its stream,
 * else the median of its launches there), else the median duration of the same kernel where
 * it ran alone in the trace, else its own (co-run) duration, counted as such.  A
 * kernel that started more than --gate-us after the one before it on its stream ended was held
 * back by the host: it is replayed at its start time (a queue's at_us).  The simulator runs the
 * workload on the named GPU description; the report compares per-kernel durations, per-stream
 * finish times, overlap (time with kernels of two or more streams running) and makespan, lists
 * the worst kernels with the kernels they ran beside, and the kernels the run did not reach.
 *
 * OUT (default results/validate-<trace name>) holds: report.txt (the summary error first),
 * report.json, queues/ and experiment.json (the workload, rerunnable with combosim run),
 * sim/ (the run), kernels_real.csv (the trace in kernels.csv form), plots/ (durations: sim
 * against real per kernel, log-log, by stream; timeline: the trace above the simulation).
 */
#ifndef COMBOSIM_VALIDATE_REAL_H
#define COMBOSIM_VALIDATE_REAL_H

/* argv without "combosim validate"; exit code 0, 1 (a write or gnuplot failed), 2 (bad input). */
int cmd_validate_real(int argc, char **argv);

#endif
