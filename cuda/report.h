/* report — one policy run's outputs from its launch records (cuda/hostloop.h): kernels.csv,
 * tasks.csv and frames.csv rows in the simulator's columns and order, its kernels on the
 * timeline, and its summary object (generic numbers, then the policy's own `finish`). */
#ifndef COMBOSIM_CUDA_REPORT_H
#define COMBOSIM_CUDA_REPORT_H

#include <stdio.h>
#include <cjson/cJSON.h>
#include "cuda/hostloop.h"

struct hl_out {
	FILE *kernels, *frames, *tasks;
	struct timeline *tl;               /* NULL: no timeline.json */
};

/* What the rows counted, for the summary. */
struct hl_report {
	long written, late, incomplete;
	double work_lost_ns;
	long launch_clamped;
	long long launch_max_clamp;
	long fallback_game, fallback_be[KC_COUNT], be_bound, be_quota;
	double be_inside, quota_fill, quota_fill_max;
	long frames_released, frames_dropped, frames_done, frames_not_launched;
	bool tl_written;
	struct ck_tl_report tl;
};

/* Writes the run's rows (timeline process `index`) and returns its summary object: "policy",
 * the backend's numbers, the policy's `finish` output, and "error" when the run stopped early. */
cJSON *hl_report_run(struct hl_run *r, int index, const struct hl_out *o);

#endif
