/* trace_cli — `combosim trace gen|import|check` (see trace_cli.h).
 *
 *   combosim trace gen game (--game NAME | --profile FILE) [--quality high|medium|low]
 *                           [--mode stable|dynamic|scenes] --frames N [--seed S] [--fps F]
 *   combosim trace gen be (--app NAME | --profile FILE) [--iterations N] [--cv X] [--seed S]
 *   combosim trace import nsys|pytorch FILE [--name N] [--note TEXT] [--tc-regex RE] [--cd-regex RE]
 *                           [--fit GPU] [--time-scale X] [--stream N]
 *   combosim trace import presentmon FILE [--process APP] [--column COL] [--rt-share X]
 *                           [--width W --height H] [--time-scale X]
 *   combosim trace check FILE [--profile P] [--gpu GPU]
 *
 * Output goes to stdout only when the whole command succeeded (it is built in a temporary
 * file first); errors go to stderr with exit code 2.
 */
#include "app/trace_cli.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "models/gpu.h"
#include "exp/experiment.h"
#include "app/runner.h"
#include "traces/csv.h"
#include "traces/gametrace.h"
#include "traces/gen.h"
#include "traces/import.h"
#include "traces/profile.h"

#define ERR_LEN 1024

static void usage(FILE *f)
{
	fputs("usage: combosim trace gen game (--game quake2|steel|dutm|ascent | --profile FILE)\n"
	      "                 [--quality high|medium|low] [--mode stable|dynamic|scenes] --frames N [--seed S] [--fps F]\n"
	      "       combosim trace gen be (--app cp|mri-fhd|mri-q|lbm|sgemm|cutcp|fft|tpacf | --profile FILE)\n"
	      "                 [--iterations N] [--cv X] [--seed S]\n"
	      "       combosim trace import nsys|pytorch FILE [--name NAME] [--note TEXT] [--tc-regex RE] [--cd-regex RE]\n"
	      "                 [--fit GPU] [--time-scale X] [--stream N]\n"
	      "       combosim trace import presentmon FILE [--process APP] [--column COL] [--rt-share X]\n"
	      "                 [--width W --height H] [--time-scale X]\n"
	      "       combosim trace check FILE [--profile P] [--gpu GPU]\n"
	      "gen and import write to stdout (FILE '-' reads stdin); see traces/README.md.\n", f);
}

/* Option parsing: a table of --name value pairs. */
struct opt {
	const char *name;
	const char *value;
};

static int parse_opts(const char *cmd, int argc, char **argv, struct opt *opts, const char **pos, int npos)
{
	int got = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] == '-' && a[1] == '-') {
			struct opt *o = NULL;
			const char *eq = strchr(a, '=');
			size_t len = eq ? (size_t)(eq - a) : strlen(a);
			for (struct opt *p = opts; p->name; p++)
				if (strlen(p->name) == len && strncmp(p->name, a, len) == 0)
					o = p;
			if (!o) {
				fprintf(stderr, "combosim %s: unknown option '%s'\n", cmd, a);
				return -1;
			}
			if (eq) {
				o->value = eq + 1;
			} else if (i + 1 < argc) {
				o->value = argv[++i];
			} else {
				fprintf(stderr, "combosim %s: %s needs a value\n", cmd, a);
				return -1;
			}
		} else if (got < npos) {
			pos[got++] = a;
		} else {
			fprintf(stderr, "combosim %s: unexpected argument '%s'\n", cmd, a);
			return -1;
		}
	}
	if (got < npos) {
		fprintf(stderr, "combosim %s: missing argument\n", cmd);
		usage(stderr);
		return -1;
	}
	return 0;
}

static const char *opt(const struct opt *opts, const char *name)
{
	for (const struct opt *p = opts; p->name; p++)
		if (strcmp(p->name, name) == 0)
			return p->value;
	return NULL;
}

static bool num_arg(const char *cmd, const char *name, const char *s, double lo, double hi, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (!*s || *end || errno || !(v >= lo && v <= hi)) {
		fprintf(stderr, "combosim %s: %s: expected a number in [%g, %g], got '%s'\n", cmd, name, lo, hi, s);
		return false;
	}
	*out = v;
	return true;
}

