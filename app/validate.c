/* validate — comparing a simulated and a real kernels.csv (see validate.h). */
#include "app/validate.h"

#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "app/runner.h"
#include "app/validate_real.h"
#include "traces/csv.h"

#define NFIELDS 12

static const char header[] =
	"policy,kernel,class,variant,owner,frame,stream,launch_ns,start_ns,end_ns,solo_ns,blocks";
static const char *const field_names[NFIELDS] = {
	"policy", "kernel", "class", "variant", "owner", "frame", "stream", "launch_ns", "start_ns", "end_ns",
	"solo_ns", "blocks"
};

/* ---------------------------------------------------------------- parsing */

static int fail(char *err, size_t n, const char *name, int line, const char *fmt, const char *a, const char *b)
{
	char msg[400];
	snprintf(msg, sizeof(msg), fmt, a, b);
	snprintf(err, n, "%s:%d: %s", name, line, msg);
	return -1;
}

static int parse_ll(const char *s, long long lo, long long *v)
{
	char *end;
	errno = 0;
	long long x = strtoll(s, &end, 10);
	if (!csv_number_syntax(s, true) || *end || errno || x < lo)
		return -1;
	*v = x;
	return 0;
}

static char *dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (!d) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	return memcpy(d, s, n);
}

static int parse_row(char *line, const char *name, int ln, struct vrow *r, char *err, size_t n)
{
	char *f[NFIELDS];
	int nf = 0;
	if (!*line)
		return fail(err, n, name, ln, "expected a row of %s fields, got an empty line%s", "12", "");
	if (strchr(line, '"'))
		return fail(err, n, name, ln, "quoted fields are not supported (kernels.csv has none)%s%s", "", "");
	for (char *p = line;; p++) {
		if (nf < NFIELDS)
			f[nf] = p;
		nf++;
		p = strchr(p, ',');
		if (!p)
			break;
		*p = 0;
	}
	if (nf != NFIELDS) {
		char got[16];
		snprintf(got, sizeof(got), "%d", nf);
		return fail(err, n, name, ln, "expected 12 comma-separated fields (%s), got %s", header, got);
	}
	memset(r, 0, sizeof(*r));
	r->line = ln;
	if (!*f[0])
		return fail(err, n, name, ln, "field 'policy': expected a label, got an empty field%s%s", "", "");
	if (!*f[1])
		return fail(err, n, name, ln, "field 'kernel': expected a name, got an empty field%s%s", "", "");
	if (strcmp(f[2], "RT") && strcmp(f[2], "CD") && strcmp(f[2], "TC") && strcmp(f[2], "MEM"))
		return fail(err, n, name, ln, "field 'class': expected RT, CD, TC or MEM, got '%s'%s", f[2], "");
	long long v[7];
	static const long long lo[7] = { -1, 0, 0, 0, 0, 0, 0 };
	for (int i = 0; i < 7; i++) {
		if (parse_ll(f[5 + i], lo[i], &v[i])) {
			char what[64];
			snprintf(what, sizeof(what), "field '%s': expected an integer >= %lld", field_names[5 + i], lo[i]);
			return fail(err, n, name, ln, "%s, got '%s'", what, f[5 + i]);
		}
	}
	if (v[3] < v[2]) {
		char a[32];
		snprintf(a, sizeof(a), "%lld", v[2]);
		return fail(err, n, name, ln, "field 'start_ns': expected >= launch_ns (%s), got %s", a, f[8]);
	}
	if (v[4] < v[3]) {
		char a[32];
		snprintf(a, sizeof(a), "%lld", v[3]);
		return fail(err, n, name, ln, "field 'end_ns': expected >= start_ns (%s), got %s", a, f[9]);
	}
	r->policy = dup_str(f[0]);
	r->kernel = dup_str(f[1]);
	r->cls = dup_str(f[2]);
	r->variant = dup_str(f[3]);
	r->owner = dup_str(f[4]);
	r->frame = (long)v[0];
	r->stream = (int)v[1];
	r->launch_ns = v[2];
	r->start_ns = v[3];
	r->end_ns = v[4];
	r->solo_ns = v[5];
	r->blocks = (int)v[6];
	return 0;
}

