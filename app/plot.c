/* plot — `combosim plot DIR` (see plot.h): the results are reduced here, in C, to small .dat
 * files; gnuplot only draws them, so a user can edit a .gp script and rerun it by hand. */
#include "app/plot.h"

#include <errno.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <limits.h>
#include <unistd.h>

#include <gsl/gsl_sort.h>

#include "app/runner.h"
#include "base/cfg.h"
#include "traces/csv.h"

extern char **environ;

#define PLOT_NAME_LEN 96
#define ERR_LEN 600

/* The values of one (policy, workload) pair: frame latencies or finish times. */
struct series {
	int policy;
	char who[PLOT_NAME_LEN];
	double *v;
	size_t n, cap;
	long dropped;
};

struct plot {
	const char *dir;
	char out[4096];          /* DIR/plots */
	bool png, svg;
	double window_s;         /* FPS and BE throughput windows */
	double elapsed_s;        /* the longest run */
	int n_policies;
	char (*policies)[PLOT_NAME_LEN];
	bool *has_be;            /* per policy: BE kernels finished */
	int n_games;
	char (*games)[PLOT_NAME_LEN];
	double *qos_ms, *fps_target;   /* per game */
	struct series *lat, *fin;      /* per (policy, game), index p * n_games + g */
	int n_windows;
	double *be;              /* per (policy, window): solo ns of BE kernels that ended in it */
	char err[ERR_LEN];
};

static int failf(struct plot *pl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int failf(struct plot *pl, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(pl->err, sizeof(pl->err), fmt, ap);
	va_end(ap);
	return EXIT_BAD_INPUT;
}

static void push(struct series *s, double x)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->v = realloc(s->v, s->cap * sizeof(double));
		if (!s->v) {
			perror("combosim plot");
			exit(EXIT_RUN_FAILED);
		}
	}
	s->v[s->n++] = x;
}

static int find_name(char (*names)[PLOT_NAME_LEN], int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

/* ---------------------------------------------------------------- summary.json */

static int read_games(struct plot *pl, const cJSON *runs)
{
	const cJSON *r;
	cJSON_ArrayForEach(r, runs) {
		const cJSON *games = cJSON_GetObjectItemCaseSensitive(r, "games"), *g;
		cJSON_ArrayForEach(g, games) {
			const cJSON *name = cJSON_GetObjectItemCaseSensitive(g, "name");
			if (!cJSON_IsString(name) || find_name(pl->games, pl->n_games, name->valuestring) >= 0)
				continue;
			int i = pl->n_games++;
			pl->games = realloc(pl->games, (size_t)pl->n_games * sizeof(*pl->games));
			pl->qos_ms = realloc(pl->qos_ms, (size_t)pl->n_games * sizeof(double));
			pl->fps_target = realloc(pl->fps_target, (size_t)pl->n_games * sizeof(double));
			snprintf(pl->games[i], PLOT_NAME_LEN, "%s", name->valuestring);
			const cJSON *q = cJSON_GetObjectItemCaseSensitive(g, "qos_ms");
			const cJSON *f = cJSON_GetObjectItemCaseSensitive(g, "fps_target");
			pl->qos_ms[i] = cJSON_IsNumber(q) ? q->valuedouble : NAN;
			pl->fps_target[i] = cJSON_IsNumber(f) ? f->valuedouble : NAN;
		}
	}
	return 0;
}

static int read_summary(struct plot *pl)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/summary.json", pl->dir);
	struct cfg_diag diag = { .file = path };
	cJSON *root = cfg_load_file(path, &diag);
	if (!root)
		return failf(pl, "%s (is %s a results directory of `combosim run`?)", diag.msg, pl->dir);
	const cJSON *runs = cJSON_GetObjectItemCaseSensitive(root, "runs"), *r;
	if (!cJSON_IsArray(runs) || !cJSON_GetArraySize(runs)) {
		cJSON_Delete(root);
		return failf(pl, "%s: $.runs: expected the runs of a `combosim run` experiment (a co-run experiment's results are drawn by plots/reproduction.gp)", path);
	}
	cJSON_ArrayForEach(r, runs) {
		const cJSON *p = cJSON_GetObjectItemCaseSensitive(r, "policy");
		const cJSON *el = cJSON_GetObjectItemCaseSensitive(r, "elapsed_s");
		if (!cJSON_IsString(p) || !cJSON_IsNumber(el)) {
			cJSON_Delete(root);
			return failf(pl, "%s: $.runs[%d]: expected \"policy\" (a string) and \"elapsed_s\" (a number)", path, pl->n_policies);
		}
		pl->policies = realloc(pl->policies, (size_t)(pl->n_policies + 1) * sizeof(*pl->policies));
		snprintf(pl->policies[pl->n_policies++], PLOT_NAME_LEN, "%s", p->valuestring);
		if (el->valuedouble > pl->elapsed_s)
			pl->elapsed_s = el->valuedouble;
	}
	read_games(pl, runs);
	cJSON_Delete(root);
	return 0;
}

