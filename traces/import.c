/* import — Nsight Systems CSV, PyTorch profiler JSON and PresentMon CSV importers (see
 * import.h).  The CSVs are streamed row by row; the PyTorch trace is one JSON document. */
#include "traces/import.h"

#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/cfg.h"
#include "models/kernel.h"
#include "traces/csv.h"
#include "traces/gametrace.h"
#include "traces/queue.h"

/* ------------------------------------------------------------------ shared */

#define IMPORT_MAX_SOLO_NS 1e12          /* 1e9 us, the BE queue format's largest solo_us */

struct classifier {
	regex_t tc, cd;
	bool has_cd;
};

static int classifier_init(struct classifier *c, const struct import_opts *o, char *err, size_t errlen)
{
	const char *tc = o->tc_regex ? o->tc_regex : IMPORT_TC_REGEX;
	const char *cd = o->cd_regex ? o->cd_regex : IMPORT_CD_REGEX;
	char why[128];
	int rc = regcomp(&c->tc, tc, REG_EXTENDED | REG_ICASE | REG_NOSUB);
	if (rc) {
		regerror(rc, &c->tc, why, sizeof(why));
		snprintf(err, errlen, "--tc-regex '%s': expected a POSIX extended regular expression (%s)", tc, why);
		return -1;
	}
	c->has_cd = *cd != 0;
	if (c->has_cd && (rc = regcomp(&c->cd, cd, REG_EXTENDED | REG_ICASE | REG_NOSUB))) {
		regerror(rc, &c->cd, why, sizeof(why));
		regfree(&c->tc);
		snprintf(err, errlen, "--cd-regex '%s': expected a POSIX extended regular expression (%s)", cd, why);
		return -1;
	}
	return 0;
}

static void classifier_free(struct classifier *c)
{
	regfree(&c->tc);
	if (c->has_cd)
		regfree(&c->cd);
}

static enum kclass classify(const struct classifier *c, const char *name)
{
	if (c->has_cd && regexec(&c->cd, name, 0, NULL, 0) == 0)
		return KC_CD;
	return regexec(&c->tc, name, 0, NULL, 0) == 0 ? KC_TC : KC_CD;
}

static bool generic_base(const char *s)
{
	static const char *const generic[] = { "Kernel", "Kernel2", "kernel", "device_kernel",
					       "kernel_entry", NULL };
	for (const char *const *g = generic; *g; g++)
		if (strcmp(s, *g) == 0)
			return true;
	return false;
}

/* The last "::" component of s[0..n). */
static void last_component(const char *s, size_t n, char *out, size_t outn)
{
	size_t start = 0;
	int depth = 0;
	for (size_t i = 0; i + 1 < n; i++) {
		if (s[i] == '<' || s[i] == '(')
			depth++;
		else if ((s[i] == '>' || s[i] == ')') && depth > 0)
			depth--;
		else if (depth == 0 && s[i] == ':' && s[i + 1] == ':')
			start = i + 2;
	}
	snprintf(out, outn, "%.*s", (int)(n - start), s + start);
}

void import_short_name(const char *full, char *out, size_t n)
{
	char base[512] = "", targ[512] = "";
	size_t bl = 0, tl = 0;
	const char *s = full;
	int depth = 0;
	bool first_arg = true;
	if (strncmp(s, "void ", 5) == 0)
		s += 5;
	for (; *s; s++) {
		if (strncmp(s, "(anonymous namespace)", 21) == 0) {
			s += 20;
			if (s[1] == ':' && s[2] == ':')
				s += 2;
			continue;
		}
		if (*s == '<') {
			depth++;
			continue;
		}
		if (*s == '>') {
			if (depth > 0)
				depth--;
			if (depth == 0)
				first_arg = false;
			continue;
		}
		if (depth == 0 && *s == '(')
			break;
		if (depth == 0) {
			if (bl + 1 < sizeof(base))
				base[bl++] = *s;
		} else if (depth == 1 && first_arg) {
			if (*s == ',')
				first_arg = false;
			else if (tl + 1 < sizeof(targ))
				targ[tl++] = *s;
		}
	}
	base[bl] = targ[tl] = 0;
	char name[512];
	last_component(base, bl, name, sizeof(name));
	if ((generic_base(name) || !*name) && tl) {
		char arg[512];
		const char *a = targ;
		while (*a == ' ')
			a++;
		last_component(a, strlen(a), arg, sizeof(arg));
		if (*arg)
			snprintf(name, sizeof(name), "%s", arg);
	}
	if (!*name)
		snprintf(name, sizeof(name), "kernel");
	size_t j = 0;
	for (const char *p = name; *p && j + 1 < n && j + 1 < KERNEL_NAME_MAX; p++) {
		unsigned char ch = (unsigned char)*p;
		if (isalnum(ch) || strchr("_:.+-", ch))
			out[j++] = (char)ch;
		else if (j && out[j - 1] != '_')
			out[j++] = '_';
	}
	while (j > 1 && out[j - 1] == '_')
		j--;
	out[j] = 0;
}

