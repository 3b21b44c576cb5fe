/* gspace_table — loading G-Space's micro-benchmark co-run table (§4.4): the micro-benchmarks'
 * features and, for every (BE, LC) pair of them, the measured outcome of every configuration.
 * The file (traces/gspace/microbench.json, written by experiments/gspace/microbench/table.py
 * from a simulator run) is checked whole; an error names the file, the JSON path and what was
 * expected.
 *
 *   { "format": "combosim gspace-table", "version": 1, "gpu": NAME, "command": "...",
 *     "features": [7 names, in gs_feature_names' order], "n_values": [n, ...], "k_max": K,
 *     "micro": [{"name": N, "features": [7 numbers]}, ...],
 *     "pairs": [{"be": i, "lc": j, "lc_ratio": [per configuration], "be_tput": [...]}, ...] }
 *
 * Configurations are in gs_grid order (n_values major, k = 1..k_max minor); every ordered pair
 * of micro-benchmarks appears exactly once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "policies/gspace.h"

static const char *const top_keys[] = {
	"format", "version", "gpu", "command", "source", "notes", "features", "n_values", "k_max", "micro",
	"pairs", NULL
};

static bool read_header(struct gs_table *t, const struct cfg *root)
{
	struct cfg arr;
	int n;
	int64_t v;
	const char *fmt;
	cfg_only(root, top_keys);
	if (!cfg_str(root, "format", (const char *const[]){ "combosim gspace-table", NULL }, CFG_REQUIRED, &fmt) ||
	    !cfg_int(root, "version", 1, 1, CFG_REQUIRED, &v))
		return false;
	if (!cfg_arr(root, "features", true, &arr, &n))
		return false;
	if (n != GS_FEATURES) {
		cfg_fail_key(root, "features", "expected the %d feature names, got %d", GS_FEATURES, n);
		return false;
	}
	for (int f = 0; f < n; f++) {
		struct cfg e = cfg_at(&arr, f);
		if (!cJSON_IsString(e.node) || strcmp(e.node->valuestring, gs_feature_names[f]) != 0) {
			cfg_fail(&e, "expected \"%s\"", gs_feature_names[f]);
			return false;
		}
	}
	if (!cfg_arr(root, "n_values", true, &arr, &n))
		return false;
	if (n < 1 || n > GS_MAX_N) {
		cfg_fail_key(root, "n_values", "expected 1 to %d SM counts, got %d", GS_MAX_N, n);
		return false;
	}
	t->grid.nn = n;
	for (int i = 0; i < n; i++) {
		struct cfg e = cfg_at(&arr, i);
		if (!cfg_self_int(&e, i ? t->grid.n_values[i - 1] + 1 : 1, GPU_MAX_SMS, &v))
			return false;
		t->grid.n_values[i] = (int)v;
	}
	if (!cfg_int(root, "k_max", 1, GS_MAX_K, CFG_REQUIRED, &v))
		return false;
	t->grid.nk = (int)v;
	return true;
}

static bool read_vec(const struct cfg *c, const char *key, double *out, int n, double lo, double hi)
{
	struct cfg arr;
	int got;
	if (!cfg_arr(c, key, true, &arr, &got))
		return false;
	if (got != n) {
		cfg_fail_key(c, key, "expected %d numbers, got %d", n, got);
		return false;
	}
	for (int i = 0; i < n; i++) {
		struct cfg e = cfg_at(&arr, i);
		if (!cfg_self_num(&e, lo, hi, &out[i]))
			return false;
	}
	return true;
}

static bool read_micro(struct gs_table *t, const struct cfg *root)
{
	struct cfg arr;
	int n;
	if (!cfg_arr(root, "micro", true, &arr, &n))
		return false;
	if (n < 1) {
		cfg_fail_key(root, "micro", "expected at least one micro-benchmark, got none");
		return false;
	}
	t->nmicro = n;
	t->names = calloc((size_t)n, sizeof(*t->names));
	t->feat = calloc((size_t)n, sizeof(*t->feat));
	t->norm = calloc((size_t)n, sizeof(*t->norm));
	if (!t->names || !t->feat || !t->norm)
		return false;
	for (int i = 0; i < n; i++) {
		struct cfg e = cfg_at(&arr, i);
		const char *name;
		cfg_only(&e, (const char *const[]){ "name", "features", "kernel", NULL });
		if (!cfg_str(&e, "name", NULL, CFG_REQUIRED, &name) ||
		    !read_vec(&e, "features", t->feat[i], GS_FEATURES, 0, 1e12))
			return false;
		snprintf(t->names[i], sizeof(t->names[i]), "%s", name);
	}
	gs_norm_fit(&t->nm, (const double (*)[GS_FEATURES])t->feat, n);
	for (int i = 0; i < n; i++)
		gs_norm_apply(&t->nm, t->feat[i], t->norm[i]);
	return true;
}

static bool read_pairs(struct gs_table *t, const struct cfg *root)
{
	struct cfg arr;
	int n, m = t->nmicro, ncfg = gs_ncfg(&t->grid);
	if (!cfg_arr(root, "pairs", true, &arr, &n))
		return false;
	if (n != m * m) {
		cfg_fail_key(root, "pairs", "expected every ordered pair of the %d micro-benchmarks (%d), got %d", m,
			     m * m, n);
		return false;
	}
	t->pairs = calloc((size_t)n * (size_t)ncfg, sizeof(*t->pairs));
	bool *seen = calloc((size_t)n, sizeof(*seen));
	double *lc = malloc((size_t)ncfg * sizeof(*lc)), *be = malloc((size_t)ncfg * sizeof(*be));
	bool ok = t->pairs && seen && lc && be;
	for (int i = 0; ok && i < n; i++) {
		struct cfg e = cfg_at(&arr, i);
		int64_t b, l;
		cfg_only(&e, (const char *const[]){ "be", "lc", "lc_ratio", "be_tput", NULL });
		ok = cfg_int(&e, "be", 0, m - 1, CFG_REQUIRED, &b) && cfg_int(&e, "lc", 0, m - 1, CFG_REQUIRED, &l) &&
		     read_vec(&e, "lc_ratio", lc, ncfg, 0, 1e9) && read_vec(&e, "be_tput", be, ncfg, 0, 1e3);
		if (ok && seen[b * m + l]) {
			cfg_fail(&e, "pair (be %lld, lc %lld) appears twice", (long long)b, (long long)l);
			ok = false;
		}
		for (int c = 0; ok && c < ncfg; c++)
			t->pairs[(b * m + l) * ncfg + c] = (struct gs_point){ lc[c], be[c] };
		if (ok)
			seen[b * m + l] = true;
	}
	free(seen);
	free(lc);
	free(be);
	return ok;
}

bool gs_table_load(struct gs_table *t, const char *path, struct cfg_diag *diag)
{
	memset(t, 0, sizeof(*t));
	diag->file = path;
	cJSON *root = cfg_load_file(path, diag);
	if (!root)
		return false;
	struct cfg r = cfg_root(root, diag);
	bool ok = read_header(t, &r) && read_micro(t, &r) && read_pairs(t, &r) && !diag->failed;
	if (!ok && !diag->failed)
		snprintf(diag->msg, sizeof(diag->msg), "%s: out of memory", path);
	cJSON_Delete(root);
	return ok;
}

void gs_table_free(struct gs_table *t)
{
	free(t->names);
	free(t->feat);
	free(t->norm);
	free(t->pairs);
	memset(t, 0, sizeof(*t));
}
