/* gametrace — streaming readers of game traces (CSV, see traces/README.md):
 *
 *   # combosim game-trace v1 kernel-level
 *   frame,kernel,class,grid,threads,regs,smem,solo_us[,rt,cuda,tensor,lsu,dram,sat_blocks,ptb_workers]
 *
 *   # combosim game-trace v1 frame-level
 *   frame,render_ms[,rt_share,width,height,spp,triangles,cpu_ms]
 *
 * cpu_ms, when the column is there, is a closed frame loop's CPU phase after the frame is
 * presented (the game logic of the next iteration), given in every row.
 *
 * A reader holds one row at a time; every row is checked and a bad one is an error
 * "FILE:LINE: COLUMN: expected ..., got ...".  Frames are numbered 0, 1, 2, ... and a frame's
 * rows are consecutive.  game_trace_validate makes the whole streaming pass that experiment
 * loading does before any run starts.
 */
#ifndef COMBOSIM_GAMETRACE_H
#define COMBOSIM_GAMETRACE_H

#include "traces/profile.h"
#include "traces/source.h"

#define GAME_TRACE_MAGIC "# combosim game-trace v1"

enum trace_kind { TRACE_KERNEL_LEVEL, TRACE_FRAME_LEVEL };

/* Reads PATH's first line.  Returns 0 with the kind, or -1 with a message. */
int game_trace_kind(const char *path, enum trace_kind *kind, char *err, size_t errlen);

struct kernel_trace;
/* With g, every kernel's block must fit an SM of g. */
struct kernel_trace *kernel_trace_open(const char *path, const struct gpu_desc *g, char *err, size_t errlen);
/* The next frame's kernels, in stream order.  0, 1 at the end of the trace, -1 on error. */
int kernel_trace_next(struct kernel_trace *t, struct frame_kernels *out, char *err, size_t errlen);
void kernel_trace_close(struct kernel_trace *t);

struct frame_trace;
struct frame_trace *frame_trace_open(const char *path, char *err, size_t errlen);
int frame_trace_next(struct frame_trace *t, struct frame_record *r, char *err, size_t errlen);
/* Whether the trace has a cpu_ms column (then every record's cpu_ms is >= 0). */
bool frame_trace_has_cpu(const struct frame_trace *t);
void frame_trace_close(struct frame_trace *t);

/* Whether PATH is a frame-level trace with a cpu_ms column.  0, or -1 with a message. */
int game_trace_cpu_column(const char *path, bool *has, char *err, size_t errlen);

/* One streaming pass over a whole trace: every row checked (and, for a frame-level trace, its
 * expansion by `profile`, which must be given: no row may give an rt_share above 0 when the
 * profile has no rt kernels).  Returns 0 with the frame count, or -1. */
int game_trace_validate(const char *path, const struct game_profile *profile,
			const struct gpu_desc *g, long *frames, char *err, size_t errlen);

#endif