/* Shrinks shared memory and then registers until one block fits an SM of g. */
static bool fit_to(struct kernel_spec *k, const struct gpu_desc *g, char *note, size_t n)
{
	struct kernel_fit fit;
	char why[256];
	if (kernel_fit(k, g, &fit, why, sizeof(why)))
		return false;
	int smem0 = k->smem, regs0 = k->regs;
	int cap = gpu_smem_capacity(g, false) - g->smem_reserved_per_block;
	if (g->smem_alloc_unit > 1)
		cap -= cap % g->smem_alloc_unit;
	if (k->smem > cap)
		k->smem = cap > 0 ? cap : 0;
	while (!kernel_fit(k, g, &fit, why, sizeof(why)) && k->regs > 0)
		k->regs--;
	if (k->smem != smem0 && k->regs != regs0)
		snprintf(note, n, "shrunk to fit %s: shared memory %d -> %d B, registers %d -> %d",
			 g->name, smem0, k->smem, regs0, k->regs);
	else if (k->smem != smem0)
		snprintf(note, n, "shrunk to fit %s: shared memory %d -> %d B", g->name, smem0, k->smem);
	else
		snprintf(note, n, "shrunk to fit %s: registers %d -> %d", g->name, regs0, k->regs);
	return true;
}

/* Kernel intervals of the whole trace, every stream, for the co-run check (overlap_share). */
struct ov_edge {
	double t;
	int delta;               /* +1 start, -1 end */
	long stream;
	bool kept;               /* an imported kernel (not one of a stream --stream left out) */
};

struct import_state {
	struct classifier cls;
	struct queue_writer w;
	long skipped;            /* rows that are not kernels (memcpy, memset, other streams) */
	long fitted;
	double fitted_ns;
	struct ov_edge *edges;   /* NULL: the trace gives no start times or streams */
	size_t n_edges, cap_edges;
	/* import_records: the kernels are collected here (with the row's start and stream),
	 * nothing is written */
	bool collect;
	struct import_record *recs;
	size_t n_recs, cap_recs;
	double cur_start;
	long cur_stream;
};

/* Records a kernel's interval (ns) on its stream for overlap_share. */
static void overlap_add(struct import_state *st, double start, double end, long stream, bool kept)
{
	if (st->n_edges + 2 > st->cap_edges) {
		st->cap_edges = st->cap_edges ? 2 * st->cap_edges : 1024;
		st->edges = realloc(st->edges, st->cap_edges * sizeof(*st->edges));
		if (!st->edges) {
			fprintf(stderr, "combosim: out of memory\n");
			exit(1);
		}
	}
	st->edges[st->n_edges++] = (struct ov_edge){ start, +1, stream, kept };
	st->edges[st->n_edges++] = (struct ov_edge){ end, -1, stream, kept };
}

static int edge_cmp(const void *a, const void *b)
{
	const struct ov_edge *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->delta - y->delta;      /* ends first: back-to-back kernels do not overlap */
}

/* The share of the imported kernels' time during which a kernel of another stream also ran.
 * Those durations are co-run times, not the solo times a queue's solo_us means. */
static double overlap_share(struct import_state *st)
{
	if (st->n_edges < 4)
		return 0;
	qsort(st->edges, st->n_edges, sizeof(*st->edges), edge_cmp);
	long streams[64], active[64];
	int n_streams = 0, busy = 0, kept = 0;
	double over = 0, total = 0;
	for (size_t i = 0; i < st->n_edges; i++) {
		const struct ov_edge *e = &st->edges[i];
		if (i > 0) {
			double dt = e->t - st->edges[i - 1].t;
			total += dt * kept;
			if (busy >= 2)
				over += dt * kept;
		}
		int s = 0;
		while (s < n_streams && streams[s] != e->stream)
			s++;
		if (s == n_streams) {
			if (n_streams == 64)
				return 0;        /* beyond 64 streams: not checked */
			streams[n_streams] = e->stream;
			active[n_streams++] = 0;
		}
		busy += (active[s] == 0 && e->delta > 0) - (active[s] == 1 && e->delta < 0);
		active[s] += e->delta;
		kept += e->kept ? e->delta : 0;
	}
	return total > 0 ? over / total : 0;
}

/* Above this share of co-run time the import warns (and the queue records the share). */
#define OVERLAP_WARN_SHARE 0.05

static void default_name(const char *path, const struct import_opts *o, char *out, size_t n)
{
	if (o->name) {
		snprintf(out, n, "%s", o->name);
		return;
	}
	char tmp[PATH_MAX];
	snprintf(tmp, sizeof(tmp), "%s", strcmp(path, "-") == 0 ? "stdin" : path);
	char *b = basename(tmp);
	char *dot = strchr(b, '.');
	if (dot && dot != b)
		*dot = 0;
	snprintf(out, n, "%s", b);
}

