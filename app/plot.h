/* plot — `combosim plot DIR`: gnuplot figures of one results directory of `combosim run`.
 *
 * From summary.json, frames.csv, kernels.csv and (when the experiment asked for it with
 * outputs.occupancy_ms) occupancy.csv it writes into DIR/plots/: each figure's data (.dat),
 * its gnuplot script (.gp, rerunnable by hand) and the images (PNG, SVG or both):
 *   latency_cdf   frame latency CDF per policy and game, QoS targets marked
 *   fps           FPS over time per policy and game (frames finished per window)
 *   be_throughput BE throughput over time per policy (COMBO Eq. 6 per window)
 *   occupancy     each workload's share of the GPU's thread slots over time, one panel per policy
 */
#ifndef COMBOSIM_PLOT_H
#define COMBOSIM_PLOT_H

#include <stddef.h>

/* Exit code: 0, 1 (gnuplot failed or is missing, a file could not be written), 2 (bad usage,
 * not a results directory, a malformed file). */
int cmd_plot(int argc, char **argv);

/* Runs `gnuplot NAME.gp` in DIR (its outputs named relative to DIR).  0, or 1 with err
 * (gnuplot missing or failed: its own message went to stderr). */
int plot_gnuplot(const char *dir, const char *name, char *err, size_t n);

#endif
