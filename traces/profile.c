/* profile — game and BE workload profiles (see profile.h and traces/README.md). */
#include "traces/profile.h"

#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/datadir.h"
#include "traces/csv.h"

const char *const quality_names[Q_COUNT] = { "high", "medium", "low" };

static const char *const kernel_keys[] = {
	"name", "class", "grid", "threads", "regs", "smem", "solo_us", "demand", "dram", "dram_bytes",
	"sat_blocks", "ptb_workers", "note", "source", NULL
};
static const char *const class_names[] = { "RT", "CD", "TC", "MEM", NULL };

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz);
	if (!p) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	return p;
}

/* A shipped profile or queue named without a path: $COMBOSIM_TRACES/DIR/NAME.json, then the
 * lookup of base/datadir.h for traces/DIR/NAME.json (beside the referring file, ., the data
 * directories). */
static bool profile_find_from(const char *dir, const char *name, const char *referrer, char *out, size_t n)
{
	const char *env = getenv("COMBOSIM_TRACES");
	if (env) {
		snprintf(out, n, "%s/%s/%s.json", env, dir, name);
		if (access(out, R_OK) == 0)
			return true;
	}
	char rel[PATH_MAX];
	snprintf(rel, sizeof(rel), "traces/%s/%s.json", dir, name);
	if (datadir_lookup(rel, referrer, out, n))
		return true;
	snprintf(out, n, "%s", name);
	return false;
}

bool profile_find(const char *dir, const char *name, char *out, size_t n)
{
	return profile_find_from(dir, name, NULL, out, n);
}

bool profile_resolve(const char *dir, const char *value, const char *referrer, char *out, size_t n)
{
	size_t len = strlen(value);
	if (strchr(value, '/') || (len > 5 && strcmp(value + len - 5, ".json") == 0))
		return trace_resolve_path(value, referrer, out, n);
	return profile_find_from(dir, value, referrer, out, n);
}

bool kernel_name_ok(const char *s)
{
	return *s && strlen(s) < KERNEL_NAME_MAX && !strpbrk(s, ",\"\n\r");
}

void profile_read_kernel(const struct cfg *c, struct kernel_spec *k, bool need_solo,
			 const char *const *extra, const struct gpu_desc *g)
{
	const char *known[32];
	int n = 0;
	for (const char *const *p = kernel_keys; *p; p++)
		if (need_solo || strcmp(*p, "solo_us") != 0)
			known[n++] = *p;
	for (const char *const *p = extra; p && *p && n < 31; p++)
		known[n++] = *p;
	known[n] = NULL;
	cfg_only(c, known);

	const char *name = NULL;
	int64_t v;
	double d;
	memset(k, 0, sizeof(*k));
	if (cfg_str(c, "name", NULL, CFG_REQUIRED, &name)) {
		if (!kernel_name_ok(name))
			cfg_fail_key(c, "name", "expected a name of 1 to %d characters without commas, quotes or newlines, got \"%.80s\"",
				     KERNEL_NAME_MAX - 1, name);
		else
			snprintf(k->name, sizeof(k->name), "%s", name);
	}
	int cls = cfg_enum(c, "class", class_names, CFG_REQUIRED);
	if (cls < 0)
		return;
	k->cls = (enum kclass)cls;
	kclass_default_demand(k->cls, k->demand, &k->dram);
	k->dram_default = !cfg_has(c, "dram") && !cfg_has(c, "dram_bytes");
	if (cfg_int(c, "grid", 1, 1 << 30, CFG_REQUIRED, &v))
		k->grid = (int)v;
	if (cfg_int(c, "threads", 1, 4096, CFG_REQUIRED, &v))
		k->threads = (int)v;
	if (cfg_int(c, "regs", 0, 255, &(int64_t){ 32 }, &v))
		k->regs = (int)v;
	if (cfg_int(c, "smem", 0, 1 << 20, &(int64_t){ 0 }, &v))
		k->smem = (int)v;
	if (need_solo && cfg_num(c, "solo_us", 1e-3, 1e9, CFG_REQUIRED, &d))
		k->solo_ns = llround(d * 1e3) > 0 ? llround(d * 1e3) : 1;
	if (cfg_int(c, "sat_blocks", 0, 1024, &(int64_t){ 0 }, &v))
		k->sat_blocks = (int)v;
	if (cfg_int(c, "ptb_workers", 0, 1 << 24, &(int64_t){ 0 }, &v))
		k->ptb_workers = (int)v;
	struct cfg dem;
	if (cfg_obj(c, "demand", false, &dem)) {
		cfg_only(&dem, (const char *const[]){ "rt", "cuda", "tensor", "lsu", NULL });
		bool any = false;
		for (int u = 0; u < UNIT_COUNT; u++) {
			if (cfg_num(&dem, unit_names[u], 0, 64, &(double){ 0 }, &d))
				k->demand[u] = d;
			any |= k->demand[u] > 0;
		}
		if (!any && !dem.diag->failed)
			cfg_fail(&dem, "expected a demand above 0 on at least one unit (rt, cuda, tensor, lsu)");
	}
	if (cfg_num(c, "dram", 0, 1000, &(double){ k->dram }, &d))
		k->dram = d;
	if (cfg_num(c, "dram_bytes", 0, 1e18, &(double){ 0 }, &d))
		k->dram_bytes = d;
	if (cfg_has(c, "dram") && cfg_has(c, "dram_bytes"))
		cfg_fail_key(c, "dram_bytes", "expected either dram (a share of the GPU's bandwidth) or dram_bytes (bytes "
			     "moved alone), got both");
	if (c->diag->failed || !g)
		return;
	char err[256];
	struct kernel_fit fit;
	struct kernel_spec probe = *k;
	if (probe.solo_ns < 1)
		probe.solo_ns = 1;
	if (!kernel_fit(&probe, g, &fit, err, sizeof(err)))
		cfg_fail(c, "%s", err);
}

