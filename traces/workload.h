/* workload — what an experiment runs, as its file describes it: games (frames of kernels
 * released at an FPS or, closed-loop, when the previous frame is presented, with a QoS target)
 * and best-effort apps (kernel queues replayed in order, up to `depth` kernels in flight, spread
 * over `streams` streams of the app), each with the kernel variant it launches by default.  Kernels are named by their index into
 * the experiment's kernel table.  Loading and validating them is exp/experiment.c's job.
 */
#ifndef COMBOSIM_WORKLOAD_H
#define COMBOSIM_WORKLOAD_H

#include <stdbool.h>
#include "base/time.h"
#include "models/kernel.h"

#define NAME_MAX_LEN 64
/* An app's kernels in flight at once (and so its streams): at most the hardware's queues. */
#define APP_DEPTH_MAX 32

/* What the host knows of a frame before rendering it (COMBO Eq. 4's inputs), when its trace
 * says; `known` is false otherwise. */
struct frame_features {
	bool known;
	double width, height, spp, triangles;
};

struct game_profile;             /* traces/profile.h */

/* How an owner launches its kernels when its policy does not say otherwise. */
struct default_launch {
	enum variant variant;
	int workers;             /* 0: fill every SM to occupancy */
};

struct game_spec {
	char name[NAME_MAX_LEN];
	double fps;
	sim_time period_ns, qos_ns, start_ns;
	int priority;
	int *kernels;            /* indices into experiment.kernels, in stream order */
	int n_kernels;
	/* A trace-driven game ("trace" instead of "frame"): the CSV trace, kernel-level or
	 * frame-level (expanded by `profile`), validated at load and streamed during runs. */
	char *trace;             /* resolved path; NULL for an inline game */
	bool frame_level;
	struct game_profile *profile;   /* owned; frame-level traces only */
	long trace_frames;       /* frames in the trace */
	bool trace_cpu;          /* the frame-level trace gives each frame's CPU phase (cpu_ms column) */
	double cv;               /* per-frame render-time variation (coefficient of variation) */
	int max_queued;          /* frames in flight before a release is dropped */
	long frames;             /* 0: until the end of the run */
	/* Closed loop (vGASA's frame loop): the next frame is released when this one is
	 * presented, plus its CPU phase (the trace's per frame when trace_cpu, else cpu_ns varied
	 * by cpu_cv) and any sleep the policy
	 * inserted.  Open loop: released every period_ns.  Either way fps sets qos_ns's default. */
	bool closed;
	sim_time cpu_ns;
	double cpu_cv;
	struct default_launch launch;
};

struct app_spec {
	char name[NAME_MAX_LEN];
	int *kernels;            /* indices into experiment.kernels, in queue order */
	int n_kernels;
	/* per queue position: the earliest time after the app's start at which it launches that
	 * kernel ("at_us" of a queue's kernels: a captured launch schedule, replayed open-loop where
	 * the host held the launch back); -1: none.  NULL: no kernel has one. */
	sim_time *at_ns;
	char *queue;             /* resolved path of its BE queue file ("queue"); NULL: "kernels" */
	int priority;
	long repeat;             /* passes over the queue; 0: until the end of the run */
	sim_time start_ns;
	int depth;               /* kernels in flight at once, in queue order */
	/* The streams those kernels spread over, 1 to depth: depth puts each on its own stream
	 * (they co-run); fewer queue the rest behind them on a stream, as a job enqueueing ahead
	 * does (each starts the instant the one before it ends).  0: depth. */
	int streams;
	struct default_launch launch;
};

#endif
