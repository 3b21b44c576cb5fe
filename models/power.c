/* power — the model registry and "none", gated SM-time only (see power.h; "linear" is in
 * power_linear.c). */
#include "models/power.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct none {
	double gated_sm_ns;
	bool gated;              /* some SM was gated: report (else outputs stay as they were) */
};

static void *none_create(const struct gpu_desc *g, const struct cfg *params)
{
	cfg_only(params, (const char *const[]){ "model", "note", "source", NULL });
	cfg_str(params, "note", NULL, "", &(const char *){ NULL });
	cfg_str(params, "source", NULL, "", &(const char *){ NULL });
	struct none *n = calloc(1, sizeof(*n));
	if (!n) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	return n;
}

static void none_destroy(void *self)
{
	free(self);
}

static void none_account(void *self, const struct power_interval *iv)
{
	struct none *n = self;
	n->gated_sm_ns += iv->gated_sm_ns;
	n->gated |= iv->gated_sms > 0;
}

static void none_report(const void *self, cJSON *summary)
{
	const struct none *n = self;
	if (!n->gated)
		return;
	cJSON *p = cJSON_AddObjectToObject(summary, "power");
	cJSON_AddNumberToObject(p, "gated_sm_ms", n->gated_sm_ns / 1e6);
}

const struct power_ops power_none = {
	.version = POWER_OPS_VERSION,
	.name = "none",
	.create = none_create,
	.destroy = none_destroy,
	.account = none_account,
	.report = none_report,
};

const char *const power_model_names[] = { "none", "linear", NULL };

const struct power_ops *power_find(const char *name)
{
	static const struct power_ops *const models[] = { &power_none, &power_linear };
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (strcmp(models[i]->name, name) == 0)
			return models[i];
	return NULL;
}
