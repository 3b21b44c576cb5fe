/* metrics — what a run measures: frame latency and QoS (violations, drops, FPS over 1 s
 * windows), BE throughput as COMBO Eq. 6 (solo time of completed BE kernels per simulated
 * second, per class), and SM / unit / occupancy utilisation.
 */
#ifndef COMBOSIM_METRICS_H
#define COMBOSIM_METRICS_H

#include <stdbool.h>
#include <cjson/cJSON.h>
#include "exp/experiment.h"

struct metrics;

/* Time integrals over all SMs, summed by the engine. */
struct sm_usage {
	int sms;
	sim_time elapsed;
	int max_threads;
	double unit_int[UNIT_COUNT], busy_int, thread_int;
};

struct metrics *metrics_new(const struct experiment *e);
void metrics_free(struct metrics *m);

/* A kernel finished: its class's active time grows by end - start; BE kernels add their solo
 * time to the throughput. */
void metrics_kernel(struct metrics *m, const struct kernel_spec *k, bool be, sim_time start, sim_time end);
/* The GPU's hardware queues went from empty to busy (busy = true) or back, at `now`. */
void metrics_gpu_busy(struct metrics *m, bool busy, sim_time now);
/* BE work lost to a context reset (solo ns per class), taken off the throughput. */
/* An SM-bound kernel kept one worker outside its set (dispatch.c: smbound_fallback). */
void metrics_smbound_fallback(struct metrics *m);
void metrics_be_lost(struct metrics *m, const double lost[KC_COUNT]);
void metrics_frame(struct metrics *m, int game, sim_time release, sim_time finish, sim_time deadline);
void metrics_frame_dropped(struct metrics *m, int game, sim_time release);
void metrics_frame_unfinished(struct metrics *m, int game, sim_time release);

/* `games`: false when the run left the games out (they are then not reported). */
void metrics_report(const struct metrics *m, const struct sm_usage *u, bool games, cJSON *out);

#endif