/* Checks the "format"/"version" members of a profile or queue. */
static void read_format(const struct cfg *c, const char *format)
{
	const char *f = NULL;
	int64_t v;
	if (cfg_str(c, "format", NULL, CFG_REQUIRED, &f) && strcmp(f, format) != 0)
		cfg_fail_key(c, "format", "expected \"%s\", got \"%.60s\"", format, f);
	cfg_int(c, "version", 1, 1, CFG_REQUIRED, &v);
}

static void read_profile_name(const struct cfg *c, char *dst)
{
	const char *s = NULL;
	if (!cfg_str(c, "name", NULL, CFG_REQUIRED, &s))
		return;
	if (!*s || strlen(s) >= PROFILE_NAME_MAX || strpbrk(s, ",\"\n\r/ "))
		cfg_fail_key(c, "name", "expected a name of 1 to %d characters without commas, quotes, slashes, spaces or newlines, got \"%.60s\"",
			     PROFILE_NAME_MAX - 1, s);
	else
		snprintf(dst, PROFILE_NAME_MAX, "%s", s);
}

/* ------------------------------------------------------------------ game profiles */

static const char *const game_profile_keys[] = {
	"format", "version", "name", "title", "description", "sources", "notes", "derivation",
	"fps", "fps_source", "rt_share", "rt_share_source", "reference", "kernels", "qualities",
	"modes", "feature_noise", "feature_noise_source", NULL
};

static void load_quality(const struct game_profile *p, const struct cfg *c, struct profile_quality *q)
{
	int64_t v;
	cfg_only(c, (const char *const[]){ "sm_ratio", "sm_ratio_source", "peak_render_ms", "width",
					   "height", "resolution_source", "spp", "triangles",
					   "scene_source", "note", NULL });
	q->present = true;
	cfg_num(c, "sm_ratio", 1e-3, 1, CFG_REQUIRED, &q->sm_ratio);
	if (cfg_num(c, "peak_render_ms", 1e-3, 1e6, CFG_REQUIRED, &q->peak_ms) && !c->diag->failed) {
		double want = q->sm_ratio * 1000.0 / p->fps;
		if (fabs(q->peak_ms - want) > 0.0005)
			cfg_fail_key(c, "peak_render_ms", "expected sm_ratio x 1000 / fps = %.4f, got %.4f",
				     want, q->peak_ms);
	}
	if (cfg_int(c, "width", 1, 65536, CFG_REQUIRED, &v))
		q->width = (int)v;
	if (cfg_int(c, "height", 1, 65536, CFG_REQUIRED, &v))
		q->height = (int)v;
	cfg_num(c, "spp", 0, 1e6, &(double){ -1 }, &q->spp);
	cfg_num(c, "triangles", 0, 1e12, &(double){ -1 }, &q->triangles);
}

