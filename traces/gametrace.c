/* gametrace — streaming kernel-level and frame-level game trace readers (see gametrace.h). */
#include "traces/gametrace.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "traces/csv.h"

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz);
	if (!p) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	return p;
}

/* Reads the magic line; returns 0 with the kind. */
static int read_magic(struct csv *c, enum trace_kind *kind, char *err, size_t errlen)
{
	int rc = csv_next(c, err, errlen);
	if (rc < 0)
		return -1;
	const char *s = rc ? c->raw : "";
	size_t m = strlen(GAME_TRACE_MAGIC);
	if (strncmp(s, GAME_TRACE_MAGIC, m) == 0 && strcmp(s + m, " kernel-level") == 0) {
		*kind = TRACE_KERNEL_LEVEL;
		return 0;
	}
	if (strncmp(s, GAME_TRACE_MAGIC, m) == 0 && strcmp(s + m, " frame-level") == 0) {
		*kind = TRACE_FRAME_LEVEL;
		return 0;
	}
	c->line = 1;
	csv_fail(c, err, errlen, "expected \"%s kernel-level\" or \"%s frame-level\", got \"%.60s\"",
		 GAME_TRACE_MAGIC, GAME_TRACE_MAGIC, rc ? s : "an empty file");
	return -1;
}

int game_trace_kind(const char *path, enum trace_kind *kind, char *err, size_t errlen)
{
	struct csv c;
	if (csv_open(&c, path, err, errlen))
		return -1;
	int rc = read_magic(&c, kind, err, errlen);
	csv_close(&c);
	return rc;
}

/* Next non-comment row: 1, 0 at the end, -1 on error. */
static int next_row(struct csv *c, char *err, size_t errlen)
{
	for (;;) {
		int rc = csv_next(c, err, errlen);
		if (rc <= 0)
			return rc;
		if (!csv_is_comment(c))
			return 1;
	}
}

/* Maps the header row to column indices.  names[i] is column i's name; col[i] its index. */
static int read_header(struct csv *c, const char *const *names, const bool *required, int *col,
		       int n, char *err, size_t errlen)
{
	int rc = next_row(c, err, errlen);
	if (rc < 0)
		return -1;
	if (rc == 0) {
		csv_fail(c, err, errlen, "expected the column header line, got the end of the file");
		return -1;
	}
	for (int i = 0; i < n; i++)
		col[i] = -1;
	for (int j = 0; j < c->n; j++) {
		int i;
		for (i = 0; i < n; i++)
			if (strcmp(c->fields[j], names[i]) == 0)
				break;
		if (i == n) {
			char list[512] = "";
			for (int k = 0; k < n; k++)
				snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", k ? "," : "", names[k]);
			csv_fail(c, err, errlen, "expected a column among %s, got \"%.60s\"", list, c->fields[j]);
			return -1;
		}
		if (col[i] >= 0) {
			csv_fail(c, err, errlen, "expected each column once, got \"%s\" twice", names[i]);
			return -1;
		}
		col[i] = j;
	}
	for (int i = 0; i < n; i++)
		if (required[i] && col[i] < 0) {
			csv_fail(c, err, errlen, "expected a \"%s\" column, got a header without it", names[i]);
			return -1;
		}
	return 0;
}

static bool row_width_ok(struct csv *c, int width, char *err, size_t errlen)
{
	if (c->n == width)
		return true;
	csv_fail(c, err, errlen, "expected %d fields as in the header, got %d", width, c->n);
	return false;
}

/* ------------------------------------------------------------------ kernel-level */

enum kcol {
	KC_FRAME, KC_KERNEL, KC_CLASS, KC_GRID, KC_THREADS, KC_REGS, KC_SMEM, KC_SOLO,
	KC_D_RT, KC_D_CUDA, KC_D_TENSOR, KC_D_LSU, KC_DRAM, KC_SAT, KC_PTB, KC_NCOLS
};
static const char *const kcol_names[KC_NCOLS] = {
	"frame", "kernel", "class", "grid", "threads", "regs", "smem", "solo_us",
	"rt", "cuda", "tensor", "lsu", "dram", "sat_blocks", "ptb_workers"
};
static const bool kcol_required[KC_NCOLS] = { true, true, true, true, true, true, true, true };

struct kernel_trace {
	struct csv c;
	const struct gpu_desc *g;
	int col[KC_NCOLS];
	int width;
	long next_frame;         /* the frame number the next frame must have */
	bool pending;            /* the current row starts the next frame */
	bool eof;
	long row_frame;
	struct kernel_spec row;
};

