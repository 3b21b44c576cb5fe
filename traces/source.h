/* source — where a game's frames come from.  The engine asks a game's frame source for each
 * frame's kernels, in stream order, as the frame is released; the frame owns the copies until
 * it finishes, so a trace is streamed and memory stays bounded by the frames in flight.
 *
 * Sources: "inline" (the experiment's own kernel list, the same every frame), "kernel-trace"
 * (a kernel-level CSV game trace) and "frame-trace" (a frame-level CSV trace expanded by a game
 * profile, which also fills the frame's features); see traces/README.md.  A trace source
 * returns 1 after the trace's last frame, and the game releases no more frames.
 */
#ifndef COMBOSIM_SOURCE_H
#define COMBOSIM_SOURCE_H

#include <stddef.h>
#include "traces/workload.h"

struct frame_kernels {
	struct kernel_spec *k;
	int n, cap;
	struct frame_features features;   /* set by sources whose traces carry them */
	sim_time cpu_ns;         /* a closed loop's CPU phase after this frame, from its trace; -1: not given */
};

/* Makes room for one more kernel and returns it (zeroed). */
struct kernel_spec *frame_kernels_add(struct frame_kernels *f);
void frame_kernels_free(struct frame_kernels *f);

struct frame_source_ops {
	const char *name;
	/* Fills `out` (emptied first) with frame `number`'s kernels.  Returns 0, 1 when the source
	 * has no more frames, or -1 with a message in err. */
	int (*next)(void *self, long number, struct frame_kernels *out, char *err, size_t errlen);
	void (*close)(void *self);
};

struct frame_source {
	const struct frame_source_ops *ops;
	void *self;
};

/* Opens the source a game spec names; `kernels` is the experiment's kernel table, which an
 * inline game's indices name.  Returns 0, or -1 with a message in err. */
int frame_source_open(struct frame_source *src, const struct game_spec *g, const struct kernel_spec *kernels,
		      const struct gpu_desc *gpu, char *err, size_t errlen);
void frame_source_close(struct frame_source *src);

#endif