static void load_modes(struct game_profile *p, const struct cfg *c)
{
	struct cfg m, s, d, sc;
	if (!cfg_obj(c, "modes", false, &m))
		return;
	cfg_only(&m, (const char *const[]){ "stable", "dynamic", "scenes", NULL });
	if (cfg_obj(&m, "stable", false, &s)) {
		cfg_only(&s, (const char *const[]){ "level", "level_source", "amplitude", "sigma", "source", "note", NULL });
		p->stable.present = true;
		cfg_num(&s, "amplitude", 0, 0.5, CFG_REQUIRED, &p->stable.amplitude);
		cfg_num(&s, "sigma", 0, 0.5, CFG_REQUIRED, &p->stable.sigma);
		double dflt = 1 / (1 + p->stable.amplitude);
		if (cfg_num(&s, "level", 0.01, 1, &dflt, &p->stable.level) && !s.diag->failed &&
		    p->stable.level * (1 + p->stable.amplitude) > 1 + 1e-9)
			cfg_fail_key(&s, "level", "expected level x (1 + amplitude) <= 1 (no stable frame above the peak), got %g x %g",
				     p->stable.level, 1 + p->stable.amplitude);
	}
	if (cfg_obj(&m, "dynamic", false, &d)) {
		struct profile_dynamic *y = &p->dynamic;
		cfg_only(&d, (const char *const[]){ "low", "mean", "high", "sigma", "tau_ms", "source",
						    "note", NULL });
		y->present = true;
		cfg_num(&d, "low", 0.01, 1, CFG_REQUIRED, &y->low);
		cfg_num(&d, "mean", 0.01, 1, CFG_REQUIRED, &y->mean);
		cfg_num(&d, "high", 0.01, 1, CFG_REQUIRED, &y->high);
		cfg_num(&d, "sigma", 0, 1, CFG_REQUIRED, &y->sigma);
		cfg_num(&d, "tau_ms", 0.001, 1e6, CFG_REQUIRED, &y->tau_ms);
		if (!d.diag->failed && !(y->low <= y->mean && y->mean <= y->high && y->low < y->high))
			cfg_fail(&d, "expected low <= mean <= high and low < high, got %g, %g, %g",
				 y->low, y->mean, y->high);
	}
	if (cfg_obj(&m, "scenes", false, &sc)) {
		struct profile_scenes *z = &p->scenes;
		cfg_only(&sc, (const char *const[]){ "render_ms", "cpu_ms", "cv", "cpu_cv", "scene_s",
						     "level_sigma", "source", "sources", "assumptions", "note", NULL });
		z->present = true;
		cfg_num(&sc, "render_ms", 1e-3, 1e6, CFG_REQUIRED, &z->render_ms);
		cfg_num(&sc, "cpu_ms", 0, 1e6, CFG_REQUIRED, &z->cpu_ms);
		cfg_num(&sc, "cv", 0, 1, CFG_REQUIRED, &z->cv);
		cfg_num(&sc, "cpu_cv", 0, 1, CFG_REQUIRED, &z->cpu_cv);
		cfg_num(&sc, "scene_s", 1e-3, 1e6, CFG_REQUIRED, &z->scene_s);
		cfg_num(&sc, "level_sigma", 0, 2, CFG_REQUIRED, &z->level_sigma);
	}
}