/* Parses the current row into t->row / t->row_frame. */
static int parse_krow(struct kernel_trace *t, char *err, size_t errlen)
{
	struct csv *c = &t->c;
	struct kernel_spec *k = &t->row;
	long v;
	double d;
	if (!row_width_ok(c, t->width, err, errlen))
		return -1;
	memset(k, 0, sizeof(*k));
	if (!csv_long(c, t->col[KC_FRAME], "frame", 0, 1L << 40, &t->row_frame, err, errlen))
		return -1;
	const char *name = c->fields[t->col[KC_KERNEL]];
	if (!kernel_name_ok(name)) {
		csv_fail(c, err, errlen, "kernel: expected a name of 1 to %d characters without commas, quotes or newlines, got \"%.60s\"",
			 KERNEL_NAME_MAX - 1, name);
		return -1;
	}
	snprintf(k->name, sizeof(k->name), "%s", name);
	int cls = kclass_parse(c->fields[t->col[KC_CLASS]]);
	if (cls < 0) {
		csv_fail(c, err, errlen, "class: expected one of RT, CD, TC, MEM, got \"%.20s\"",
			 c->fields[t->col[KC_CLASS]]);
		return -1;
	}
	k->cls = (enum kclass)cls;
	kclass_default_demand(k->cls, k->demand, &k->dram);
	k->dram_default = csv_empty(c, t->col[KC_DRAM]);
	if (!csv_long(c, t->col[KC_GRID], "grid", 1, 1L << 30, &v, err, errlen))
		return -1;
	k->grid = (int)v;
	if (!csv_long(c, t->col[KC_THREADS], "threads", 1, 4096, &v, err, errlen))
		return -1;
	k->threads = (int)v;
	if (!csv_long(c, t->col[KC_REGS], "regs", 0, 255, &v, err, errlen))
		return -1;
	k->regs = (int)v;
	if (!csv_long(c, t->col[KC_SMEM], "smem", 0, 1L << 20, &v, err, errlen))
		return -1;
	k->smem = (int)v;
	if (!csv_double(c, t->col[KC_SOLO], "solo_us", 1e-3, 1e9, &d, err, errlen))
		return -1;
	k->solo_ns = llround(d * 1e3) > 0 ? llround(d * 1e3) : 1;
	/* Demand columns: when any is filled in, the row's demand is exactly those given. */
	bool any = false;
	for (int u = 0; u < UNIT_COUNT; u++)
		any |= !csv_empty(c, t->col[KC_D_RT + u]);
	if (any) {
		bool pos = false;
		for (int u = 0; u < UNIT_COUNT; u++) {
			k->demand[u] = 0;
			if (!csv_empty(c, t->col[KC_D_RT + u]) &&
			    !csv_double(c, t->col[KC_D_RT + u], unit_names[u], 0, 64, &k->demand[u], err, errlen))
				return -1;
			pos |= k->demand[u] > 0;
		}
		if (!pos) {
			csv_fail(c, err, errlen, "rt/cuda/tensor/lsu: expected a demand above 0 on at least one unit, got all 0");
			return -1;
		}
	}
	if (!csv_empty(c, t->col[KC_DRAM]) &&
	    !csv_double(c, t->col[KC_DRAM], "dram", 0, 1000, &k->dram, err, errlen))
		return -1;
	if (!csv_empty(c, t->col[KC_SAT])) {
		if (!csv_long(c, t->col[KC_SAT], "sat_blocks", 0, 1024, &v, err, errlen))
			return -1;
		k->sat_blocks = (int)v;
	}
	if (!csv_empty(c, t->col[KC_PTB])) {
		if (!csv_long(c, t->col[KC_PTB], "ptb_workers", 0, 1L << 24, &v, err, errlen))
			return -1;
		k->ptb_workers = (int)v;
	}
	if (t->g) {
		struct kernel_fit fit;
		char why[256];
		if (!kernel_fit(k, t->g, &fit, why, sizeof(why))) {
			csv_fail(c, err, errlen, "%s", why);
			return -1;
		}
	}
	return 0;
}