static int cmp_rows(const struct vrow *x, const struct vrow *y)
{
	int c = strcmp(x->policy, y->policy);
	if (!c)
		c = strcmp(x->owner, y->owner);
	if (!c)
		c = strcmp(x->kernel, y->kernel);
	if (!c)
		c = (x->occurrence > y->occurrence) - (x->occurrence < y->occurrence);
	return c;
}

static int cmp_key(const void *a, const void *b)
{
	const struct vrow *x = *(struct vrow *const *)a, *y = *(struct vrow *const *)b;
	int c = cmp_rows(x, y);
	return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* t's rows sorted by (policy, owner, kernel, occurrence, line). */
static struct vrow **sorted_index(const struct vtable *t)
{
	struct vrow **ix = malloc((size_t)(t->n ? t->n : 1) * sizeof(*ix));
	if (!ix) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	for (int i = 0; i < t->n; i++)
		ix[i] = &t->rows[i];
	qsort(ix, (size_t)t->n, sizeof(*ix), cmp_key);
	return ix;
}

static int same_key(const struct vrow *a, const struct vrow *b)
{
	return !strcmp(a->policy, b->policy) && !strcmp(a->owner, b->owner) && !strcmp(a->kernel, b->kernel);
}

/* Occurrence indexes, runs and the n-th run of each label. */
static void number_rows(struct vtable *t)
{
	struct vrow **ix = sorted_index(t);  /* occurrences are 0 here: sorted by line within a key */
	for (int i = 0; i < t->n; i++)
		ix[i]->occurrence = i && same_key(ix[i], ix[i - 1]) ? ix[i - 1]->occurrence + 1 : 0;
	free(ix);
	int run = -1;
	for (int i = 0; i < t->n; i++) {
		if (!i || strcmp(t->rows[i].policy, t->rows[i - 1].policy))
			run++;
		t->rows[i].run = run;
	}
	t->n_runs = run + 1;
	/* n-th run of a label: count earlier runs with the same label (runs are few per label) */
	int first_of_run = 0;
	for (int i = 0; i < t->n; i++) {
		if (i && t->rows[i].run != t->rows[i - 1].run)
			first_of_run = i;
		if (i != first_of_run) {
			t->rows[i].run_nth = t->rows[first_of_run].run_nth;
			continue;
		}
		int nth = 0;
		for (int j = 0; j < i; j++)
			if (t->rows[j].run != (j ? t->rows[j - 1].run : -1) && !strcmp(t->rows[j].policy, t->rows[i].policy))
				nth++;
		t->rows[i].run_nth = nth;
	}
}

int validate_parse(FILE *f, const char *name, struct vtable *t, char *err, size_t n)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int ln = 0, rc = 0;
	memset(t, 0, sizeof(*t));
	snprintf(t->file, sizeof(t->file), "%s", name);
	while ((len = getline(&line, &cap, f)) >= 0) {
		ln++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = 0;
		if (ln == 1) {
			if (strcmp(line, header)) {
				rc = fail(err, n, name, 1, "expected the header '%s', got '%.120s'", header, line);
				break;
			}
			continue;
		}
		if (t->n == t->cap) {
			int nc = t->cap ? 2 * t->cap : 256;
			struct vrow *nr = realloc(t->rows, (size_t)nc * sizeof(*nr));
			if (!nr) {
				fprintf(stderr, "combosim: out of memory\n");
				exit(1);
			}
			t->rows = nr;
			t->cap = nc;
		}
		if (parse_row(line, name, ln, &t->rows[t->n], err, n)) {
			rc = -1;
			break;
		}
		t->n++;
	}
	free(line);
	if (!rc && ln == 0)
		rc = fail(err, n, name, 1, "expected the header '%s', got an empty file%s", header, "");
	if (!rc && ferror(f))
		rc = fail(err, n, name, ln, "read error: %s%s", strerror(errno), "");
	if (rc) {
		validate_free(t);
		return -1;
	}
	number_rows(t);
	return 0;
}