static bool long_arg(const char *cmd, const char *name, const char *s, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < lo || v > hi) {
		fprintf(stderr, "combosim %s: %s: expected an integer in [%ld, %ld], got '%s'\n", cmd, name, lo, hi, s);
		return false;
	}
	*out = v;
	return true;
}

static int choice(const char *cmd, const char *name, const char *s, const char *const *choices)
{
	for (int i = 0; choices[i]; i++)
		if (strcmp(s, choices[i]) == 0)
			return i;
	fprintf(stderr, "combosim %s: %s: expected one of", cmd, name);
	for (int i = 0; choices[i]; i++)
		fprintf(stderr, "%s %s", i ? "," : "", choices[i]);
	fprintf(stderr, ", got '%s'\n", s);
	return -1;
}

/* Copies a finished temporary output to stdout. */
static int emit(FILE *tmp)
{
	char buf[65536];
	size_t n;
	fflush(tmp);
	rewind(tmp);
	while ((n = fread(buf, 1, sizeof(buf), tmp)) > 0)
		if (fwrite(buf, 1, n, stdout) != n) {
			fprintf(stderr, "combosim trace: cannot write the output (%s)\n", strerror(errno));
			fclose(tmp);
			return EXIT_RUN_FAILED;
		}
	fclose(tmp);
	if (fflush(stdout)) {
		fprintf(stderr, "combosim trace: cannot write the output (%s)\n", strerror(errno));
		return EXIT_RUN_FAILED;
	}
	return EXIT_OK;
}

static FILE *tmp_out(void)
{
	FILE *f = tmpfile();
	if (!f)
		fprintf(stderr, "combosim trace: cannot create a temporary file (%s)\n", strerror(errno));
	return f;
}

/* A GPU description by name (models/NAME.json, as experiments find them) or path. */
static struct gpu_desc *load_gpu(const char *cmd, const char *name)
{
	char path[PATH_MAX];
	bool found = experiment_gpu_path(name, NULL, path, sizeof(path));
	if (!found) {
		fprintf(stderr, "combosim %s: expected a GPU name with a description in models/ (e.g. rtx3090, h100) or a path to one, got '%s'\n",
			cmd, name);
		return NULL;
	}
	struct cfg_diag d = { .file = path };
	struct gpu_desc *g = gpu_load(path, &d);
	if (!g)
		fprintf(stderr, "combosim: %s\n", d.msg);
	return g;
}

/* ------------------------------------------------------------------ gen */

static const char *alias(const char *name, const char *const (*table)[2])
{
	for (int i = 0; table[i][0]; i++)
		if (strcmp(name, table[i][0]) == 0)
			return table[i][1];
	return name;
}