struct kernel_trace *kernel_trace_open(const char *path, const struct gpu_desc *g, char *err, size_t errlen)
{
	struct kernel_trace *t = xcalloc(1, sizeof(*t));
	enum trace_kind kind;
	t->g = g;
	if (csv_open(&t->c, path, err, errlen)) {
		free(t);
		return NULL;
	}
	if (read_magic(&t->c, &kind, err, errlen) ||
	    (kind != TRACE_KERNEL_LEVEL && (csv_fail(&t->c, err, errlen, "expected a kernel-level game trace, got a frame-level one"), 1)) ||
	    read_header(&t->c, kcol_names, kcol_required, t->col, KC_NCOLS, err, errlen)) {
		kernel_trace_close(t);
		return NULL;
	}
	t->width = t->c.n;
	return t;
}

int kernel_trace_next(struct kernel_trace *t, struct frame_kernels *out, char *err, size_t errlen)
{
	out->n = 0;
	if (!t->pending) {
		if (t->eof)
			return 1;
		int rc = next_row(&t->c, err, errlen);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			t->eof = true;
			return 1;
		}
		if (parse_krow(t, err, errlen))
			return -1;
	}
	t->pending = false;
	if (t->row_frame != t->next_frame) {
		csv_fail(&t->c, err, errlen, "frame: expected %ld (frames are numbered from 0, their rows together), got %ld",
			 t->next_frame, t->row_frame);
		return -1;
	}
	long cur = t->row_frame;
	*frame_kernels_add(out) = t->row;
	for (;;) {
		int rc = next_row(&t->c, err, errlen);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			t->eof = true;
			break;
		}
		if (parse_krow(t, err, errlen))
			return -1;
		if (t->row_frame == cur) {
			*frame_kernels_add(out) = t->row;
			continue;
		}
		if (t->row_frame != cur + 1) {
			csv_fail(&t->c, err, errlen, "frame: expected %ld or %ld (frames are numbered from 0, their rows together), got %ld",
				 cur, cur + 1, t->row_frame);
			return -1;
		}
		t->pending = true;
		break;
	}
	t->next_frame = cur + 1;
	return 0;
}

void kernel_trace_close(struct kernel_trace *t)
{
	if (!t)
		return;
	csv_close(&t->c);
	free(t);
}

/* ------------------------------------------------------------------ frame-level */

enum fcol { FC_FRAME, FC_RENDER, FC_SHARE, FC_WIDTH, FC_HEIGHT, FC_SPP, FC_TRIS, FC_CPU, FC_NCOLS };
static const char *const fcol_names[FC_NCOLS] = {
	"frame", "render_ms", "rt_share", "width", "height", "spp", "triangles", "cpu_ms"
};
static const bool fcol_required[FC_NCOLS] = { true, true };

struct frame_trace {
	struct csv c;
	int col[FC_NCOLS];
	int width;
	long next_frame;
};

struct frame_trace *frame_trace_open(const char *path, char *err, size_t errlen)
{
	struct frame_trace *t = xcalloc(1, sizeof(*t));
	enum trace_kind kind;
	if (csv_open(&t->c, path, err, errlen)) {
		free(t);
		return NULL;
	}
	if (read_magic(&t->c, &kind, err, errlen) ||
	    (kind != TRACE_FRAME_LEVEL && (csv_fail(&t->c, err, errlen, "expected a frame-level game trace, got a kernel-level one"), 1)) ||
	    read_header(&t->c, fcol_names, fcol_required, t->col, FC_NCOLS, err, errlen)) {
		frame_trace_close(t);
		return NULL;
	}
	if ((t->col[FC_WIDTH] < 0) != (t->col[FC_HEIGHT] < 0)) {
		csv_fail(&t->c, err, errlen, "expected both \"width\" and \"height\" columns or neither, got one");
		frame_trace_close(t);
		return NULL;
	}
	t->width = t->c.n;
	return t;
}