/* Adds one imported kernel; returns -1 when it cannot be made to fit. */
static int add_kernel(struct import_state *st, const struct import_opts *o, struct kernel_spec *k,
		      char *err, size_t errlen, const char *where)
{
	double scale = o->time_scale > 0 ? o->time_scale : 1, ns = (double)k->solo_ns * scale;
	/* checked before the conversion: a queue holds solo_us up to 1e9 (profile.c) */
	if (ns > IMPORT_MAX_SOLO_NS) {
		snprintf(err, errlen, "%s: kernel '%s': expected a duration of at most 1e9 us (after --time-scale), got %.6g us",
			 where, k->name, ns / 1e3);
		return -1;
	}
	k->solo_ns = llround(ns);
	if (k->solo_ns < 1)
		k->solo_ns = 1;
	char note[160];
	const char *np = NULL;
	if (o->fit) {
		char why[300];
		if (!kernel_units_ok(k, o->fit, why, sizeof(why))) {
			snprintf(err, errlen, "%s: %s", where, why);
			return -1;
		}
		if (k->threads > o->fit->max_threads_per_block) {
			snprintf(err, errlen, "%s: kernel '%s': %d threads per block exceed %s's %d", where,
				 k->name, k->threads, o->fit->name, o->fit->max_threads_per_block);
			return -1;
		}
		if (fit_to(k, o->fit, note, sizeof(note))) {
			np = note;
			st->fitted++;
			st->fitted_ns += (double)k->solo_ns;
		}
	}
	if (!st->collect) {
		queue_add(&st->w, k, np);
		return 0;
	}
	if (st->n_recs == st->cap_recs) {
		st->cap_recs = st->cap_recs ? 2 * st->cap_recs : 256;
		st->recs = realloc(st->recs, st->cap_recs * sizeof(*st->recs));
		if (!st->recs) {
			fprintf(stderr, "combosim: out of memory\n");
			exit(1);
		}
	}
	struct import_record *r = &st->recs[st->n_recs++];
	*r = (struct import_record){ .k = *k, .stream = st->cur_stream, .start_ns = st->cur_start };
	snprintf(r->where, sizeof(r->where), "%s", where);
	st->w.n++;
	return 0;
}

/* The queue's opening members: where it came from, and the user's notes. */
static void begin_queue(struct import_state *st, const struct import_opts *o, FILE *out, const char *path,
			const char *name, const char *kind, const char *what)
{
	char desc[512];
	size_t cap = 256 + (o->notes ? 2 * strlen(o->notes) : 0) + 2 * strlen(path);
	char *members = malloc(cap);
	FILE *m = members ? fmemopen(members, cap, "w") : NULL;
	if (!m) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	fputs("\"source\": ", m);
	json_write_string(m, strcmp(path, "-") == 0 ? "<stdin>" : path);
	if (o->notes) {
		fputs(",\n  \"notes\": ", m);
		json_write_string(m, o->notes);
	}
	fputc(0, m);
	fclose(m);
	snprintf(desc, sizeof(desc), "BE kernel queue imported from %s; kernels classed TC by name (tc-regex '%s', cd-regex '%s')",
		 what, o->tc_regex ? o->tc_regex : IMPORT_TC_REGEX, o->cd_regex ? o->cd_regex : IMPORT_CD_REGEX);
	char gen[128];
	snprintf(gen, sizeof(gen), "combosim trace import %s", kind);
	if (!st->collect)
		queue_begin(&st->w, out, name, desc, gen, members);
	free(members);
}

static void finish_report(struct import_state *st, const struct import_opts *o, const char *name, const char *file)
{
	char extra[512] = "";
	size_t n = 0;
	double over = overlap_share(st);
	free(st->edges);
	st->edges = NULL;
	if (o->fit)
		n += (size_t)snprintf(extra, sizeof(extra), "\"shrunk_to_fit\": { \"gpu\": \"%s\", \"kernels\": %ld, \"solo_us\": %.3f }",
				      o->fit->name, st->fitted, st->fitted_ns / 1e3);
	if (st->collect)
		return;              /* the caller judges the overlap itself, kernel by kernel */
	if (over >= OVERLAP_WARN_SHARE) {
		snprintf(extra + n, sizeof(extra) - n, "%s\"co_run_share\": %.4f", n ? ", " : "", over);
		if (o->report)
			fprintf(o->report, "combosim trace import: %s: warning: %.1f %% of the imported kernel time ran while a "
				"kernel of another stream ran: those durations are co-run times, not solo times (solo_us); "
				"import a capture of the job alone%s\n", file, 100 * over,
				o->stream >= 0 ? "" : ", or one stream with --stream S");
	}
	queue_end(&st->w, extra);
	if (!o->report)
		return;
	double total = 0;
	for (int i = 0; i < KC_COUNT; i++)
		total += st->w.class_ns[i];
	fprintf(o->report, "%s: %ld kernels, %.1f us: TC %.1f %%, CD %.1f %%", name, st->w.n, total / 1e3,
		100 * queue_class_share(&st->w, KC_TC), 100 * queue_class_share(&st->w, KC_CD));
	if (st->skipped)
		fprintf(o->report, "; %ld non-kernel rows skipped", st->skipped);
	if (o->fit)
		fprintf(o->report, "; %ld kernels (%.1f %% of the time) shrunk to fit %s", st->fitted,
			total > 0 ? 100 * st->fitted_ns / total : 0.0, o->fit->name);
	fputc('\n', o->report);
}