static int gen_game_cmd(int argc, char **argv)
{
	static const char *const games[] = { "quake2", "steel", "dutm", "ascent", "dirt3", "starcraft2", "farcry2", NULL };
	static const char *const game_alias[][2] = {
		{ "quake", "quake2" }, { "q2", "quake2" }, { "severed-steel", "steel" },
		{ "deliver-us-the-moon", "dutm" }, { NULL, NULL }
	};
	static const char *const modes[] = { "stable", "dynamic", "scenes", NULL };
	struct opt opts[] = { { "--game", NULL }, { "--profile", NULL }, { "--quality", NULL },
			      { "--mode", "stable" }, { "--frames", NULL }, { "--seed", "1" },
			      { "--fps", NULL }, { NULL, NULL } };
	const char *cmd = "trace gen game";
	if (parse_opts(cmd, argc, argv, opts, NULL, 0))
		return EXIT_BAD_INPUT;
	const char *game = opt(opts, "--game"), *prof = opt(opts, "--profile");
	if (!!game == !!prof || !opt(opts, "--frames")) {
		fprintf(stderr, "combosim %s: expected --game NAME or --profile FILE (one of them) and --frames N\n", cmd);
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	char path[PATH_MAX];
	if (game) {
		game = alias(game, game_alias);
		if (choice(cmd, "--game", game, games) < 0)
			return EXIT_BAD_INPUT;
		if (!profile_find("games", game, path, sizeof(path))) {
			fprintf(stderr, "combosim %s: cannot find the shipped profile traces/games/%s.json (set COMBOSIM_TRACES to the traces/ directory)\n",
				cmd, game);
			return EXIT_BAD_INPUT;
		}
	} else if (!trace_resolve_path(prof, NULL, path, sizeof(path))) {
		fprintf(stderr, "combosim %s: --profile: cannot read '%s'\n", cmd, prof);
		return EXIT_BAD_INPUT;
	}
	static const char *const qualities[] = { "high", "medium", "low", NULL };
	int mode = choice(cmd, "--mode", opt(opts, "--mode"), modes);
	if (mode == 2 && opt(opts, "--quality")) {
		fprintf(stderr, "combosim %s: --quality: expected none with --mode scenes (the profile's scenes mode gives the frame's times), got '%s'\n",
			cmd, opt(opts, "--quality"));
		return EXIT_BAD_INPUT;
	}
	int q = choice(cmd, "--quality", opt(opts, "--quality") ? opt(opts, "--quality") : "high", qualities);
	long frames, seed;
	if (q < 0 || mode < 0 || !long_arg(cmd, "--frames", opt(opts, "--frames"), 1, 1L << 40, &frames) ||
	    !long_arg(cmd, "--seed", opt(opts, "--seed"), 0, LONG_MAX, &seed))
		return EXIT_BAD_INPUT;
	struct cfg_diag d = { .file = path };
	struct game_profile *p = game_profile_load(path, NULL, &d);
	if (!p) {
		fprintf(stderr, "combosim: %s\n", d.msg);
		return EXIT_BAD_INPUT;
	}
	double fps = p->fps;
	if (opt(opts, "--fps") && !num_arg(cmd, "--fps", opt(opts, "--fps"), 0.1, 10000, &fps)) {
		game_profile_free(p);
		return EXIT_BAD_INPUT;
	}
	bool has_mode = mode == 0 ? p->stable.present : mode == 1 ? p->dynamic.present : p->scenes.present;
	if (!has_mode) {
		fprintf(stderr, "combosim %s: --mode: the profile %s (%s) has no \"%s\" mode under $.modes\n", cmd, p->name, path, modes[mode]);
		game_profile_free(p);
		return EXIT_BAD_INPUT;
	}
	if (mode != 2 && !p->q[q].present) {
		fprintf(stderr, "combosim %s: --quality: the profile %s has no \"%s\" quality\n", cmd, p->name, quality_names[q]);
		game_profile_free(p);
		return EXIT_BAD_INPUT;
	}
	char line[1024];
	if (mode == 2)
		snprintf(line, sizeof(line), "combosim trace gen game %s %s --mode scenes --frames %ld --seed %ld --fps %g",
			 game ? "--game" : "--profile", game ? game : prof, frames, seed, fps);
	else
		snprintf(line, sizeof(line), "combosim trace gen game %s %s --quality %s --mode %s --frames %ld --seed %ld --fps %g",
			 game ? "--game" : "--profile", game ? game : prof, quality_names[q], modes[mode], frames, seed, fps);
	FILE *tmp = tmp_out();
	if (!tmp) {
		game_profile_free(p);
		return EXIT_RUN_FAILED;
	}
	if (mode == 2)
		gen_scenes(p, frames, (uint64_t)seed, fps, line, tmp);
	else
		gen_game(p, (enum quality)q, mode ? MODE_DYNAMIC : MODE_STABLE, frames, (uint64_t)seed, fps, line, tmp);
	game_profile_free(p);
	return emit(tmp);
}

static int gen_be_cmd(int argc, char **argv)
{
	static const char *const apps[] = { "cp", "mri-fhd", "mri-q", "lbm", "sgemm", "cutcp", "fft", "tpacf", NULL };
	static const char *const app_alias[][2] = {
		{ "mriq", "mri-q" }, { "mrif", "mri-fhd" }, { "mrifhd", "mri-fhd" }, { "regtil", "sgemm" },
		{ "regti", "sgemm" }, { NULL, NULL }
	};
	struct opt opts[] = { { "--app", NULL }, { "--profile", NULL }, { "--iterations", "1" },
			      { "--seed", "1" }, { "--cv", NULL }, { NULL, NULL } };
	const char *cmd = "trace gen be";
	if (parse_opts(cmd, argc, argv, opts, NULL, 0))
		return EXIT_BAD_INPUT;
	const char *app = opt(opts, "--app"), *prof = opt(opts, "--profile");
	if (!!app == !!prof) {
		fprintf(stderr, "combosim %s: expected --app NAME or --profile FILE (one of them)\n", cmd);
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	char path[PATH_MAX];
	if (app) {
		app = alias(app, app_alias);
		if (choice(cmd, "--app", app, apps) < 0)
			return EXIT_BAD_INPUT;
		if (!profile_find("be", app, path, sizeof(path))) {
			fprintf(stderr, "combosim %s: cannot find the shipped profile traces/be/%s.json (set COMBOSIM_TRACES to the traces/ directory)\n",
				cmd, app);
			return EXIT_BAD_INPUT;
		}
	} else if (!trace_resolve_path(prof, NULL, path, sizeof(path))) {
		fprintf(stderr, "combosim %s: --profile: cannot read '%s'\n", cmd, prof);
		return EXIT_BAD_INPUT;
	}
	long iters, seed;
	if (!long_arg(cmd, "--iterations", opt(opts, "--iterations"), 1, 1L << 24, &iters) ||
	    !long_arg(cmd, "--seed", opt(opts, "--seed"), 0, LONG_MAX, &seed))
		return EXIT_BAD_INPUT;
	struct cfg_diag d = { .file = path };
	struct be_profile *p = be_profile_load(path, NULL, &d);
	if (!p) {
		fprintf(stderr, "combosim: %s\n", d.msg);
		return EXIT_BAD_INPUT;
	}
	double cv = p->cv;
	if (opt(opts, "--cv") && !num_arg(cmd, "--cv", opt(opts, "--cv"), 0, 0.5, &cv)) {
		be_profile_free(p);
		return EXIT_BAD_INPUT;
	}
	char line[1024];
	snprintf(line, sizeof(line), "combosim trace gen be %s %s --iterations %ld --cv %g --seed %ld",
		 app ? "--app" : "--profile", app ? app : prof, iters, cv, seed);
	FILE *tmp = tmp_out();
	if (!tmp) {
		be_profile_free(p);
		return EXIT_RUN_FAILED;
	}
	gen_be(p, iters, cv, (uint64_t)seed, line, tmp);
	be_profile_free(p);
	return emit(tmp);
}

/* ------------------------------------------------------------------ import */

static int import_cmd(int argc, char **argv)
{
	static const char *const kinds[] = { "nsys", "pytorch", "presentmon", NULL };
	struct opt opts[] = { { "--name", NULL }, { "--note", NULL }, { "--tc-regex", NULL }, { "--cd-regex", NULL },
			      { "--fit", NULL }, { "--time-scale", NULL }, { "--stream", NULL },
			      { "--process", NULL }, { "--column", NULL }, { "--rt-share", NULL },
			      { "--width", NULL }, { "--height", NULL }, { NULL, NULL } };
	const char *pos[2];
	const char *cmd = "trace import";
	if (argc < 1) {
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	if (parse_opts(cmd, argc, argv, opts, pos, 2))
		return EXIT_BAD_INPUT;
	int kind = choice(cmd, "KIND", pos[0], kinds);
	if (kind < 0)
		return EXIT_BAD_INPUT;
	struct import_opts io = { .name = opt(opts, "--name"), .notes = opt(opts, "--note"), .tc_regex = opt(opts, "--tc-regex"),
				  .cd_regex = opt(opts, "--cd-regex"), .stream = -1, .rt_share = -1,
				  .process = opt(opts, "--process"), .column = opt(opts, "--column"),
				  .report = stderr };
	const char *queue_only[] = { "--name", "--note", "--tc-regex", "--cd-regex", "--fit", "--stream", NULL };
	const char *game_only[] = { "--process", "--column", "--rt-share", "--width", "--height", NULL };
	for (const char *const *o = kind == 2 ? queue_only : game_only; *o; o++)
		if (opt(opts, *o)) {
			fprintf(stderr, "combosim %s %s: %s does not apply to this importer\n", cmd, pos[0], *o);
			return EXIT_BAD_INPUT;
		}
	if (opt(opts, "--time-scale") && !num_arg(cmd, "--time-scale", opt(opts, "--time-scale"), 1e-6, 1e6, &io.time_scale))
		return EXIT_BAD_INPUT;
	if (opt(opts, "--stream") && !long_arg(cmd, "--stream", opt(opts, "--stream"), 0, LONG_MAX, &io.stream))
		return EXIT_BAD_INPUT;
	if (opt(opts, "--rt-share") && !num_arg(cmd, "--rt-share", opt(opts, "--rt-share"), 0, 1, &io.rt_share))
		return EXIT_BAD_INPUT;
	if (!!opt(opts, "--width") != !!opt(opts, "--height")) {
		fprintf(stderr, "combosim %s: expected both --width and --height or neither\n", cmd);
		return EXIT_BAD_INPUT;
	}
	long w = 0, h = 0;
	if (opt(opts, "--width") && (!long_arg(cmd, "--width", opt(opts, "--width"), 1, 65536, &w) ||
				     !long_arg(cmd, "--height", opt(opts, "--height"), 1, 65536, &h)))
		return EXIT_BAD_INPUT;
	io.width = (int)w;
	io.height = (int)h;
	struct gpu_desc *g = NULL;
	if (opt(opts, "--fit") && !(g = load_gpu(cmd, opt(opts, "--fit"))))
		return EXIT_BAD_INPUT;
	io.fit = g;
	FILE *tmp = tmp_out();
	if (!tmp) {
		gpu_free(g);
		return EXIT_RUN_FAILED;
	}
	char err[ERR_LEN];
	int rc = kind == 0 ? import_nsys(pos[1], &io, tmp, err, sizeof(err))
		: kind == 1 ? import_pytorch(pos[1], &io, tmp, err, sizeof(err))
		: import_presentmon(pos[1], &io, tmp, err, sizeof(err));
	gpu_free(g);
	if (rc) {
		fclose(tmp);
		fprintf(stderr, "combosim: %s\n", err);
		return EXIT_BAD_INPUT;
	}
	return emit(tmp);
}

/* ------------------------------------------------------------------ check */

/* A queue is checked by loading it as the one app of a throw-away experiment, so that it gets
 * exactly the checks a run gives it. */
static int check_queue(const char *file, const char *gpu_path)
{
	char qabs[PATH_MAX], gabs[PATH_MAX], exp[] = "/tmp/combosim-check-XXXXXX";
	if (!realpath(file, qabs) || !realpath(gpu_path, gabs)) {
		fprintf(stderr, "combosim: %s: cannot read (%s)\n", file, strerror(errno));
		return EXIT_BAD_INPUT;
	}
	int fd = mkstemp(exp);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		fprintf(stderr, "combosim trace check: cannot create a temporary file (%s)\n", strerror(errno));
		return EXIT_RUN_FAILED;
	}
	fputs("{ \"kernels\": [], \"gpu\": ", f);
	json_write_string(f, gabs);
	fputs(", \"apps\": [ { \"name\": \"queue\", \"queue\": ", f);
	json_write_string(f, qabs);
	fputs(" } ], \"policies\": [ { \"name\": \"exclusive\", \"run\": \"be\" } ] }\n", f);
	fclose(f);
	struct cfg_diag d = { .file = exp };
	struct experiment *e = experiment_load(exp, NULL, 0, &d);
	unlink(exp);
	if (!e) {
		char *tail = strstr(d.msg, " (named by ");
		if (tail)
			*tail = 0;
		fprintf(stderr, "combosim: %s\n", d.msg);
		return EXIT_BAD_INPUT;
	}
	const struct app_spec *a = &e->apps[0];
	double ns[KC_COUNT] = { 0 }, total = 0;
	for (int i = 0; i < a->n_kernels; i++) {
		const struct kernel_spec *k = &e->kernels[a->kernels[i]];
		ns[k->cls] += (double)k->solo_ns;
		total += (double)k->solo_ns;
	}
	printf("%s: BE queue of %d kernels, %.1f us alone on %s", file, a->n_kernels, total / 1e3, e->gpu->name);
	for (int c = 0; c < KC_COUNT; c++)
		if (ns[c] > 0)
			printf(", %s %.1f %%", kclass_names[c], 100 * ns[c] / total);
	printf("\n");
	experiment_free(e);
	return EXIT_OK;
}

/* A BE profile ("format": "combosim be-profile") is checked by its loader, each kernel fitted on
 * the GPU; anything else ending in .json is a queue. */
static bool is_be_profile(const char *file)
{
	struct cfg_diag d = { .file = file };
	cJSON *root = cfg_load_file(file, &d);
	const cJSON *fmt = root ? cJSON_GetObjectItemCaseSensitive(root, "format") : NULL;
	bool yes = cJSON_IsString(fmt) && strcmp(fmt->valuestring, "combosim be-profile") == 0;
	cJSON_Delete(root);
	return yes;
}

static int check_be_profile(const char *file, const struct gpu_desc *g)
{
	struct cfg_diag d = { .file = file };
	struct be_profile *p = be_profile_load(file, g, &d);
	if (!p) {
		fprintf(stderr, "combosim: %s\n", d.msg);
		return EXIT_BAD_INPUT;
	}
	printf("%s: BE profile '%s' (%s), %d kernels, fit on %s\n", file, p->name, p->kind, p->n_kernels, g->name);
	be_profile_free(p);
	return EXIT_OK;
}

static int check_cmd(int argc, char **argv)
{
	struct opt opts[] = { { "--profile", NULL }, { "--gpu", "rtx3090" }, { NULL, NULL } };
	const char *pos[1];
	const char *cmd = "trace check";
	if (parse_opts(cmd, argc, argv, opts, pos, 1))
		return EXIT_BAD_INPUT;
	struct gpu_desc *g = load_gpu(cmd, opt(opts, "--gpu"));
	if (!g)
		return EXIT_BAD_INPUT;
	const char *file = pos[0];
	size_t len = strlen(file);
	if (len > 5 && strcmp(file + len - 5, ".json") == 0 && is_be_profile(file)) {
		int rc = check_be_profile(file, g);
		gpu_free(g);
		return rc;
	}
	if (len > 5 && strcmp(file + len - 5, ".json") == 0) {
		char gpath[PATH_MAX];
		snprintf(gpath, sizeof(gpath), "%s", g->source);
		gpu_free(g);
		return check_queue(file, gpath);
	}
	struct game_profile *p = NULL;
	char err[ERR_LEN], path[PATH_MAX];
	int rc = EXIT_BAD_INPUT;
	if (opt(opts, "--profile")) {
		if (!profile_resolve("games", opt(opts, "--profile"), NULL, path, sizeof(path))) {
			fprintf(stderr, "combosim %s: --profile: expected a shipped game profile name or a path, got '%s'\n",
				cmd, opt(opts, "--profile"));
			goto out;
		}
		struct cfg_diag d = { .file = path };
		if (!(p = game_profile_load(path, g, &d))) {
			fprintf(stderr, "combosim: %s\n", d.msg);
			goto out;
		}
	}
	long frames;
	enum trace_kind kind;
	if (game_trace_kind(file, &kind, err, sizeof(err)) ||
	    game_trace_validate(file, p, g, &frames, err, sizeof(err))) {
		fprintf(stderr, "combosim: %s\n", err);
		goto out;
	}
	printf("%s: %s game trace of %ld frames, valid on %s%s%s\n", file,
	       kind == TRACE_KERNEL_LEVEL ? "kernel-level" : "frame-level", frames, g->name,
	       p ? " with the profile " : "", p ? p->name : "");
	rc = EXIT_OK;
out:
	game_profile_free(p);
	gpu_free(g);
	return rc;
}

int cmd_trace(int argc, char **argv)
{
	if (argc < 1 || strcmp(argv[0], "help") == 0 || cli_asks_help(argc, argv)) {
		usage(argc < 1 ? stderr : stdout);
		return argc < 1 ? EXIT_BAD_INPUT : EXIT_OK;
	}
	if (strcmp(argv[0], "gen") == 0 && argc >= 2 && strcmp(argv[1], "game") == 0)
		return gen_game_cmd(argc - 2, argv + 2);
	if (strcmp(argv[0], "gen") == 0 && argc >= 2 && strcmp(argv[1], "be") == 0)
		return gen_be_cmd(argc - 2, argv + 2);
	if (strcmp(argv[0], "gen") == 0) {
		fprintf(stderr, "combosim trace gen: expected 'game' or 'be', got '%s'\n", argc >= 2 ? argv[1] : "nothing");
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	if (strcmp(argv[0], "import") == 0)
		return import_cmd(argc - 1, argv + 1);
	if (strcmp(argv[0], "check") == 0)
		return check_cmd(argc - 1, argv + 1);
	fprintf(stderr, "combosim trace: unknown subcommand '%s'\n", argv[0]);
	usage(stderr);
	return EXIT_BAD_INPUT;
}