int validate_load(const char *path, struct vtable *t, char *err, size_t n)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, n, "%s: %s", path, strerror(errno));
		memset(t, 0, sizeof(*t));
		return -1;
	}
	int rc = validate_parse(f, path, t, err, n);
	fclose(f);
	return rc;
}

void validate_free(struct vtable *t)
{
	for (int i = 0; i < t->n; i++) {
		free(t->rows[i].policy);
		free(t->rows[i].kernel);
		free(t->rows[i].cls);
		free(t->rows[i].variant);
		free(t->rows[i].owner);
	}
	free(t->rows);
	t->rows = NULL;
	t->n = t->cap = 0;
}

/* ---------------------------------------------------------------- comparing */

struct vrun {
	const char *label;
	int nth;
	long long launch, end;
	int first_row;
};

static struct vrun *runs_of(const struct vtable *t)
{
	struct vrun *r = calloc((size_t)(t->n_runs ? t->n_runs : 1), sizeof(*r));
	if (!r) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	for (int i = 0; i < t->n; i++) {
		const struct vrow *w = &t->rows[i];
		struct vrun *u = &r[w->run];
		if (!u->label) {
			u->label = w->policy;
			u->nth = w->run_nth;
			u->launch = w->launch_ns;
			u->end = w->end_ns;
			u->first_row = i;
		}
		if (w->launch_ns < u->launch)
			u->launch = w->launch_ns;
		if (w->end_ns > u->end)
			u->end = w->end_ns;
	}
	return r;
}

static const struct vrun *find_run(const struct vrun *r, int n, const char *label, int nth)
{
	for (int i = 0; i < n; i++)
		if (r[i].nth == nth && !strcmp(r[i].label, label))
			return &r[i];
	return NULL;
}

/* For run i labelled "V A+B" preceded by "V A alone" and "V B alone": COMBO Eq. 1. */
static bool pair_reduction(const struct vrun *r, int i, double *red)
{
	char v[64], ab[128], want[200];
	if (i < 2 || sscanf(r[i].label, "%63s %127s", v, ab) != 2)
		return false;
	char *plus = strchr(ab, '+');
	if (!plus || strchr(r[i].label, ' ') != strrchr(r[i].label, ' '))
		return false;
	*plus = 0;
	snprintf(want, sizeof(want), "%s %s alone", v, ab);
	if (strcmp(r[i - 2].label, want))
		return false;
	snprintf(want, sizeof(want), "%s %s alone", v, plus + 1);
	if (strcmp(r[i - 1].label, want))
		return false;
	double t1 = (double)(r[i - 2].end - r[i - 2].launch), t2 = (double)(r[i - 1].end - r[i - 1].launch);
	double tc = (double)(r[i].end - r[i].launch);
	if (t1 + t2 <= 0)
		return false;
	*red = (t1 + t2 - tc) / (t1 + t2);
	return true;
}

static cJSON *stats(double *v, size_t n)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddNumberToObject(j, "n", (double)n);
	if (n) {
		gsl_sort(v, 1, n);
		cJSON_AddNumberToObject(j, "median", gsl_stats_median_from_sorted_data(v, 1, n));
		cJSON_AddNumberToObject(j, "p90", gsl_stats_quantile_from_sorted_data(v, 1, n, 0.9));
		cJSON_AddNumberToObject(j, "max", v[n - 1]);
		cJSON_AddNumberToObject(j, "mean", gsl_stats_mean(v, 1, n));
	}
	return j;
}