/* ------------------------------------------------------------------ nsys */

enum ncol { N_START, N_DUR, N_GX, N_GY, N_GZ, N_BX, N_BY, N_BZ, N_REGS, N_SSMEM, N_DSMEM, N_STRM, N_NAME, N_NCOLS };
static const char *const ncol_names[N_NCOLS] = {
	"Start", "Duration", "GrdX", "GrdY", "GrdZ", "BlkX", "BlkY", "BlkZ", "Reg/Trd", "StcSMem",
	"DymSMem", "Strm", "Name"
};

/* Splits "Duration (ns)" or "Duration:dur_ns" into its name and unit factor to ns or bytes. */
static bool nsys_column(const char *h, char *name, size_t n, double *factor)
{
	const char *cut = strpbrk(h, " (:");
	size_t len = cut ? (size_t)(cut - h) : strlen(h);
	snprintf(name, n, "%.*s", (int)len, h);
	*factor = 1;
	const char *u = strchr(h, '(');
	char unit[16] = "";
	if (u)
		sscanf(u + 1, "%15[^)]", unit);
	else if ((u = strrchr(h, '_')) != NULL && strchr(h, ':'))
		snprintf(unit, sizeof(unit), "%s", u + 1);
	if (!*unit)
		return true;
	static const struct { const char *u; double f; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
		{ "B", 1 }, { "KB", 1e3 }, { "KiB", 1024 }, { "MB", 1e6 }, { "MiB", 1048576 },
	};
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(unit, units[i].u) == 0) {
			*factor = units[i].f;
			return true;
		}
	return false;
}