struct game_profile *game_profile_load(const char *path, const struct gpu_desc *g,
				       struct cfg_diag *diag)
{
	struct cfg_diag d = { .file = path };
	cJSON *root = cfg_load_file(path, &d);
	if (!root) {
		*diag = d;
		return NULL;
	}
	struct game_profile *p = xcalloc(1, sizeof(*p));
	snprintf(p->file, sizeof(p->file), "%s", path);
	struct cfg c = cfg_root(root, &d), ref, arr, qs;
	int64_t v;
	if (!cJSON_IsObject(root)) {
		cfg_fail(&c, "expected a game profile object");
		goto out;
	}
	cfg_only(&c, game_profile_keys);
	read_format(&c, "combosim game-profile");
	read_profile_name(&c, p->name);
	cfg_num(&c, "fps", 0.1, 10000, CFG_REQUIRED, &p->fps);
	cfg_num(&c, "rt_share", 0, 1, CFG_REQUIRED, &p->rt_share);
	cfg_num(&c, "feature_noise", 0, 0.5, &(double){ 0 }, &p->feature_noise);
	if (cfg_obj(&c, "reference", true, &ref)) {
		cfg_only(&ref, (const char *const[]){ "width", "height", "source", "note", NULL });
		if (cfg_int(&ref, "width", 1, 65536, CFG_REQUIRED, &v))
			p->ref_width = (int)v;
		if (cfg_int(&ref, "height", 1, 65536, CFG_REQUIRED, &v))
			p->ref_height = (int)v;
	}
	if (cfg_arr(&c, "kernels", true, &arr, &p->n_kernels) && !d.failed) {
		double sum[2] = { 0, 0 };
		int count[2] = { 0, 0 };
		p->kernels = xcalloc((size_t)p->n_kernels, sizeof(*p->kernels));
		for (int i = 0; i < p->n_kernels && !d.failed; i++) {
			struct cfg k = cfg_at(&arr, i);
			struct profile_kernel *pk = &p->kernels[i];
			if (!cJSON_IsObject(k.node)) {
				cfg_fail(&k, "expected a kernel object");
				break;
			}
			profile_read_kernel(&k, &pk->k, false, (const char *const[]){ "part", "share", NULL }, g);
			int part = cfg_enum(&k, "part", (const char *const[]){ "rt", "cd", NULL }, CFG_REQUIRED);
			pk->part = part == 1 ? PART_CD : PART_RT;
			cfg_num(&k, "share", 1e-6, 1, CFG_REQUIRED, &pk->share);
			if (part >= 0) {
				sum[part] += pk->share;
				count[part]++;
			}
		}
		for (int part = 0; part < 2 && !d.failed; part++)
			if (part == PART_RT && !count[part] && p->rt_share == 0)
				continue;     /* no RT part: every frame's time is in the cd kernels */
			else if (!count[part] || fabs(sum[part] - 1) > 1e-6)
				cfg_fail_key(&c, "kernels", "expected the shares of the \"%s\" kernels to add up to 1%s, got %g over %d kernels",
					     part ? "cd" : "rt", part ? "" : " (rt kernels may be left out only when rt_share is 0)",
					     sum[part], count[part]);
	}
	if (cfg_obj(&c, "qualities", false, &qs) && !d.failed) {
		cfg_only(&qs, (const char *const[]){ "high", "medium", "low", NULL });
		for (int q = 0; q < Q_COUNT && !d.failed; q++) {
			struct cfg qc;
			if (cfg_obj(&qs, quality_names[q], false, &qc))
				load_quality(p, &qc, &p->q[q]);
		}
		if (!d.failed && !p->q[Q_HIGH].present && !p->q[Q_MEDIUM].present && !p->q[Q_LOW].present)
			cfg_fail_key(&c, "qualities", "expected at least one of \"high\", \"medium\", \"low\"");
	}
	if (!d.failed)
		load_modes(p, &c);
out:
	cJSON_Delete(root);
	if (d.failed) {
		*diag = d;
		game_profile_free(p);
		return NULL;
	}
	return p;
}

bool game_profile_has_part(const struct game_profile *p, enum profile_part part)
{
	for (int i = 0; i < p->n_kernels; i++)
		if (p->kernels[i].part == part)
			return true;
	return false;
}

void game_profile_free(struct game_profile *p)
{
	if (!p)
		return;
	free(p->kernels);
	free(p);
}

