/* fuzz_traces — libFuzzer harness for every trace reader and importer.  The first input byte
 * picks the reader (kernel-level trace, frame-level trace with the Quake II profile, BE queue
 * through an experiment, nsys CSV, PyTorch JSON, PresentMon CSV); the rest is the file.  Any
 * input must give either a result or a precise error: never a crash or a sanitizer report.
 * Built by `make fuzz`; the corpus under tests/fuzz/corpus/traces/ is replayed by `make test`. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exp/experiment.h"
#include "traces/gametrace.h"
#include "traces/import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool write_tmp(char *path, const uint8_t *data, size_t size)
{
	int fd = mkstemp(path);
	if (fd < 0)
		return false;
	bool ok = write(fd, data, size) == (ssize_t)size;
	close(fd);
	return ok;
}

static void try_queue(const char *queue)
{
	char exp[] = "/tmp/combosim-fuzzq-XXXXXX";
	char text[512];
	int n = snprintf(text, sizeof(text),
			 "{\"gpu\": \"rtx3090\", \"duration_ms\": 1, \"kernels\": [], \"apps\": [{\"name\": \"a\", \"queue\": \"%s\"}],"
			 " \"policies\": [{\"name\": \"exclusive\", \"run\": \"be\"}]}", queue);
	if (!write_tmp(exp, (const uint8_t *)text, (size_t)n))
		return;
	struct cfg_diag d = { 0 };
	struct experiment *e = experiment_load(exp, NULL, 0, &d);
	experiment_free(e);
	unlink(exp);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	char path[] = "/tmp/combosim-fuzzt-XXXXXX";
	if (!write_tmp(path, data + 1, size - 1)) {
		unlink(path);
		return 0;
	}
	char err[1024];
	struct cfg_diag d = { 0 };
	struct gpu_desc *g = gpu_load("models/rtx3090.json", &d);
	struct import_opts o = { .stream = -1, .rt_share = -1, .fit = g };
	FILE *out = fopen("/dev/null", "w");
	long frames;
	switch (data[0] % 6) {
	case 0: {
		struct kernel_trace *t = kernel_trace_open(path, g, err, sizeof(err));
		struct frame_kernels fk = { 0 };
		for (int i = 0; t && i < 10000 && kernel_trace_next(t, &fk, err, sizeof(err)) == 0; i++)
			;
		frame_kernels_free(&fk);
		if (t)
			kernel_trace_close(t);
		break;
	}
	case 1: {
		struct cfg_diag pd = { 0 };
		struct game_profile *p = game_profile_load("traces/games/quake2.json", g, &pd);
		if (p)
			game_trace_validate(path, p, g, &frames, err, sizeof(err));
		game_profile_free(p);
		break;
	}
	case 2:
		try_queue(path);
		break;
	case 3:
		import_nsys(path, &o, out, err, sizeof(err));
		break;
	case 4:
		import_pytorch(path, &o, out, err, sizeof(err));
		break;
	case 5:
		import_presentmon(path, &o, out, err, sizeof(err));
		break;
	}
	if (out)
		fclose(out);
	gpu_free(g);
	unlink(path);
	return 0;
}
