/* fuzz_gpu — libFuzzer harness for GPU descriptions (models/gpu.c and the interference model it
 * checks), then a few simulated ms of a small experiment on every GPU that loads: a game of RT
 * and CD kernels, a BE app of TC and MEM kernels, under each kind of policy.  Any input must
 * give a precise error or a run: never a crash, a sanitizer report or a hang.  Built by
 * `make fuzz`; the corpus under tests/fuzz/corpus/gpu/ is replayed by `make test`. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/engine.h"
#include "exp/experiment.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool write_tmp(char *path, const void *data, size_t size)
{
	int fd = mkstemps(path, 5);
	if (fd < 0)
		return false;
	bool ok = write(fd, data, size) == (ssize_t)size;
	close(fd);
	return ok;
}

/* Runs every policy of the experiment for its few ms (sim_new also checks the parameters). */
static void run_all(const struct experiment *e)
{
	long blocks = 0;
	for (int i = 0; i < e->n_kernels; i++)
		blocks += e->kernels[i].grid;
	if (blocks > 100000)
		return;
	for (int p = 0; p < e->n_policies; p++) {
		struct cfg_diag d = { 0 };
		struct sim *s = sim_new(e, &e->policies[p], NULL, &d);
		if (s) {
			sim_run(s);
			cJSON *o = cJSON_CreateObject();
			sim_report(s, o);
			cJSON_Delete(o);
		}
		sim_free(s);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char gpu[] = "/tmp/combosim-fuzzg-XXXXXX.json", exp[] = "/tmp/combosim-fuzzge-XXXXXX.json";
	char text[2048];
	if (!write_tmp(gpu, data, size)) {
		unlink(gpu);
		return 0;
	}
	struct cfg_diag gd = { 0 };
	struct gpu_desc *g = gpu_load(gpu, &gd);
	if (g) {
		gpu_free(g);
		int n = snprintf(text, sizeof(text),
			"{\"gpu\": \"%s\", \"duration_ms\": 3, \"seed\": 1, \"kernels\": ["
			"{\"name\": \"rt\", \"class\": \"RT\", \"grid\": 164, \"threads\": 128, \"regs\": 64, \"smem\": 8192, \"solo_us\": 300, \"ptb_workers\": 82},"
			"{\"name\": \"cd\", \"class\": \"CD\", \"grid\": 164, \"threads\": 128, \"solo_us\": 200},"
			"{\"name\": \"tc\", \"class\": \"TC\", \"grid\": 82, \"threads\": 256, \"smem\": 16384, \"solo_us\": 150},"
			"{\"name\": \"mem\", \"class\": \"MEM\", \"grid\": 82, \"threads\": 256, \"solo_us\": 100}],"
			"\"games\": [{\"name\": \"g\", \"fps\": 500, \"frame\": [\"rt\", \"cd\"]}],"
			"\"apps\": [{\"name\": \"a\", \"kernels\": [\"tc\", \"mem\"]}],"
			"\"policies\": [{\"name\": \"exclusive\"}, {\"name\": \"exclusive\", \"label\": \"be\", \"run\": \"be\"},"
			"{\"name\": \"static\", \"game_share\": 0.5}, {\"name\": \"static\", \"label\": \"smb\", \"game_share\": 0.5, \"mechanism\": \"smbound\"},"
			"{\"name\": \"pilotfish\"}, {\"name\": \"combo\"}, {\"name\": \"combo-exact\"}]}", gpu);
		if (n > 0 && (size_t)n < sizeof(text) && write_tmp(exp, text, (size_t)n)) {
			struct cfg_diag d = { 0 };
			struct experiment *e = experiment_load(exp, NULL, 0, &d);
			if (e)
				run_all(e);
			experiment_free(e);
		}
		unlink(exp);
	}
	unlink(gpu);
	return 0;
}