static int nsys_import(struct import_state *st_, const char *path, const struct import_opts *o, FILE *out, char *err, size_t errlen)
{
	struct csv c;
	struct import_state *st = st_;
	int col[N_NCOLS];
	double factor[N_NCOLS];
	char qname[128];
	int rc;
	if (classifier_init(&st->cls, o, err, errlen))
		return -1;
	if (csv_open(&c, path, err, errlen)) {
		classifier_free(&st->cls);
		return -1;
	}
	/* The report may start with notices; its header is the row with Duration and Name. */
	for (;;) {
		rc = csv_next(&c, err, errlen);
		if (rc <= 0) {
			if (rc == 0)
				csv_fail(&c, err, errlen, "expected the cuda_gpu_trace header (Start (ns),Duration (ns),...,Name), got the end of the file");
			goto fail;
		}
		bool dur = false, name = false;
		for (int i = 0; i < c.n; i++) {
			dur |= strncmp(c.fields[i], "Duration", 8) == 0;
			name |= strcmp(c.fields[i], "Name") == 0;
		}
		if (dur && name)
			break;
	}
	for (int i = 0; i < N_NCOLS; i++)
		col[i] = -1;
	for (int j = 0; j < c.n; j++) {
		char nm[64];
		double f;
		bool unit_ok = nsys_column(c.fields[j], nm, sizeof(nm), &f);
		for (int i = 0; i < N_NCOLS; i++)
			if (strcmp(nm, ncol_names[i]) == 0) {
				if (!unit_ok) {
					csv_fail(&c, err, errlen, "%s: expected a unit among ns, us, ms, s, B, KB, KiB, MB, MiB, got \"%.40s\"",
						 nm, c.fields[j]);
					goto fail;
				}
				col[i] = j;
				factor[i] = f;
			}
	}
	for (int i = N_DUR; i < N_NCOLS; i++)
		if (col[i] < 0 && i != N_STRM) {
			csv_fail(&c, err, errlen, "expected a \"%s\" column in the cuda_gpu_trace header, got none", ncol_names[i]);
			goto fail;
		}
	if (o->stream >= 0 && col[N_STRM] < 0) {
		csv_fail(&c, err, errlen, "expected a \"Strm\" column to select stream %ld, got none", o->stream);
		goto fail;
	}
	int width = c.n;
	default_name(path, o, qname, sizeof(qname));
	begin_queue(st, o, out, path, qname, "nsys", "an Nsight Systems cuda_gpu_trace report");
	while ((rc = csv_next(&c, err, errlen)) > 0) {
		if (csv_is_comment(&c))
			continue;
		if (c.n != width) {
			csv_fail(&c, err, errlen, "expected %d fields as in the header, got %d", width, c.n);
			goto fail;
		}
		if (csv_empty(&c, col[N_GX])) {       /* memcpy / memset: no grid */
			st->skipped++;
			continue;
		}
		long v[N_NCOLS];
		double d, start;
		v[N_STRM] = 0;
		if (col[N_STRM] >= 0 && !csv_long(&c, col[N_STRM], "Strm", 0, LONG_MAX, &v[N_STRM], err, errlen))
			goto fail;
		bool kept = o->stream < 0 || v[N_STRM] == o->stream;
		st->cur_stream = v[N_STRM];
		st->cur_start = NAN;
		/* every kernel's interval, kept or not, for the co-run check */
		if (col[N_START] >= 0) {
			if (!csv_double(&c, col[N_START], "Start", 0, 1e15 / factor[N_START], &start, err, errlen) ||
			    !csv_double(&c, col[N_DUR], "Duration", 0, 1e15 / factor[N_DUR], &d, err, errlen))
				goto fail;
			overlap_add(st, start * factor[N_START], start * factor[N_START] + d * factor[N_DUR], v[N_STRM], kept);
			st->cur_start = start * factor[N_START];
		}
		if (!kept) {
			st->skipped++;
			continue;
		}
		struct kernel_spec k = { 0 };
		const char *full = c.fields[col[N_NAME]];
		if (!*full) {
			csv_fail(&c, err, errlen, "Name: expected a kernel name, got \"\"");
			goto fail;
		}
		import_short_name(full, k.name, sizeof(k.name));
		k.cls = classify(&st->cls, full);
		kclass_default_demand(k.cls, k.demand, &k.dram);
		/* at most 1e15 ns in any unit, so that the conversion to ns cannot overflow */
		if (!csv_double(&c, col[N_DUR], "Duration", 0, 1e15 / factor[N_DUR], &d, err, errlen))
			goto fail;
		k.solo_ns = llround(d * factor[N_DUR]);
		long grid = 1, block = 1;
		for (int i = N_GX; i <= N_BZ; i++) {
			if (!csv_long(&c, col[i], ncol_names[i], 1, 1L << 31, &v[i], err, errlen))
				goto fail;
			if (i <= N_GZ)
				grid *= v[i];
			else
				block *= v[i];
		}
		if (grid > (1L << 30) || block > 4096) {
			csv_fail(&c, err, errlen, "GrdX*GrdY*GrdZ, BlkX*BlkY*BlkZ: expected at most 2^30 blocks of at most 4096 threads, got %ld blocks of %ld",
				 grid, block);
			goto fail;
		}
		k.grid = (int)grid;
		k.threads = (int)block;
		if (!csv_long(&c, col[N_REGS], "Reg/Trd", 0, 255, &v[N_REGS], err, errlen))
			goto fail;
		k.regs = (int)v[N_REGS];
		double smem = 0;
		for (int i = N_SSMEM; i <= N_DSMEM; i++) {
			if (!csv_double(&c, col[i], ncol_names[i], 0, 1e9, &d, err, errlen))
				goto fail;
			smem += d * factor[i];
		}
		if (smem > (1 << 20)) {
			csv_fail(&c, err, errlen, "StcSMem+DymSMem: expected at most 1 MiB per block, got %.0f B", smem);
			goto fail;
		}
		k.smem = (int)ceil(smem - 1e-9);
		char where[300];
		snprintf(where, sizeof(where), "%s:%ld", c.file, c.line);
		if (add_kernel(st, o, &k, err, errlen, where))
			goto fail;
	}
	if (rc < 0)
		goto fail;
	if (st->w.n == 0) {
		snprintf(err, errlen, "%s: expected at least one kernel row, got none", c.file);
		goto fail;
	}
	finish_report(st, o, qname, c.file);
	csv_close(&c);
	classifier_free(&st->cls);
	return 0;
fail:
	free(st->edges);
	csv_close(&c);
	classifier_free(&st->cls);
	return -1;
}

int import_nsys(const char *path, const struct import_opts *o, FILE *out, char *err, size_t errlen)
{
	struct import_state st = { 0 };
	return nsys_import(&st, path, o, out, err, errlen);
}

/* ------------------------------------------------------------------ PyTorch */

/* A kernel event kept from the first pass over the trace: what the queue needs. */
struct pt_event {
	double ts, dur_us;
	long stream;
	int index;               /* in the events array: ties keep file order, errors name it */
	struct kernel_spec k;
};

static int pt_cmp(const void *a, const void *b)
{
	const struct pt_event *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

static bool is_kernel_event(const cJSON *ev)
{
	const cJSON *cat = cJSON_GetObjectItemCaseSensitive(ev, "cat");
	const cJSON *ph = cJSON_GetObjectItemCaseSensitive(ev, "ph");
	return cJSON_IsString(cat) && strcasecmp(cat->valuestring, "kernel") == 0 &&
	       (!cJSON_IsString(ph) || strcmp(ph->valuestring, "X") == 0);
}

static void *pt_grow(void *p, size_t *cap, size_t size)
{
	if (*cap > SIZE_MAX / 2 / size) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	*cap = *cap ? 2 * *cap : 1024;
	p = realloc(p, *cap * size);
	if (!p) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	return p;
}

/* The whole file ("-": stdin), NUL-terminated; NULL with d filled when it cannot be read. */
static char *read_all(const char *path, size_t *len, struct cfg_diag *d)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	size_t n = 0, cap = 1 << 16, got;
	char *buf;
	if (!f) {
		d->failed = true;
		snprintf(d->msg, sizeof(d->msg), "%s: cannot read (%s)", path, strerror(errno));
		return NULL;
	}
	buf = pt_grow(NULL, &cap, 1);
	while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (cap - n < 2)
			buf = pt_grow(buf, &cap, 1);
	}
	bool bad = ferror(f);
	if (f != stdin)
		fclose(f);
	if (bad) {
		free(buf);
		d->failed = true;
		snprintf(d->msg, sizeof(d->msg), "%s: read error", d->file);
		return NULL;
	}
	buf[n] = 0;
	*len = n;
	return buf;
}

