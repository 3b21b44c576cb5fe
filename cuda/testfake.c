/* testfake — the host loop tests' harness (cuda/testfake.h). */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda/testfake.h"
#include "traces/timeline.h"

static const struct ck_kernel *test_base(void *ctx, const struct kernel_spec *s)
{
	struct base_ctx *b = ctx;
	struct kernel_fit fit;
	char err[128];
	int occ = kernel_fit(s, b->g, &fit, err, sizeof(err)) ? fit.occ_compute : 1;
	b->k = (struct ck_kernel){ .cls = (int)s->cls, .variant = CK_ORIGINAL, .tasks = s->grid, .threads = s->threads,
				   .smem = s->smem, .work = (long)s->solo_ns, .workers = occ * b->g->sm_count };
	return &b->k;
}

bool h_load(struct harness *h, const char *file, const char *const *sets, int n_sets)
{
	memset(h, 0, sizeof(*h));
	h->diag.file = file;
	h->e = experiment_load(file, sets, n_sets, &h->diag);
	CU_ASSERT_PTR_NOT_NULL(h->e);
	if (!h->e) {
		fprintf(stderr, "%s\n", h->diag.msg);
		return false;
	}
	char err[256];
	CU_ASSERT_EQUAL_FATAL(hl_workload_open(&h->w, h->e, err, sizeof(err)), 0);
	h->bc.g = h->e->gpu;
	h->w.base = test_base;
	h->w.base_ctx = &h->bc;
	fake_init(&h->f, h->e->gpu->sm_count, hl_stream_plan(h->e, NULL));
	h->dev = fake_device(&h->f);
	return true;
}

int h_init(struct harness *h, int pi, const struct policy_ops *ops, const char *params, bool device)
{
	h->ps = h->e->policies[pi];
	if (ops)
		h->ps.ops = ops;
	if (params) {
		cJSON_Delete(h->params);
		h->params = cJSON_Parse(params);
		CU_ASSERT_PTR_NOT_NULL_FATAL(h->params);
		h->ps.params = h->params;
	}
	h->diag = (struct cfg_diag){ .file = h->e->file };
	h->inited = true;
	return hl_run_init(&h->r, &h->w, &h->ps, device ? &h->dev : NULL, &h->diag);
}

bool h_load_text(struct harness *h, const char *json)
{
	char path[] = "/tmp/combosim-cuda-test-XXXXXX";
	int fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs(json, f);
	fclose(f);
	bool ok = h_load(h, path, NULL, 0);
	unlink(path);
	return ok;
}

void h_free(struct harness *h)
{
	if (h->inited)
		hl_run_free(&h->r);
	cJSON_Delete(h->params);
	fake_free(&h->f);
	if (h->e) {
		hl_workload_close(&h->w);
		experiment_free(h->e);
	}
	memset(h, 0, sizeof(*h));
}

void report(struct harness *h, struct outputs *o, bool timeline)
{
	memset(o, 0, sizeof(*o));
	struct hl_out out = { open_memstream(&o->k, &o->nk), open_memstream(&o->f, &o->nf), open_memstream(&o->t, &o->nt),
			      NULL };
	FILE *tf = timeline ? open_memstream(&o->tl, &o->ntl) : NULL;
	out.tl = tf ? timeline_open(tf) : NULL;
	if (out.tl)
		timeline_process(out.tl, 0, "policy x");
	o->sum = hl_report_run(&h->r, 0, &out);
	fclose(out.kernels);
	fclose(out.frames);
	fclose(out.tasks);
	if (tf) {
		CU_ASSERT_EQUAL(timeline_close(out.tl), 0);
		fclose(tf);
	}
}

void outputs_free(struct outputs *o)
{
	free(o->k);
	free(o->f);
	free(o->t);
	free(o->tl);
	cJSON_Delete(o->sum);
}

long lines(const char *s)
{
	long n = 0;
	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

double num(const cJSON *o, const char *path)
{
	char key[64];
	const char *dot = strchr(path, '.');
	if (dot) {
		snprintf(key, sizeof(key), "%.*s", (int)(dot - path), path);
		return num(cJSON_GetObjectItemCaseSensitive(o, key), dot + 1);
	}
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, path);
	return cJSON_IsNumber(v) ? v->valuedouble : -12345;
}