cJSON *validate_compare(const struct vtable *sim, const struct vtable *real, char *err, size_t n)
{
	struct vrow **is = sorted_index(sim), **ir = sorted_index(real);
	double *derr = malloc((size_t)(sim->n + 1) * sizeof(double));
	if (!derr) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	size_t nd = 0;
	int matched = 0, sim_only = 0, real_only = 0, zero_real = 0;
	cJSON *worst = cJSON_CreateArray();
	double worst_err[5] = { -1, -1, -1, -1, -1 };
	const struct vrow *worst_row[5][2] = { { NULL } };
	int a = 0, b = 0;
	while (a < sim->n || b < real->n) {
		const struct vrow *x = a < sim->n ? is[a] : NULL, *y = b < real->n ? ir[b] : NULL;
		int c = !x ? 1 : !y ? -1 : cmp_rows(x, y);
		if (c < 0) {
			sim_only++;
			a++;
			continue;
		}
		if (c > 0) {
			real_only++;
			b++;
			continue;
		}
		matched++;
		a++;
		b++;
		double ds = (double)(x->end_ns - x->start_ns), dr = (double)(y->end_ns - y->start_ns);
		if (dr <= 0) {
			zero_real++;
			continue;
		}
		double e = fabs(ds - dr) / dr;
		derr[nd++] = e;
		for (int k = 0; k < 5; k++)
			if (e > worst_err[k]) {
				for (int m = 4; m > k; m--) {
					worst_err[m] = worst_err[m - 1];
					worst_row[m][0] = worst_row[m - 1][0];
					worst_row[m][1] = worst_row[m - 1][1];
				}
				worst_err[k] = e;
				worst_row[k][0] = x;
				worst_row[k][1] = y;
				break;
			}
	}
	free(is);
	free(ir);
	if (!matched) {
		snprintf(err, n, "no kernel of %s matches one of %s by (policy, owner, kernel, occurrence)", sim->file,
			 real->file);
		free(derr);
		cJSON_Delete(worst);
		return NULL;
	}
	for (int k = 0; k < 5 && worst_row[k][0]; k++) {
		cJSON *w = cJSON_CreateObject();
		cJSON_AddStringToObject(w, "policy", worst_row[k][0]->policy);
		cJSON_AddStringToObject(w, "owner", worst_row[k][0]->owner);
		cJSON_AddStringToObject(w, "kernel", worst_row[k][0]->kernel);
		cJSON_AddNumberToObject(w, "occurrence", worst_row[k][0]->occurrence);
		cJSON_AddNumberToObject(w, "sim_ns", (double)(worst_row[k][0]->end_ns - worst_row[k][0]->start_ns));
		cJSON_AddNumberToObject(w, "real_ns", (double)(worst_row[k][1]->end_ns - worst_row[k][1]->start_ns));
		cJSON_AddNumberToObject(w, "error", worst_err[k]);
		cJSON_AddItemToArray(worst, w);
	}

	cJSON *rep = cJSON_CreateObject();
	cJSON_AddStringToObject(rep, "sim", sim->file);
	cJSON_AddStringToObject(rep, "real", real->file);
	cJSON *jk = cJSON_AddObjectToObject(rep, "kernels");
	cJSON_AddNumberToObject(jk, "matched", matched);
	cJSON_AddNumberToObject(jk, "sim_only", sim_only);
	cJSON_AddNumberToObject(jk, "real_only", real_only);
	cJSON_AddNumberToObject(jk, "real_zero_duration", zero_real);
	double kmed = NAN;
	cJSON *ks = stats(derr, nd);
	if (nd)
		kmed = cJSON_GetObjectItem(ks, "median")->valuedouble;
	cJSON_AddItemToObject(jk, "duration_error", ks);
	cJSON_AddItemToObject(jk, "worst", worst);
	free(derr);

	struct vrun *rs = runs_of(sim), *rr = runs_of(real);
	double *merr = malloc((size_t)(sim->n_runs + 1) * sizeof(double));
	double *perr = malloc((size_t)(sim->n_runs + 1) * sizeof(double));
	double *pmerr = malloc((size_t)(sim->n_runs + 1) * sizeof(double));
	if (!merr || !perr || !pmerr) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	size_t nm = 0, np = 0, npm = 0;
	cJSON *jr = cJSON_AddArrayToObject(rep, "runs");
	cJSON *jp = cJSON_AddArrayToObject(rep, "pairs");
	for (int i = 0; i < sim->n_runs; i++) {
		const struct vrun *u = &rs[i], *w = find_run(rr, real->n_runs, u->label, u->nth);
		if (!w)
			continue;
		double ms = (double)(u->end - u->launch), mr = (double)(w->end - w->launch);
		cJSON *j = cJSON_CreateObject();
		cJSON_AddStringToObject(j, "policy", u->label);
		cJSON_AddNumberToObject(j, "nth", u->nth);
		cJSON_AddNumberToObject(j, "makespan_sim_ns", ms);
		cJSON_AddNumberToObject(j, "makespan_real_ns", mr);
		if (mr > 0) {
			merr[nm] = fabs(ms - mr) / mr;
			cJSON_AddNumberToObject(j, "error", merr[nm]);
			nm++;
		}
		cJSON_AddItemToArray(jr, j);
		double red_s, red_r;
		if (pair_reduction(rs, i, &red_s) && pair_reduction(rr, (int)(w - rr), &red_r)) {
			cJSON *q = cJSON_CreateObject();
			cJSON_AddStringToObject(q, "pair", u->label);
			cJSON_AddNumberToObject(q, "nth", u->nth);
			cJSON_AddNumberToObject(q, "reduction_sim", red_s);
			cJSON_AddNumberToObject(q, "reduction_real", red_r);
			perr[np] = fabs(red_s - red_r);
			cJSON_AddNumberToObject(q, "abs_diff", perr[np]);
			np++;
			if (mr > 0)
				pmerr[npm++] = fabs(ms - mr) / mr;
			cJSON_AddItemToArray(jp, q);
		}
	}
	double mmed = NAN;
	cJSON *ms = stats(merr, nm);
	if (nm)
		mmed = cJSON_GetObjectItem(ms, "median")->valuedouble;
	cJSON_AddItemToObject(rep, "makespan_error", ms);
	cJSON_AddItemToObject(rep, "pair_reduction_abs_diff", stats(perr, np));
	cJSON_AddItemToObject(rep, "pair_makespan_error", stats(pmerr, npm));
	double summary = isnan(mmed) ? kmed : isnan(kmed) ? mmed : fmax(kmed, mmed);
	cJSON_AddNumberToObject(rep, "summary_error", summary);
	cJSON_AddStringToObject(rep, "summary_definition",
				"the larger of the median per-kernel duration error and the median per-run makespan error");
	free(rs);
	free(rr);
	free(merr);
	free(perr);
	free(pmerr);
	return rep;
}