/* Reads a [x, y, z] array of positive integers into their product. */
static bool dim3(const struct cfg *args, const char *key, long *out)
{
	struct cfg a;
	int n = 0;
	if (!cfg_arr(args, key, true, &a, &n))
		return false;
	if (n != 3) {
		cfg_fail_key(args, key, "expected an array of 3 positive integers, got %d elements", n);
		return false;
	}
	long p = 1;
	for (int i = 0; i < 3; i++) {
		struct cfg el = cfg_at(&a, i);
		int64_t v;
		if (!cfg_self_int(&el, 1, INT64_C(1) << 31, &v))
			return false;
		p *= (long)v;
		if (p > (1L << 40))
			p = 1L << 40;
	}
	*out = p;
	return true;
}

/* Reads a kernel event into *e (*skip: it runs on a stream other than o->stream); false after
 * an error in ev's diag. */
static bool pt_read_event(const struct cfg *ev, const struct classifier *cls, const struct import_opts *o,
			  struct pt_event *e, bool *skip)
{
	struct kernel_spec *k = &e->k;
	struct cfg args;
	const char *full = NULL;
	double dur;
	int64_t v;
	long grid = 0, block = 0;
	*skip = false;
	if (!cfg_num(ev, "ts", -1e18, 1e18, CFG_REQUIRED, &e->ts) || !cfg_str(ev, "name", NULL, CFG_REQUIRED, &full) ||
	    !cfg_num(ev, "dur", 0, 1e15, CFG_REQUIRED, &dur) || !cfg_obj(ev, "args", true, &args))
		return false;
	/* the stream is required only to select one; without it the co-run check sees one stream */
	e->stream = 0;
	if (o->stream >= 0 || cfg_has(&args, "stream")) {
		if (!cfg_int(&args, "stream", 0, INT64_MAX, CFG_REQUIRED, &v))
			return false;
		e->stream = v;
	}
	e->dur_us = dur;
	if (o->stream >= 0 && e->stream != o->stream) {
		*skip = true;
		return true;
	}
	if (!dim3(&args, "grid", &grid) || !dim3(&args, "block", &block))
		return false;
	if (grid > (1L << 30)) {
		cfg_fail_key(&args, "grid", "expected at most 2^30 blocks, got %ld", grid);
		return false;
	}
	if (block > 4096) {
		cfg_fail_key(&args, "block", "expected at most 4096 threads, got %ld", block);
		return false;
	}
	memset(k, 0, sizeof(*k));
	import_short_name(full, k->name, sizeof(k->name));
	k->cls = classify(cls, full);
	kclass_default_demand(k->cls, k->demand, &k->dram);
	k->grid = (int)grid;
	k->threads = (int)block;
	k->solo_ns = llround(dur * 1e3);
	if (!cfg_int(&args, "registers per thread", 0, 255, CFG_REQUIRED, &v))
		return false;
	k->regs = (int)v;
	if (!cfg_int(&args, "shared memory", 0, 1 << 20, CFG_REQUIRED, &v))
		return false;
	k->smem = (int)v;
	return true;
}

/* First pass: the trace streamed event by event (a 10^6-event trace would take ~2 GB as one
 * tree), each kernel event checked and kept as a pt_event.  Returns how many were kept. */
static size_t pt_collect(const char *text, size_t len, struct import_state *st, const struct import_opts *o,
			 struct pt_event **evs, char *arr_path, struct cfg_diag *d)
{
	struct cfg_stream s;
	struct cfg ev;
	size_t n = 0, cap = 0;
	cJSON *node;
	if (cfg_stream_open(&s, text, len, "traceEvents",
			    "a Chrome trace (an object with \"traceEvents\", or an array of events)", d)) {
		while ((node = cfg_stream_next(&s, &ev))) {
			bool skip = false;
			if (cJSON_IsObject(node) && is_kernel_event(node)) {
				if (n == cap)
					*evs = pt_grow(*evs, &cap, sizeof(**evs));
				(*evs)[n].index = s.index - 1;
				struct pt_event *e = &(*evs)[n];
				if (pt_read_event(&ev, &st->cls, o, e, &skip)) {
					overlap_add(st, e->ts * 1e3, (e->ts + e->dur_us) * 1e3, e->stream, !skip);
					n += !skip;
				}
				st->skipped += skip;
			}
			cJSON_Delete(node);
		}
	}
	snprintf(arr_path, CFG_PATH_MAX, "%s", s.arr.path);
	cfg_stream_close(&s);
	return n;
}

