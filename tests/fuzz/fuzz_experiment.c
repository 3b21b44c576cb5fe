/* fuzz_experiment — libFuzzer harness for the experiment loader and a short run of what loads.
 * Any input must give either a precise error or a run; never a crash, a sanitizer report or a
 * hang.  Built by `make fuzz` (clang, -fsanitize=fuzzer,address,undefined); the corpus under
 * tests/fuzz/corpus/experiment/ is replayed by `make test` through tests/fuzz/replay.c. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/engine.h"
#include "exp/experiment.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/combosim-fuzz-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		unlink(path);
		return 0;
	}
	close(fd);
	/* keep runs short: the loader is the target, the engine gets a few simulated ms */
	const char *sets[] = { "duration_ms=3", "outputs.timeline=false" };
	struct cfg_diag diag = { 0 };
	struct experiment *e = experiment_load(path, sets, 2, &diag);
	unlink(path);
	if (!e)
		return 0;
	long work = 0;
	for (int i = 0; i < e->n_kernels; i++)
		work += e->kernels[i].grid / 64 + 1;
	if (work < 200000 && e->type == EXP_RUN) {
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
	experiment_free(e);
	return 0;
}