/* ---------------------------------------------------------------- frames.csv, kernels.csv */

/* Opens DIR/NAME and finds the named columns in its header; exit code or 0. */
static int open_csv(struct plot *pl, struct csv *c, const char *name, const char *const *cols, int *idx)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s", pl->dir, name);
	if (csv_open(c, path, pl->err, sizeof(pl->err)))
		return EXIT_BAD_INPUT;
	int r = csv_next(c, pl->err, sizeof(pl->err));
	if (r <= 0) {
		if (!r)
			csv_fail(c, pl->err, sizeof(pl->err), "expected a header row, got an empty file");
		return EXIT_BAD_INPUT;
	}
	for (int i = 0; cols[i]; i++)
		if ((idx[i] = csv_column(c->fields, c->n, cols[i])) < 0) {
			csv_fail(c, pl->err, sizeof(pl->err), "expected a column \"%s\" in the header", cols[i]);
			return EXIT_BAD_INPUT;
		}
	return 0;
}

/* The policy of the current row, which summary.json must list. */
static int row_policy(struct plot *pl, const struct csv *c, int col)
{
	int p = find_name(pl->policies, pl->n_policies, c->fields[col]);
	if (p < 0)
		csv_fail(c, pl->err, sizeof(pl->err), "policy \"%.60s\" is not among summary.json's runs", c->fields[col]);
	return p;
}

static int read_frames(struct plot *pl)
{
	static const char *const cols[] = { "policy", "game", "finish_ns", "latency_ns", "dropped", NULL };
	int ix[5];
	struct csv c;
	int rc = open_csv(pl, &c, "frames.csv", cols, ix);
	size_t n = (size_t)pl->n_policies * (size_t)(pl->n_games ? pl->n_games : 1);
	pl->lat = calloc(n, sizeof(struct series));
	pl->fin = calloc(n, sizeof(struct series));
	int r;
	while (!rc && (r = csv_next(&c, pl->err, sizeof(pl->err))) != 0) {
		long dropped;
		double fin, lat;
		int p = r < 0 ? -1 : row_policy(pl, &c, ix[0]);
		int g = p < 0 ? -1 : find_name(pl->games, pl->n_games, c.fields[ix[1]]);
		if (p >= 0 && g < 0)
			csv_fail(&c, pl->err, sizeof(pl->err), "game \"%.60s\" is not among summary.json's games", c.fields[ix[1]]);
		if (g < 0 || !csv_long(&c, ix[4], "dropped", 0, 1, &dropped, pl->err, sizeof(pl->err)) ||
		    !csv_double(&c, ix[2], "finish_ns", -1, 1e300, &fin, pl->err, sizeof(pl->err)) ||
		    !csv_double(&c, ix[3], "latency_ns", -1, 1e300, &lat, pl->err, sizeof(pl->err))) {
			rc = EXIT_BAD_INPUT;
			break;
		}
		size_t k = (size_t)p * (size_t)pl->n_games + (size_t)g;
		if (dropped) {
			pl->lat[k].dropped++;
			continue;
		}
		push(&pl->lat[k], lat / 1e6);
		push(&pl->fin[k], fin / 1e9);
	}
	csv_close(&c);
	return rc;
}