static int pytorch_import(struct import_state *st_, const char *path, const struct import_opts *o, FILE *out, char *err, size_t errlen)
{
	struct cfg_diag d = { .file = strcmp(path, "-") == 0 ? "<stdin>" : path };
	struct import_state *st = st_;
	struct pt_event *evs = NULL;
	char qname[128], arr_path[CFG_PATH_MAX];
	size_t len = 0, n_ev;
	char *text = read_all(path, &len, &d);
	if (!text) {
		snprintf(err, errlen, "%s", d.msg);
		return -1;
	}
	if (classifier_init(&st->cls, o, err, errlen)) {
		free(text);
		return -1;
	}
	n_ev = pt_collect(text, len, st, o, &evs, arr_path, &d);
	free(text);
	if (!d.failed && n_ev == 0) {
		struct cfg root = cfg_root(NULL, &d);
		cfg_fail(&root, "expected kernel events (\"cat\": \"kernel\"), got none: was the profiler's CUDA activity on?");
	}
	if (d.failed)
		goto fail;
	qsort(evs, n_ev, sizeof(*evs), pt_cmp);
	default_name(path, o, qname, sizeof(qname));
	begin_queue(st, o, out, path, qname, "pytorch", "a PyTorch profiler Chrome trace");
	for (size_t i = 0; i < n_ev; i++) {
		char where[CFG_PATH_MAX + 300];
		snprintf(where, sizeof(where), "%s: %s[%d]", d.file, arr_path, evs[i].index);
		st->cur_start = evs[i].ts * 1e3;
		st->cur_stream = evs[i].stream;
		if (add_kernel(st, o, &evs[i].k, err, errlen, where))
			goto fail_msg;
	}
	finish_report(st, o, qname, d.file);
	free(evs);
	classifier_free(&st->cls);
	return 0;
fail:
	snprintf(err, errlen, "%s", d.msg);
fail_msg:
	free(st->edges);
	free(evs);
	classifier_free(&st->cls);
	return -1;
}

int import_pytorch(const char *path, const struct import_opts *o, FILE *out, char *err, size_t errlen)
{
	struct import_state st = { 0 };
	return pytorch_import(&st, path, o, out, err, errlen);
}

/* ------------------------------------------------------------------ PresentMon */

/* Display refresh rates (Hz) in common use: under vsync a frame-interval column
 * (MsBetweenPresents, MsBetweenDisplayChange) sits at 1000/Hz ms whenever the game renders
 * faster than the display, so it says nothing of the render time. */
static const double refresh_hz[] = { 24, 30, 48, 50, 60, 72, 75, 90, 100, 120, 144, 165, 170, 180, 240, 360 };
#define N_REFRESH (sizeof(refresh_hz) / sizeof(refresh_hz[0]))
#define VSYNC_TOL 0.02           /* a value within 2 % of a period counts as at it (59.94 Hz is 60) */

/* How many imported values sit at each refresh period. */
struct vsync_count {
	long at[N_REFRESH];
};

static void vsync_add(struct vsync_count *v, double ms)
{
	for (size_t i = 0; i < N_REFRESH; i++) {
		double period = 1000 / refresh_hz[i];
		if (fabs(ms - period) <= VSYNC_TOL * period)
			v->at[i]++;
	}
}

/* Warns on o->report when most of the frames sit at one refresh period, and says which
 * columns to use instead. */
static void vsync_warn(const struct vsync_count *v, long frames, const char *file, const char *col,
		       const struct import_opts *o)
{
	size_t best = 0;
	for (size_t i = 1; i < N_REFRESH; i++)
		if (v->at[i] > v->at[best])
			best = i;
	if (!o->report || 2 * v->at[best] <= frames)
		return;
	fprintf(o->report,
		"%s: warning: %ld of %ld frames (%.0f %%) of %s sit within %.0f %% of %.3f ms, the frame period of a %g Hz "
		"display: the column looks capped by vsync (it gives the display's rate, not the render time). Use a "
		"capture with vsync off, or from PresentMon 1.9+ (MsGPUActive) or 2.x (MsGPUBusy), which are taken by "
		"default; in a 1.x capture --column MsUntilRenderComplete (from Present() to the end of the frame's GPU "
		"work) is not capped, but is not the whole render time either\n",
		file, v->at[best], frames, 100.0 * (double)v->at[best] / (double)frames, col, 100 * VSYNC_TOL,
		1000 / refresh_hz[best], refresh_hz[best]);
}