static double num(const cJSON *o, const char *a, const char *b)
{
	const cJSON *j = cJSON_GetObjectItem(o, a);
	if (b)
		j = cJSON_GetObjectItem(j, b);
	return cJSON_IsNumber(j) ? j->valuedouble : NAN;
}

void validate_print(const cJSON *r, FILE *f)
{
	const cJSON *k = cJSON_GetObjectItem(r, "kernels");
	fprintf(f, "sim:  %s\nreal: %s\n", cJSON_GetObjectItem(r, "sim")->valuestring,
		cJSON_GetObjectItem(r, "real")->valuestring);
	fprintf(f, "kernels: %.0f matched, %.0f only in sim, %.0f only in real\n", num(k, "matched", NULL),
		num(k, "sim_only", NULL), num(k, "real_only", NULL));
	const cJSON *d = cJSON_GetObjectItem(k, "duration_error");
	fprintf(f, "kernel duration error |sim-real|/real: median %.2f%%  p90 %.2f%%  max %.2f%%\n",
		100 * num(d, "median", NULL), 100 * num(d, "p90", NULL), 100 * num(d, "max", NULL));
	const cJSON *m = cJSON_GetObjectItem(r, "makespan_error");
	fprintf(f, "run makespan error (%.0f runs): median %.2f%%  p90 %.2f%%  max %.2f%%\n", num(m, "n", NULL),
		100 * num(m, "median", NULL), 100 * num(m, "p90", NULL), 100 * num(m, "max", NULL));
	const cJSON *pairs = cJSON_GetObjectItem(r, "pairs");
	if (cJSON_GetArraySize(pairs)) {
		fprintf(f, "co-run makespan reduction (sim, real, |diff|):\n");
		const cJSON *q;
		cJSON_ArrayForEach(q, pairs)
			fprintf(f, "  %-40s %7.2f%% %7.2f%% %7.2f pp\n", cJSON_GetObjectItem(q, "pair")->valuestring,
				100 * num(q, "reduction_sim", NULL), 100 * num(q, "reduction_real", NULL),
				100 * num(q, "abs_diff", NULL));
		const cJSON *p = cJSON_GetObjectItem(r, "pair_reduction_abs_diff");
		fprintf(f, "  median |diff| %.2f pp, max %.2f pp\n", 100 * num(p, "median", NULL), 100 * num(p, "max", NULL));
		const cJSON *pm = cJSON_GetObjectItem(r, "pair_makespan_error");
		fprintf(f, "  co-run makespan error (pair runs only): median %.2f%%  p90 %.2f%%  max %.2f%%\n",
			100 * num(pm, "median", NULL), 100 * num(pm, "p90", NULL), 100 * num(pm, "max", NULL));
	}
	fprintf(f, "summary error (max of the two medians): %.2f%%\n", 100 * num(r, "summary_error", NULL));
}