static int read_kernels(struct plot *pl)
{
	static const char *const cols[] = { "policy", "frame", "end_ns", "solo_ns", NULL };
	int ix[4];
	struct csv c;
	int rc = open_csv(pl, &c, "kernels.csv", cols, ix);
	pl->n_windows = (int)ceil(pl->elapsed_s / pl->window_s - 1e-9);
	if (pl->n_windows < 1)
		pl->n_windows = 1;
	pl->be = calloc((size_t)pl->n_policies * (size_t)pl->n_windows, sizeof(double));
	pl->has_be = calloc((size_t)pl->n_policies, sizeof(bool));
	int r;
	while (!rc && (r = csv_next(&c, pl->err, sizeof(pl->err))) != 0) {
		long frame;
		double end, solo;
		int p = r < 0 ? -1 : row_policy(pl, &c, ix[0]);
		if (p < 0 || !csv_long(&c, ix[1], "frame", -1, LONG_MAX, &frame, pl->err, sizeof(pl->err)) ||
		    !csv_double(&c, ix[2], "end_ns", 0, 1e300, &end, pl->err, sizeof(pl->err)) ||
		    !csv_double(&c, ix[3], "solo_ns", 0, 1e300, &solo, pl->err, sizeof(pl->err))) {
			rc = EXIT_BAD_INPUT;
			break;
		}
		if (frame >= 0)
			continue;            /* a game's kernel */
		int w = (int)(end / 1e9 / pl->window_s);
		w = w < pl->n_windows ? w : pl->n_windows - 1;
		pl->be[p * pl->n_windows + w] += solo;
		pl->has_be[p] = true;
	}
	csv_close(&c);
	return rc;
}

/* ---------------------------------------------------------------- data and scripts */

/* One figure being written: its data file and its plot commands (replayed per terminal). */
struct fig {
	const char *name;
	FILE *dat;
	char *body;
	size_t body_len;
	FILE *gp;                /* the commands, into body */
	int blocks;              /* data blocks written (gnuplot's `index`) */
};

static int fig_open(struct plot *pl, struct fig *fg, const char *name)
{
	char path[4300];
	*fg = (struct fig){ .name = name };
	snprintf(path, sizeof(path), "%s/%s.dat", pl->out, name);
	fg->dat = fopen(path, "w");
	fg->gp = fg->dat ? open_memstream(&fg->body, &fg->body_len) : NULL;
	if (!fg->gp) {
		snprintf(pl->err, sizeof(pl->err), "%s: cannot write (%s)", path, strerror(errno));
		if (fg->dat)
			fclose(fg->dat);
		return EXIT_RUN_FAILED;
	}
	fputs("set termoption noenhanced\nset grid\nset key outside right top\n", fg->gp);
	return 0;
}

