/* testfake — the harness of the host loop's tests (cuda/test_hostloop.c, cuda/test_hosthooks.c):
 * an experiment loaded from a file or from text, its workload with "calibrated" kernels whose
 * work is their solo time in ns, a policy run by the host loop on the scripted fake device
 * (cuda/fakegpu.h), and the run's outputs in memory.  Test code only. */
#ifndef COMBOSIM_CUDA_TESTFAKE_H
#define COMBOSIM_CUDA_TESTFAKE_H

#include <cjson/cJSON.h>
#include "cuda/fakegpu.h"
#include "cuda/report.h"

/* The calibrated kernel of a spec, as the runner's would be on a GPU matching the description:
 * work = its solo time in ns (the fake runs a kernel for `work` ns), workers = the
 * description's occupancy x SMs.  One scratch entry: the loop copies it at once. */
struct base_ctx {
	const struct gpu_desc *g;
	struct ck_kernel k;
};

struct harness {
	struct experiment *e;
	struct hl_workload w;
	struct base_ctx bc;
	struct fake_gpu f;
	struct hl_dev dev;
	struct policy_spec ps;             /* the run's policy: the file's, ops and params replaced */
	cJSON *params;                     /* owned: h_init's params */
	struct hl_run r;
	struct cfg_diag diag;
	bool inited;
};

/* Loads FILE with the overrides, opens its workload and a fake device with the streams the
 * runner would open; false (a CUnit failure recorded) when it cannot. */
bool h_load(struct harness *h, const char *file, const char *const *sets, int n_sets);
/* The same from experiment text (written to a temporary file). */
bool h_load_text(struct harness *h, const char *json);
/* Initialises policy `pi` (ops replaced when not NULL; params replaced by this JSON text when
 * not NULL) on the fake device (or none: a check); returns hl_run_init's status. */
int h_init(struct harness *h, int pi, const struct policy_ops *ops, const char *params, bool device);
void h_free(struct harness *h);

/* The outputs of a finished run, in memory. */
struct outputs {
	char *k, *f, *t, *tl;
	size_t nk, nf, nt, ntl;
	cJSON *sum;
};
void report(struct harness *h, struct outputs *o, bool timeline);
void outputs_free(struct outputs *o);
long lines(const char *s);
/* A number of a JSON object by dotted path ("a.b"); -12345 when absent. */
double num(const cJSON *o, const char *path);

#endif
