/* import — real traces into combosim's formats (see traces/README.md):
 *
 *   nsys        Nsight Systems `nsys stats --report cuda_gpu_trace --format csv` -> BE queue
 *   pytorch     PyTorch profiler Chrome trace (prof.export_chrome_trace) -> BE queue
 *   presentmon  PresentMon CSV (1.x or 2.x columns) -> frame-level game trace
 *
 * Kernels are classed TC when their name matches the TC pattern (and not the CD override),
 * CD otherwise.  Every malformed input is an error naming the file and line (CSV) or JSON path.
 */
#ifndef COMBOSIM_IMPORT_H
#define COMBOSIM_IMPORT_H

#include <stdio.h>
#include "models/gpu.h"
#include "models/kernel.h"

/* POSIX extended regular expressions, case-insensitive. */
#define IMPORT_TC_REGEX "gemm|mma|xmma|wgmma|cutlass|hmma|s16816|s1688|h16816|h1688|i8816|tensorop|nvjet"
#define IMPORT_CD_REGEX "sgemm|dgemm|gemv|simt"

struct import_opts {
	const char *name;            /* queue name; NULL: from the file name */
	const char *notes;           /* written as the queue's "notes" (NULL: none) */
	const char *tc_regex;        /* NULL: IMPORT_TC_REGEX */
	const char *cd_regex;        /* NULL: IMPORT_CD_REGEX; "": none */
	const struct gpu_desc *fit;  /* shrink blocks that do not fit an SM of this GPU; NULL: no */
	double time_scale;           /* multiplies every duration (0: 1) */
	long stream;                 /* only this stream; -1: all */
	FILE *report;                /* a one-line summary goes here (NULL: none) */
	/* presentmon */
	const char *process;         /* Application to keep; NULL: the first row's */
	const char *column;          /* render-time column; NULL: the first of MsGPUBusy,
				      * MsGPUActive, MsGPUTime, MsBetweenPresents */
	double rt_share;             /* < 0: no rt_share column (the profile's applies) */
	int width, height;           /* 0: no resolution columns */
};

/* A kernel of a trace as it ran: its spec (solo_ns: its duration in the trace, after
 * --time-scale), its stream and start (ns from the trace's clock origin). */
struct import_record {
	struct kernel_spec k;
	long stream;
	double start_ns;
	char where[96];          /* FILE:LINE or FILE: $.path[i], for messages */
};

/* Every kernel of an nsys (kind "nsys") or PyTorch ("pytorch") trace, in start order, with the
 * import's checks, classes, names and --fit; none written anywhere.  0, or -1 with err. */
int import_records(const char *path, const char *kind, const struct import_opts *o,
		   struct import_record **out, size_t *n, char *err, size_t errlen);

/* Each returns 0, or -1 with a message in err (the output may then be partial). */
int import_nsys(const char *path, const struct import_opts *o, FILE *out, char *err, size_t errlen);
int import_pytorch(const char *path, const struct import_opts *o, FILE *out, char *err, size_t errlen);
int import_presentmon(const char *path, const struct import_opts *o, FILE *out, char *err, size_t errlen);

/* A short, CSV- and JSON-safe kernel name from a demangled one (exposed for the tests). */
void import_short_name(const char *full, char *out, size_t n);

#endif