/* A name as a gnuplot single-quoted string ('' is a quote inside one). */
static void gp_string(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

/* The next data block: its comment line in the .dat, and its curve in the plot command. */
static void fig_block(struct fig *fg, const char *title, const char *with)
{
	fprintf(fg->dat, "# %s\n", title);
	fprintf(fg->gp, "%s '%s.dat' index %d using 1:2 with %s title ", fg->blocks ? ", \\\n    " : "plot",
		fg->name, fg->blocks, with);
	gp_string(fg->gp, title);
	fg->blocks++;
}

static void fig_block_end(struct fig *fg)
{
	fputs("\n\n", fg->dat);
}

/* Writes NAME.gp (the commands once per terminal asked for) and closes the figure. */
static int fig_close(struct plot *pl, struct fig *fg, const char *empty, const char *size)
{
	if (empty)
		fprintf(fg->gp, "set label '%s' at graph 0.3, 0.5\nplot 2 notitle\n", empty);
	else
		fputc('\n', fg->gp);
	fclose(fg->gp);
	char path[4300];
	snprintf(path, sizeof(path), "%s/%s.gp", pl->out, fg->name);
	FILE *g = fopen(path, "w");
	int rc = 0;
	if (g) {
		fprintf(g, "# written by `combosim plot %s`; rerun with `gnuplot %s.gp` in this directory\n", pl->dir, fg->name);
		for (int t = 0; t < 2; t++) {
			if (!(t ? pl->svg : pl->png))
				continue;
			fprintf(g, "reset\nset terminal %s size %s font ',10'\nset output '%s.%s'\n", t ? "svg" : "pngcairo", size,
				fg->name, t ? "svg" : "png");
			fwrite(fg->body, 1, fg->body_len, g);
		}
		fputs("set output\n", g);
	}
	if (!g || ferror(g) | fclose(g) | (ferror(fg->dat) | fclose(fg->dat))) {
		snprintf(pl->err, sizeof(pl->err), "%s: write failed", path);
		rc = EXIT_RUN_FAILED;
	}
	free(fg->body);
	return rc;
}

static void fig_title(struct fig *fg, const char *title, const char *xlabel, const char *ylabel)
{
	fputs("set title ", fg->gp);
	gp_string(fg->gp, title);
	fputs("\nset xlabel ", fg->gp);
	gp_string(fg->gp, xlabel);
	fputs("\nset ylabel ", fg->gp);
	gp_string(fg->gp, ylabel);
	fputc('\n', fg->gp);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static int write_latency(struct plot *pl)
{
	struct fig fg;
	if (fig_open(pl, &fg, "latency_cdf"))
		return EXIT_RUN_FAILED;
	fig_title(&fg, "Frame latency CDF (dashed: each game's QoS target)", "frame latency (ms)", "fraction of frames");
	fputs("set yrange [0:1]\n", fg.gp);
	for (int i = 0; i < pl->n_games; i++)
		if (isfinite(pl->qos_ms[i]))
			fprintf(fg.gp, "set arrow from %.6g, graph 0 to %.6g, graph 1 nohead dashtype 2 lc rgb 'gray30'\n",
				pl->qos_ms[i], pl->qos_ms[i]);
	for (int p = 0; p < pl->n_policies; p++)
		for (int i = 0; i < pl->n_games; i++) {
			struct series *s = &pl->lat[p * pl->n_games + i];
			if (!s->n)
				continue;
			qsort(s->v, s->n, sizeof(double), cmp_double);
			char t[2 * PLOT_NAME_LEN + 48];
			snprintf(t, sizeof(t), "%s / %s%s", pl->policies[p], pl->games[i], s->dropped ? " (some dropped)" : "");
			fig_block(&fg, t, "steps lw 2");
			/* dropped frames never finish: the curve ends below 1 by their share */
			for (size_t k = 0; k < s->n; k++)
				fprintf(fg.dat, "%.6f %.6f\n", s->v[k], (double)(k + 1) / (double)(s->n + (size_t)s->dropped));
			fig_block_end(&fg);
		}
	return fig_close(pl, &fg, fg.blocks ? NULL : "no finished frames", "1000,600");
}

static int write_fps(struct plot *pl)
{
	struct fig fg;
	if (fig_open(pl, &fg, "fps"))
		return EXIT_RUN_FAILED;
	char title[160];
	snprintf(title, sizeof(title), "FPS over time (frames finished per %.3g s window)", pl->window_s);
	fig_title(&fg, title, "simulated time (s)", "FPS (frames/s)");
	fputs("set yrange [0:*]\n", fg.gp);
	long *count = calloc((size_t)pl->n_windows, sizeof(long));
	for (int p = 0; count && p < pl->n_policies; p++)
		for (int i = 0; i < pl->n_games; i++) {
			struct series *s = &pl->fin[p * pl->n_games + i];
			if (!s->n)
				continue;
			memset(count, 0, (size_t)pl->n_windows * sizeof(long));
			for (size_t k = 0; k < s->n; k++) {
				int w = (int)(s->v[k] / pl->window_s);
				count[w < pl->n_windows ? w : pl->n_windows - 1]++;
			}
			char t[2 * PLOT_NAME_LEN + 8];
			snprintf(t, sizeof(t), "%s / %s", pl->policies[p], pl->games[i]);
			fig_block(&fg, t, "linespoints lw 2");
			for (int w = 0; w < pl->n_windows; w++)
				fprintf(fg.dat, "%.6f %.4f\n", (w + 0.5) * pl->window_s, (double)count[w] / pl->window_s);
			fig_block_end(&fg);
		}
	free(count);
	return fig_close(pl, &fg, fg.blocks ? NULL : "no finished frames", "1000,600");
}

static int write_be(struct plot *pl)
{
	struct fig fg;
	if (fig_open(pl, &fg, "be_throughput"))
		return EXIT_RUN_FAILED;
	char title[200];
	snprintf(title, sizeof(title), "BE throughput over time (solo time of the BE kernels finished per %.3g s window, COMBO Eq. 6)",
		 pl->window_s);
	fig_title(&fg, title, "simulated time (s)", "BE throughput (solo-s per s)");
	fputs("set yrange [0:*]\n", fg.gp);
	for (int p = 0; p < pl->n_policies; p++) {
		if (!pl->has_be[p])
			continue;
		fig_block(&fg, pl->policies[p], "linespoints lw 2");
		for (int w = 0; w < pl->n_windows; w++)
			fprintf(fg.dat, "%.6f %.6f\n", (w + 0.5) * pl->window_s, pl->be[p * pl->n_windows + w] / 1e9 / pl->window_s);
		fig_block_end(&fg);
	}
	return fig_close(pl, &fg, fg.blocks ? NULL : "no BE kernel finished", "1000,600");
}

/* occupancy.csv's rows come grouped by policy, then workload, then time (sim/occupancy.c):
 * each group is a data block, and each policy a panel of its blocks. */
struct occ_blocks {
	int n;
	int *policy;
	char (*who)[PLOT_NAME_LEN];
};

static int read_occupancy(struct plot *pl, struct fig *fg, struct csv *c, struct occ_blocks *b)
{
	static const char *const cols[] = { "policy", "t_ms", "owner", "occupancy", NULL };
	int ix[4], r;
	int rc = open_csv(pl, c, "occupancy.csv", cols, ix);
	while (!rc && (r = csv_next(c, pl->err, sizeof(pl->err))) != 0) {
		double t, occ;
		int p = r < 0 ? -1 : row_policy(pl, c, ix[0]);
		if (p < 0 || !csv_double(c, ix[1], "t_ms", 0, 1e300, &t, pl->err, sizeof(pl->err)) ||
		    !csv_double(c, ix[3], "occupancy", 0, 1, &occ, pl->err, sizeof(pl->err)))
			return EXIT_BAD_INPUT;
		const char *who = c->fields[ix[2]];
		if (!b->n || b->policy[b->n - 1] != p || strcmp(b->who[b->n - 1], who)) {
			if (b->n)
				fputs("\n\n", fg->dat);
			b->policy = realloc(b->policy, (size_t)(b->n + 1) * sizeof(int));
			b->who = realloc(b->who, (size_t)(b->n + 1) * sizeof(*b->who));
			b->policy[b->n] = p;
			snprintf(b->who[b->n++], PLOT_NAME_LEN, "%s", who);
			fprintf(fg->dat, "# %s / %s\n", pl->policies[p], who);
		}
		fprintf(fg->dat, "%.6f %.6f\n", t / 1e3, 100 * occ);
	}
	return rc;
}

static int write_occupancy(struct plot *pl)
{
	struct fig fg;
	struct csv c;
	struct occ_blocks b = { 0 };
	if (fig_open(pl, &fg, "occupancy"))
		return EXIT_RUN_FAILED;
	int rc = read_occupancy(pl, &fg, &c, &b);
	csv_close(&c);
	fprintf(fg.gp, "set multiplot layout %d,1 title 'Occupancy by workload: share of the GPU''s thread slots its resident blocks hold'\n",
		pl->n_policies);
	fputs("set ylabel 'thread slots (%)'\nset yrange [0:100]\n", fg.gp);
	for (int p = 0; !rc && p < pl->n_policies; p++) {
		fputs("set title ", fg.gp);
		gp_string(fg.gp, pl->policies[p]);
		fprintf(fg.gp, "\nset xlabel '%s'\n", p == pl->n_policies - 1 ? "simulated time (s)" : "");
		int shown = 0;
		for (int i = 0; i < b.n; i++) {
			if (b.policy[i] != p)
				continue;
			fprintf(fg.gp, "%s 'occupancy.dat' index %d using 1:2 with lines lw 2 title ", shown++ ? ", \\\n    " : "plot", i);
			gp_string(fg.gp, b.who[i]);
		}
		fputs(shown ? "\n" : "set label 1 'nothing ran' at graph 0.4, 0.5\nplot 2 notitle\nunset label 1\n", fg.gp);
	}
	fputs("unset multiplot", fg.gp);
	free(b.policy);
	free(b.who);
	char size[32];
	snprintf(size, sizeof(size), "1000,%d", 120 + 200 * pl->n_policies);
	int rc2 = fig_close(pl, &fg, NULL, size);
	return rc ? rc : rc2;
}

/* ---------------------------------------------------------------- gnuplot and the command */

int plot_gnuplot(const char *dir, const char *name, char *err, size_t n)
{
	/* gnuplot runs the script from its directory (its file names are relative): `cd`
	 * first, the directory as a gnuplot single-quoted string */
	char cd[4400], script[128];
	size_t k = (size_t)snprintf(cd, sizeof(cd), "cd '");
	for (const char *p = dir; *p && k < sizeof(cd) - 4; p++) {
		if (*p == '\'')
			cd[k++] = '\'';
		cd[k++] = *p;
	}
	snprintf(cd + k, sizeof(cd) - k, "'");
	snprintf(script, sizeof(script), "%s.gp", name);
	char *argv[] = { "gnuplot", "-e", cd, script, NULL };
	pid_t pid;
	int e = posix_spawnp(&pid, "gnuplot", NULL, NULL, argv, environ);
	if (e) {
		snprintf(err, n, "cannot run gnuplot (%s); it draws the figures: install it (Debian: apt-get install gnuplot-nox)",
			 strerror(e));
		return EXIT_RUN_FAILED;
	}
	int st;
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		snprintf(err, n, "gnuplot failed on %s/%s (its message above)", dir, script);
		return EXIT_RUN_FAILED;
	}
	return 0;
}

static int gnuplot(struct plot *pl, const char *name)
{
	return plot_gnuplot(pl->out, name, pl->err, sizeof(pl->err));
}

static void plot_usage(FILE *f)
{
	fputs("usage: combosim plot DIR [--format png|svg|both] [--window-ms MS]\n"
	      "Draws one results directory of `combosim run` with gnuplot into DIR/plots/ (data .dat,\n"
	      "scripts .gp to rerun by hand, images): latency_cdf (frame latency CDF per policy and\n"
	      "game, QoS targets dashed), fps (FPS over time), be_throughput (BE throughput over time,\n"
	      "COMBO Eq. 6 per window), occupancy (each workload's share of the GPU's thread slots over\n"
	      "time; needs occupancy.csv: run the experiment with --set outputs.occupancy_ms=1).\n"
	      "  --format     images to write (default both)\n"
	      "  --window-ms  the FPS and throughput window (default 1000, or a tenth of a run under 5 s)\n"
	      "Exit codes: 0 ok, 1 gnuplot missing or failed, 2 bad usage or input.\n", f);
}

static int parse_plot(int argc, char **argv, struct plot *pl)
{
	pl->png = pl->svg = true;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			plot_usage(stdout);
			return EXIT_OK;
		} else if (!strcmp(a, "--format") && i + 1 < argc) {
			const char *v = argv[++i];
			pl->png = !strcmp(v, "png") || !strcmp(v, "both");
			pl->svg = !strcmp(v, "svg") || !strcmp(v, "both");
			if (!pl->png && !pl->svg)
				return failf(pl, "--format: expected png, svg or both, got \"%.40s\"", v);
		} else if (!strcmp(a, "--window-ms") && i + 1 < argc) {
			char *end;
			double ms = strtod(argv[++i], &end);
			if (*end || !(ms >= 0.001 && ms <= 1e9))
				return failf(pl, "--window-ms: expected a number of ms in [0.001, 1e9], got \"%.40s\"", argv[i]);
			pl->window_s = ms / 1e3;
		} else if (a[0] == '-' || pl->dir) {
			plot_usage(stderr);
			return failf(pl, "unexpected argument '%.100s'", a);
		} else {
			pl->dir = a;
		}
	}
	if (!pl->dir) {
		plot_usage(stderr);
		return failf(pl, "a results directory is needed");
	}
	return -1;
}