void game_profile_expand(const struct game_profile *p, const struct frame_record *r,
			 struct frame_kernels *out)
{
	double share = r->rt_share >= 0 ? r->rt_share : p->rt_share;
	sim_time total = llround(r->render_ms * 1e6);
	sim_time part_ns[2];
	part_ns[PART_RT] = llround((double)total * share);
	part_ns[PART_CD] = total - part_ns[PART_RT];
	double scale = 1;
	if (r->width > 0 && r->height > 0)
		scale = (double)r->width * r->height / ((double)p->ref_width * p->ref_height);
	/* Cumulative rounding: each part's kernels add up to the part exactly. */
	double cum[2] = { 0, 0 };
	sim_time given[2] = { 0, 0 };
	out->n = 0;
	for (int i = 0; i < p->n_kernels; i++) {
		const struct profile_kernel *pk = &p->kernels[i];
		cum[pk->part] += pk->share;
		sim_time upto = llround((double)part_ns[pk->part] * fmin(1.0, cum[pk->part]));
		sim_time t = upto - given[pk->part];
		given[pk->part] = upto;
		if (t <= 0)
			continue;
		struct kernel_spec *k = frame_kernels_add(out);
		*k = pk->k;
		k->solo_ns = t;
		long grid = llround(pk->k.grid * scale);
		k->grid = grid < 1 ? 1 : grid > (1L << 30) ? (1 << 30) : (int)grid;
	}
}

/* ------------------------------------------------------------------ BE profiles */

static const char *const be_profile_keys[] = {
	"format", "version", "name", "aliases", "title", "description", "kind", "kind_source",
	"sources", "notes", "cv", "cv_source", "kernels", NULL
};

struct be_profile *be_profile_load(const char *path, const struct gpu_desc *g, struct cfg_diag *diag)
{
	struct cfg_diag d = { .file = path };
	cJSON *root = cfg_load_file(path, &d);
	if (!root) {
		*diag = d;
		return NULL;
	}
	struct be_profile *p = xcalloc(1, sizeof(*p));
	snprintf(p->file, sizeof(p->file), "%s", path);
	p->tree = root;
	struct cfg c = cfg_root(root, &d), arr;
	int64_t v;
	if (!cJSON_IsObject(root)) {
		cfg_fail(&c, "expected a BE profile object");
		goto out;
	}
	cfg_only(&c, be_profile_keys);
	read_format(&c, "combosim be-profile");
	read_profile_name(&c, p->name);
	int kind = cfg_enum(&c, "kind", (const char *const[]){ "compute-intensive", "memory-intensive", "mixed", NULL },
			    CFG_REQUIRED);
	if (kind >= 0)
		snprintf(p->kind, sizeof(p->kind), "%s", cJSON_GetObjectItemCaseSensitive(root, "kind")->valuestring);
	cfg_num(&c, "cv", 0, 0.5, &(double){ 0 }, &p->cv);
	if (cfg_arr(&c, "kernels", true, &arr, &p->n_kernels) && !d.failed) {
		if (p->n_kernels < 1)
			cfg_fail_key(&c, "kernels", "expected at least one kernel");
		p->kernels = xcalloc((size_t)p->n_kernels, sizeof(*p->kernels));
		for (int i = 0; i < p->n_kernels && !d.failed; i++) {
			struct cfg k = cfg_at(&arr, i);
			if (!cJSON_IsObject(k.node)) {
				cfg_fail(&k, "expected a kernel object");
				break;
			}
			profile_read_kernel(&k, &p->kernels[i].k, true, (const char *const[]){ "launches", NULL }, g);
			if (cfg_int(&k, "launches", 1, 1 << 20, &(int64_t){ 1 }, &v))
				p->kernels[i].launches = (int)v;
		}
	}
out:
	if (d.failed) {
		*diag = d;
		be_profile_free(p);
		return NULL;
	}
	return p;
}

void be_profile_free(struct be_profile *p)
{
	if (!p)
		return;
	cJSON_Delete((cJSON *)p->tree);
	free(p->kernels);
	free(p);
}