int cmd_validate(int argc, char **argv)
{
	const char *sim = NULL, *real = NULL, *json = NULL;
	/* without --sim, --real names a trace of the user's own GPU (validate_real.c) */
	bool has_sim = false, has_real = false;
	for (int i = 0; i < argc; i++) {
		has_sim |= !strcmp(argv[i], "--sim");
		has_real |= !strcmp(argv[i], "--real");
	}
	if (has_real && !has_sim)
		return cmd_validate_real(argc, argv);
	if (cli_asks_help(argc, argv)) {
		fputs("usage: combosim validate --sim SIM/kernels.csv --real REAL/kernels.csv [--json FILE]\n"
		      "Compares a simulated and a real kernels.csv: per-kernel and makespan errors.\n"
		      "       combosim validate --real TRACE --gpu GPU ...   (a trace of your own GPU: --real TRACE --help)\n", stdout);
		return 0;
	}
	for (int i = 0; i < argc; i++) {
		const char **dst = !strcmp(argv[i], "--sim") ? &sim : !strcmp(argv[i], "--real") ? &real
			: !strcmp(argv[i], "--json") ? &json : NULL;
		if (!dst || i + 1 >= argc) {
			fprintf(stderr, dst ? "combosim validate: %s needs a value\n" : "combosim validate: unknown argument '%s'\n",
				argv[i]);
			fputs("usage: combosim validate --sim SIM/kernels.csv --real REAL/kernels.csv [--json FILE]\n", stderr);
			return 2;
		}
		*dst = argv[++i];
	}
	if (!sim || !real) {
		fputs("usage: combosim validate --sim SIM/kernels.csv --real REAL/kernels.csv [--json FILE]\n", stderr);
		return 2;
	}
	struct vtable ts, tr;
	char err[600];
	if (validate_load(sim, &ts, err, sizeof(err))) {
		fprintf(stderr, "combosim: %s\n", err);
		return 2;
	}
	if (validate_load(real, &tr, err, sizeof(err))) {
		fprintf(stderr, "combosim: %s\n", err);
		validate_free(&ts);
		return 2;
	}
	cJSON *rep = validate_compare(&ts, &tr, err, sizeof(err));
	validate_free(&ts);
	validate_free(&tr);
	if (!rep) {
		fprintf(stderr, "combosim: %s\n", err);
		return 2;
	}
	validate_print(rep, stdout);
	int rc = 0;
	if (json) {
		char *s = cJSON_Print(rep);
		FILE *f = s ? fopen(json, "w") : NULL;
		if (!f || fputs(s, f) < 0 || fputc('\n', f) == EOF) {
			fprintf(stderr, "combosim: %s: %s\n", json, strerror(errno));
			rc = 1;
		}
		if (f && fclose(f) && !rc) {
			fprintf(stderr, "combosim: %s: %s\n", json, strerror(errno));
			rc = 1;
		}
		free(s);
	}
	cJSON_Delete(rep);
	return rc;
}