static void plot_free(struct plot *pl)
{
	size_t n = (size_t)pl->n_policies * (size_t)(pl->n_games ? pl->n_games : 1);
	for (size_t i = 0; pl->lat && i < n; i++) {
		free(pl->lat[i].v);
		free(pl->fin[i].v);
	}
	free(pl->lat);
	free(pl->fin);
	free(pl->policies);
	free(pl->games);
	free(pl->qos_ms);
	free(pl->fps_target);
	free(pl->be);
	free(pl->has_be);
}

static int plot_all(struct plot *pl)
{
	int rc = read_summary(pl);
	if (!pl->window_s)
		pl->window_s = pl->elapsed_s >= 5 ? 1 : pl->elapsed_s > 0 ? pl->elapsed_s / 10 : 1;
	if (rc || (rc = read_frames(pl)) || (rc = read_kernels(pl)))
		return rc;
	snprintf(pl->out, sizeof(pl->out), "%s/plots", pl->dir);
	if (mkdir(pl->out, 0777) && errno != EEXIST) {
		snprintf(pl->err, sizeof(pl->err), "%s: cannot create (%s)", pl->out, strerror(errno));
		return EXIT_RUN_FAILED;
	}
	char occ[4200];
	snprintf(occ, sizeof(occ), "%s/occupancy.csv", pl->dir);
	bool has_occ = access(occ, F_OK) == 0;
	const char *names[] = { "latency_cdf", "fps", "be_throughput", "occupancy" };
	int (*writers[])(struct plot *) = { write_latency, write_fps, write_be, write_occupancy };
	for (int i = 0; i < 4 && !rc; i++) {
		if (i == 3 && !has_occ) {
			printf("plot: no occupancy figure: %s has no occupancy.csv (run with --set outputs.occupancy_ms=1)\n", pl->dir);
			break;
		}
		if (!(rc = writers[i](pl)) && !(rc = gnuplot(pl, names[i])))
			printf("plot: %s/%s%s%s\n", pl->out, names[i], pl->png ? ".png " : " ", pl->svg ? ".svg" : "");
	}
	return rc;
}

int cmd_plot(int argc, char **argv)
{
	struct plot pl = { 0 };
	int rc = parse_plot(argc, argv, &pl);
	if (rc < 0)
		rc = plot_all(&pl);
	if (rc)
		fprintf(stderr, "combosim plot: %s\n", pl.err);
	plot_free(&pl);
	return rc;
}