int import_presentmon(const char *path, const struct import_opts *o, FILE *out, char *err, size_t errlen)
{
	struct vsync_count vsync = { { 0 } };
	static const char *const render_cols[] = { "MsGPUBusy", "MsGPUActive", "MsGPUTime", "MsBetweenPresents", NULL };
	struct csv c;
	char process[256] = "";
	long frames = 0, skipped = 0, other = 0;
	int rc;
	if (csv_open(&c, path, err, errlen))
		return -1;
	do
		rc = csv_next(&c, err, errlen);
	while (rc > 0 && csv_is_comment(&c));
	if (rc <= 0) {
		if (rc == 0)
			csv_fail(&c, err, errlen, "expected a PresentMon header (Application,...,MsBetweenPresents,...), got the end of the file");
		goto fail;
	}
	int width = c.n;
	int app = csv_column(c.fields, c.n, "Application");
	int rcol = -1;
	const char *used = NULL;
	if (o->column) {
		rcol = csv_column(c.fields, c.n, o->column);
		used = o->column;
		if (rcol < 0) {
			csv_fail(&c, err, errlen, "expected a \"%s\" column (--column), got a header without it", o->column);
			goto fail;
		}
	} else {
		for (const char *const *p = render_cols; *p && rcol < 0; p++)
			if ((rcol = csv_column(c.fields, c.n, *p)) >= 0)
				used = *p;
		if (rcol < 0) {
			csv_fail(&c, err, errlen, "expected one of the columns MsGPUBusy, MsGPUActive, MsGPUTime, MsBetweenPresents, got none");
			goto fail;
		}
	}
	if (o->process)
		snprintf(process, sizeof(process), "%s", o->process);
	if (o->process && app < 0) {
		csv_fail(&c, err, errlen, "expected an \"Application\" column to select '%s', got none", o->process);
		goto fail;
	}
	fprintf(out, "%s frame-level\n", GAME_TRACE_MAGIC);
	fprintf(out, "# imported: combosim trace import presentmon, render time from column %s%s\n", used,
		strcmp(used, "MsBetweenPresents") == 0 ? " (the frame interval: an upper bound of the render time)" : "");
	fprintf(out, "frame,render_ms%s%s\n", o->rt_share >= 0 ? ",rt_share" : "",
		o->width > 0 ? ",width,height" : "");
	while ((rc = csv_next(&c, err, errlen)) > 0) {
		if (csv_is_comment(&c))
			continue;
		if (c.n != width) {
			csv_fail(&c, err, errlen, "expected %d fields as in the header, got %d", width, c.n);
			goto fail;
		}
		if (app >= 0) {
			if (!*process)
				snprintf(process, sizeof(process), "%s", c.fields[app]);
			if (strcmp(process, c.fields[app]) != 0) {
				other++;
				continue;
			}
		}
		const char *v = c.fields[rcol];
		if (!*v || strcmp(v, "NA") == 0) {
			skipped++;
			continue;
		}
		double ms;
		if (!csv_double(&c, rcol, used, 0, 1e6, &ms, err, errlen))
			goto fail;
		if (ms >= 1e-6)
			vsync_add(&vsync, ms);       /* before --time-scale: the display's periods */
		ms *= o->time_scale > 0 ? o->time_scale : 1;
		if (ms < 1e-6) {
			skipped++;
			continue;
		}
		fprintf(out, "%ld,%.6f", frames++, ms);
		if (o->rt_share >= 0)
			fprintf(out, ",%.4f", o->rt_share);
		if (o->width > 0)
			fprintf(out, ",%d,%d", o->width, o->height);
		fputc('\n', out);
	}
	if (rc < 0)
		goto fail;
	if (frames == 0) {
		snprintf(err, errlen, "%s: expected at least one frame with a %s value, got none", c.file, used);
		goto fail;
	}
	if (o->report)
		fprintf(o->report, "%s: %ld frames of %s from column %s; %ld rows without a value, %ld rows of other applications skipped\n",
			c.file, frames, *process ? process : "(no Application column)", used, skipped, other);
	vsync_warn(&vsync, frames, c.file, used, o);
	csv_close(&c);
	return 0;
fail:
	csv_close(&c);
	return -1;
}

/* ------------------------------------------------------------------ records */

int import_records(const char *path, const char *kind, const struct import_opts *o,
		   struct import_record **out, size_t *n, char *err, size_t errlen)
{
	struct import_state st = { .collect = true };
	int rc;
	*out = NULL;
	*n = 0;
	if (strcmp(kind, "nsys") == 0)
		rc = nsys_import(&st, path, o, NULL, err, errlen);
	else if (strcmp(kind, "pytorch") == 0)
		rc = pytorch_import(&st, path, o, NULL, err, errlen);
	else {
		snprintf(err, errlen, "%s: expected a trace kind nsys or pytorch, got '%s'", path, kind);
		return -1;
	}
	for (size_t i = 0; !rc && i < st.n_recs; i++)
		if (isnan(st.recs[i].start_ns)) {
			snprintf(err, errlen, "%s: expected a \"Start\" column (each kernel's start time), got none", path);
			rc = -1;
		}
	if (rc) {
		free(st.recs);
		return -1;
	}
	*out = st.recs;
	*n = st.n_recs;
	return 0;
}