int frame_trace_next(struct frame_trace *t, struct frame_record *r, char *err, size_t errlen)
{
	struct csv *c = &t->c;
	long v;
	int rc = next_row(c, err, errlen);
	if (rc <= 0)
		return rc < 0 ? -1 : 1;
	if (!row_width_ok(c, t->width, err, errlen))
		return -1;
	*r = (struct frame_record){ .rt_share = -1, .spp = -1, .triangles = -1, .cpu_ms = -1 };
	if (!csv_long(c, t->col[FC_FRAME], "frame", 0, 1L << 40, &r->frame, err, errlen))
		return -1;
	if (r->frame != t->next_frame) {
		csv_fail(c, err, errlen, "frame: expected %ld (one row per frame, numbered from 0), got %ld",
			 t->next_frame, r->frame);
		return -1;
	}
	if (!csv_double(c, t->col[FC_RENDER], "render_ms", 1e-6, 1e6, &r->render_ms, err, errlen))
		return -1;
	if (!csv_empty(c, t->col[FC_SHARE]) &&
	    !csv_double(c, t->col[FC_SHARE], "rt_share", 0, 1, &r->rt_share, err, errlen))
		return -1;
	bool ew = csv_empty(c, t->col[FC_WIDTH]), eh = csv_empty(c, t->col[FC_HEIGHT]);
	if (ew != eh) {
		csv_fail(c, err, errlen, "width, height: expected both or neither, got only %s", ew ? "height" : "width");
		return -1;
	}
	if (!ew) {
		if (!csv_long(c, t->col[FC_WIDTH], "width", 1, 65536, &v, err, errlen))
			return -1;
		r->width = (int)v;
		if (!csv_long(c, t->col[FC_HEIGHT], "height", 1, 65536, &v, err, errlen))
			return -1;
		r->height = (int)v;
	}
	if (!csv_empty(c, t->col[FC_SPP]) &&
	    !csv_double(c, t->col[FC_SPP], "spp", 0, 1e6, &r->spp, err, errlen))
		return -1;
	if (!csv_empty(c, t->col[FC_TRIS]) &&
	    !csv_double(c, t->col[FC_TRIS], "triangles", 0, 1e12, &r->triangles, err, errlen))
		return -1;
	if (t->col[FC_CPU] >= 0) {
		/* a closed loop's CPU phase after this frame: every row has one (no default to fall to) */
		if (csv_empty(c, t->col[FC_CPU])) {
			csv_fail(c, err, errlen, "cpu_ms: expected the CPU time in ms after this frame (>= 0) in every row of a trace with a cpu_ms column, got an empty cell");
			return -1;
		}
		if (!csv_double(c, t->col[FC_CPU], "cpu_ms", 0, 1e6, &r->cpu_ms, err, errlen))
			return -1;
	}
	t->next_frame++;
	return 0;
}

bool frame_trace_has_cpu(const struct frame_trace *t)
{
	return t->col[FC_CPU] >= 0;
}

void frame_trace_close(struct frame_trace *t)
{
	if (!t)
		return;
	csv_close(&t->c);
	free(t);
}

/* ------------------------------------------------------------------ validation */

int game_trace_cpu_column(const char *path, bool *has, char *err, size_t errlen)
{
	enum trace_kind kind;
	*has = false;
	if (game_trace_kind(path, &kind, err, errlen))
		return -1;
	if (kind != TRACE_FRAME_LEVEL)
		return 0;
	struct frame_trace *t = frame_trace_open(path, err, errlen);
	if (!t)
		return -1;
	*has = frame_trace_has_cpu(t);
	frame_trace_close(t);
	return 0;
}

int game_trace_validate(const char *path, const struct game_profile *profile,
			const struct gpu_desc *g, long *frames, char *err, size_t errlen)
{
	enum trace_kind kind;
	struct frame_kernels fk = { 0 };
	int rc;
	*frames = 0;
	if (game_trace_kind(path, &kind, err, errlen))
		return -1;
	if (kind == TRACE_KERNEL_LEVEL) {
		struct kernel_trace *t = kernel_trace_open(path, g, err, errlen);
		if (!t)
			return -1;
		while ((rc = kernel_trace_next(t, &fk, err, errlen)) == 0)
			(*frames)++;
		kernel_trace_close(t);
	} else {
		struct frame_record r;
		if (!profile) {
			snprintf(err, errlen, "%s: a frame-level trace needs a game profile to expand its frames", path);
			return -1;
		}
		struct frame_trace *t = frame_trace_open(path, err, errlen);
		if (!t)
			return -1;
		bool no_rt = !game_profile_has_part(profile, PART_RT);
		while ((rc = frame_trace_next(t, &r, err, errlen)) == 0) {
			if (no_rt && r.rt_share > 0) {
				csv_fail(&t->c, err, errlen, "rt_share: expected 0 or an empty cell (profile %s has no rt kernels), got %g",
					 profile->name, r.rt_share);
				rc = -1;
				break;
			}
			(*frames)++;
		}
		frame_trace_close(t);
	}
	frame_kernels_free(&fk);
	if (rc < 0)
		return -1;
	if (*frames == 0) {
		snprintf(err, errlen, "%s: expected at least one frame, got none", path);
		return -1;
	}
	return 0;
}
