/* source — frame sources (see source.h) and the inline one. */
#include "traces/source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	const struct experiment *e;
	const struct game_spec *g;
};

static int inline_next(void *self, long number, struct frame_kernels *out, char *err, size_t errlen)
{
	const struct inline_source *s = self;
	(void)number; (void)err; (void)errlen;
	out->n = 0;
	for (int i = 0; i < s->g->n_kernels; i++)
		*frame_kernels_add(out) = s->e->kernels[s->g->kernels[i]];
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

int frame_source_open(struct frame_source *src, const struct experiment *e, int game,
		      char *err, size_t errlen)
{
	struct inline_source *s = calloc(1, sizeof(*s));
	(void)err; (void)errlen;
	if (!s) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	s->e = e;
	s->g = &e->games[game];
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
