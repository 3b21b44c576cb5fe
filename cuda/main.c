/* combosim-cuda — the CUDA backend's command-line program.
 *
 *   combosim-cuda info [--device N]
 *   combosim-cuda bench all|scaling|corun|placement|saturation|saturation-shapes|saturation-warps|progress|reshape|
 *                       pairs|pairs-SET|pileup|pileup-wide|launch|power|power-clock|power-l2|power-game
 *                       [--out DIR] [--calib FILE] [--reps N]
 *                       [--target-us US] [--delay sleep|fma] [--device N]
 *   combosim-cuda run EXPERIMENT [--out DIR] [--set path=value]... [--calib FILE] [--device N] [--check]
 *                     [--mps-client]
 *
 * Exit codes as combosim: 0 ok, 1 the run failed (any CUDA error), 2 bad usage or input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/bench.h"
#include "cuda/runner.h"

static void usage(FILE *f)
{
	char sets[1024];
	bench_pairs_words(sets, sizeof(sets));
	fprintf(f, "usage: combosim-cuda info [--device N]\n"
		"       combosim-cuda bench all|scaling|corun|placement|saturation|saturation-shapes|saturation-warps|\n"
		"                     progress|reshape|pileup|pileup-wide|launch|power|power-clock|power-l2|power-game|PAIRS\n"
		"                     [--out DIR] [--calib FILE] [--reps N] [--target-us US] [--delay sleep|fma] [--device N]\n"
		"                     (PAIRS: %s)\n", sets);
	fputs("       combosim-cuda run EXPERIMENT [--out DIR] [--set path=value]... [--calib FILE]\n"
	      "                     [--device N] [--check] [--mps-client]\n"
	      "run replays the experiment's game frames and BE apps on the GPU under each of its\n"
	      "policies (the policies of combosim, unchanged, on the CUDA backend) and writes DIR\n"
	      "(default cuda-run): kernels.csv and frames.csv in the simulator's columns, tasks.csv,\n"
	      "summary.json, and timeline.json when outputs.timeline.  A policy that needs what the\n"
	      "GPU backend cannot do (an SM mask, a context reset, ...) is refused at init (exit 2);\n"
	      "--check stops there, without a GPU.  --mps-client: this process is a Volta MPS client\n"
	      "limited to fewer SMs than the GPU description's; its kernels come from the calibration\n"
	      "cache as calibrated on the whole GPU, none is calibrated or re-measured.\n"
	      "info prints the device's properties as JSON.  bench runs the micro-benchmarks and\n"
	      "writes DIR (default cuda-bench): device.json, summary.json, scaling.csv, corun.csv,\n"
	      "corun_reps.csv, kernels.csv, partition.csv, placement_blocks.csv, placement.json,\n"
	      "saturation.csv, progress.csv,\n"
	      "calib.json.  The calibration cache FILE (default combosim-cuda-calib.json) maps kernel\n"
	      "shapes to work for a solo time on this device; it is read and updated.\n"
	      "RT-class kernels are emulated by software BVH traversal on CUDA cores on GPUs without\n"
	      "RT cores (all that CUDA can program); every output says so.\n"
	      "Exit codes: 0 ok, 1 run failed, 2 bad usage or input.\n", f);
}

static int parse_int(const char *opt, const char *s, int lo, int hi, int *v)
{
	char *end;
	long x = strtol(s, &end, 10);
	if (!*s || *end || x < lo || x > hi) {
		fprintf(stderr, "combosim-cuda: %s: expected an integer in [%d, %d], got '%s'\n", opt, lo, hi, s);
		return -1;
	}
	*v = (int)x;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		usage(stdout);
		return 0;
	}
	struct bench_opts o = { .what = 0, .device = 0, .reps = 5, .target_us = 2000,
				.out_dir = "cuda-bench", .calib_path = "combosim-cuda-calib.json" };
	int i = 2;
	if (!strcmp(cmd, "run")) {
		if (argc < 3 || argv[2][0] == '-') {
			usage(stderr);
			return 2;
		}
		struct runner_opts ro = { .experiment = argv[2], .out_dir = "cuda-run",
					  .calib_path = "combosim-cuda-calib.json" };
		const char **sets = calloc((size_t)argc, sizeof(*sets));
		if (!sets)
			return 1;
		for (i = 3; i < argc; i++) {
			const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
			if (!strcmp(a, "--check")) {
				ro.check_only = true;
				continue;
			}
			if (!strcmp(a, "--mps-client")) {
				ro.mps_client = true;
				continue;
			}
			if (!v) {
				fprintf(stderr, "combosim-cuda: %s needs a value\n", a);
				return 2;
			}
			if (!strcmp(a, "--out"))
				ro.out_dir = v;
			else if (!strcmp(a, "--calib"))
				ro.calib_path = v;
			else if (!strcmp(a, "--set"))
				sets[ro.n_sets++] = v;
			else if (!strcmp(a, "--device")) {
				if (parse_int(a, v, 0, 64, &ro.device))
					return 2;
			} else {
				fprintf(stderr, "combosim-cuda: unknown option '%s'\n", a);
				usage(stderr);
				return 2;
			}
			i++;
		}
		ro.sets = sets;
		char cl[2048];
		size_t cn = 0;
		cl[0] = 0;
		for (int k = 0; k < argc && cn + 2 < sizeof(cl); k++)
			cn += (size_t)snprintf(cl + cn, sizeof(cl) - cn, "%s%s", k ? " " : "", argv[k]);
		ro.command = cl;
		int rc = runner_run(&ro);
		free(sets);
		return rc;
	}
	if (!strcmp(cmd, "bench")) {
		if (argc < 3) {
			usage(stderr);
			return 2;
		}
		const char *w = argv[2];
		o.pair_set = bench_pairs_set(w);
		o.what = o.pair_set ? BENCH_PAIRS : !strcmp(w, "all") ? BENCH_ALL : !strcmp(w, "scaling") ? BENCH_SCALING
			: !strcmp(w, "corun") ? BENCH_CORUN : !strcmp(w, "placement") ? BENCH_PLACEMENT
			: !strcmp(w, "saturation") ? BENCH_SATURATION : !strcmp(w, "progress") ? BENCH_PROGRESS
			: !strcmp(w, "saturation-shapes") ? BENCH_SATURATION_SHAPES
			: !strcmp(w, "saturation-warps") ? BENCH_SATURATION_WARPS
			: !strcmp(w, "reshape") ? BENCH_RESHAPE : !strcmp(w, "pileup") ? BENCH_PILEUP
			: !strcmp(w, "pileup-wide") ? BENCH_PILEUP_WIDE : !strcmp(w, "launch") ? BENCH_LAUNCH
			: !strcmp(w, "power") ? BENCH_POWER : !strcmp(w, "power-clock") ? BENCH_POWER_CLOCK
			: !strcmp(w, "power-l2") ? BENCH_POWER_L2 : !strcmp(w, "power-game") ? BENCH_POWER_GAME : 0;
		if (!o.what) {
			char sets[1024];
			bench_pairs_words(sets, sizeof(sets));
			fprintf(stderr, "combosim-cuda bench: unknown benchmark '%s' (all, scaling, corun, placement, saturation, "
				"saturation-shapes, saturation-warps, progress, reshape, %s, pileup, pileup-wide, launch, power, "
				"power-clock, power-l2, power-game)\n", w, sets);
			return 2;
		}
		i = 3;
	} else if (strcmp(cmd, "info")) {
		fprintf(stderr, "combosim-cuda: unknown command '%s'\n", cmd);
		usage(stderr);
		return 2;
	}
	for (; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int iv;
		if (!v) {
			fprintf(stderr, "combosim-cuda: %s needs a value\n", a);
			return 2;
		}
		if (!strcmp(a, "--device")) {
			if (parse_int(a, v, 0, 64, &o.device))
				return 2;
		} else if (!strcmp(a, "--out") && o.what) {
			o.out_dir = v;
		} else if (!strcmp(a, "--calib") && o.what) {
			o.calib_path = v;
		} else if (!strcmp(a, "--reps") && o.what) {
			if (parse_int(a, v, 1, 64, &o.reps))
				return 2;
		} else if (!strcmp(a, "--delay") && o.what) {
			if (strcmp(v, "sleep") && strcmp(v, "fma")) {
				fprintf(stderr, "combosim-cuda: --delay: expected sleep or fma, got '%s'\n", v);
				return 2;
			}
			o.delay_fma = !strcmp(v, "fma");
		} else if (!strcmp(a, "--target-us") && o.what) {
			if (parse_int(a, v, 10, 10000000, &iv))
				return 2;
			o.target_us = iv;
		} else {
			fprintf(stderr, "combosim-cuda: unknown option '%s'\n", a);
			usage(stderr);
			return 2;
		}
		i++;
	}
	if (!o.what) {
		struct ck_dev *d = ck_open(o.device, 1, NULL);
		cJSON *j = ck_props_json(d);
		char *s = cJSON_Print(j);
		puts(s ? s : "{}");
		free(s);
		cJSON_Delete(j);
		ck_close(d);
		return 0;
	}
	char line[2048];
	size_t len = 0;
	line[0] = 0;
	for (int k = 0; k < argc && len + 2 < sizeof(line); k++)
		len += (size_t)snprintf(line + len, sizeof(line) - len, "%s%s", k ? " " : "", argv[k]);
	o.command = line;
	return bench_run(&o);
}
