/* source — frame sources (see source.h): inline, kernel-level trace, frame-level trace. */
#include "traces/source.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "traces/gametrace.h"
#include "traces/profile.h"

struct kernel_spec *frame_kernels_add(struct frame_kernels *f)
{
	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 8;
		f->k = realloc(f->k, (size_t)f->cap * sizeof(*f->k));
		if (!f->k) {
			fprintf(stderr, "combosim: out of memory\n");
			exit(1);
		}
	}
	memset(&f->k[f->n], 0, sizeof(f->k[0]));
	return &f->k[f->n++];
}

void frame_kernels_free(struct frame_kernels *f)
{
	free(f->k);
	f->k = NULL;
	f->n = f->cap = 0;
}

struct inline_source {
	const struct kernel_spec *kernels;
	const struct game_spec *g;
};

static int inline_next(void *self, long number, struct frame_kernels *out, char *err, size_t errlen)
{
	const struct inline_source *s = self;
	(void)number; (void)err; (void)errlen;
	out->n = 0;
	out->features = (struct frame_features){ 0 };
	out->cpu_ns = -1;
	for (int i = 0; i < s->g->n_kernels; i++)
		*frame_kernels_add(out) = s->kernels[s->g->kernels[i]];
	return 0;
}

static void inline_close(void *self)
{
	free(self);
}

static const struct frame_source_ops inline_ops = {
	.name = "inline",
	.next = inline_next,
	.close = inline_close,
};

/* A kernel-level CSV trace, streamed: each frame's rows as the frame is released. */
static int ktrace_next(void *self, long number, struct frame_kernels *out, char *err, size_t errlen)
{
	(void)number;
	out->features = (struct frame_features){ 0 };
	out->cpu_ns = -1;
	return kernel_trace_next(self, out, err, errlen);
}

static void ktrace_close(void *self)
{
	kernel_trace_close(self);
}

static const struct frame_source_ops ktrace_ops = {
	.name = "kernel-trace",
	.next = ktrace_next,
	.close = ktrace_close,
};

/* A frame-level CSV trace, streamed, each record expanded by the game's profile. */
struct ftrace_source {
	struct frame_trace *t;
	const struct game_profile *p;
};

static int ftrace_next(void *self, long number, struct frame_kernels *out, char *err, size_t errlen)
{
	struct ftrace_source *s = self;
	struct frame_record r;
	(void)number;
	int rc = frame_trace_next(s->t, &r, err, errlen);
	if (rc)
		return rc;
	game_profile_expand(s->p, &r, out);
	bool res = r.width > 0;
	out->features = (struct frame_features){
		.known = res && r.spp >= 0 && r.triangles >= 0,
		.width = res ? r.width : s->p->ref_width,
		.height = res ? r.height : s->p->ref_height,
		.spp = r.spp, .triangles = r.triangles,
	};
	out->cpu_ns = r.cpu_ms >= 0 ? (sim_time)llround(r.cpu_ms * 1e6) : -1;
	return 0;
}

static void ftrace_close(void *self)
{
	struct ftrace_source *s = self;
	frame_trace_close(s->t);
	free(s);
}

static const struct frame_source_ops ftrace_ops = {
	.name = "frame-trace",
	.next = ftrace_next,
	.close = ftrace_close,
};

static void *xcalloc1(size_t sz)
{
	void *p = calloc(1, sz);
	if (!p) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	return p;
}

int frame_source_open(struct frame_source *src, const struct game_spec *g, const struct kernel_spec *kernels,
		      const struct gpu_desc *gpu, char *err, size_t errlen)
{
	src->ops = NULL;
	src->self = NULL;
	if (g->trace && !g->frame_level) {
		struct kernel_trace *t = kernel_trace_open(g->trace, gpu, err, errlen);
		if (!t)
			return -1;
		src->ops = &ktrace_ops;
		src->self = t;
		return 0;
	}
	if (g->trace) {
		struct ftrace_source *s = xcalloc1(sizeof(*s));
		s->t = frame_trace_open(g->trace, err, errlen);
		if (!s->t) {
			free(s);
			return -1;
		}
		s->p = g->profile;
		src->ops = &ftrace_ops;
		src->self = s;
		return 0;
	}
	struct inline_source *s = xcalloc1(sizeof(*s));
	s->kernels = kernels;
	s->g = g;
	src->ops = &inline_ops;
	src->self = s;
	return 0;
}

void frame_source_close(struct frame_source *src)
{
	if (src->ops && src->ops->close)
		src->ops->close(src->self);
	src->ops = NULL;
	src->self = NULL;
}
