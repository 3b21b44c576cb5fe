/* mig — NVIDIA Multi-Instance GPU (MIG) as a static partition: the GPU is carved into GPU
 * instances of the profiles given ("4g.40gb", "2g.20gb", ...), and BE app i runs alone in
 * instance i for the whole run.  An instance holds whole compute slices (their SMs: the app's
 * kernels are launched masked to them, as a MIG device exposes only its own SMs to CUDA) and
 * whole memory slices (their DRAM bandwidth: bk_dram_partition gives the instance's kernels its
 * memory slices' share of the bandwidth and nothing more, each instance saturating on its
 * own).  Profiles and where each may be placed come from the GPU description's "mig" object
 * (models/mig.h; models/a100.json from NVIDIA's MIG user guide); a list the hardware cannot
 * hold together is refused at init (exit 2) with the reason.  Each instance is one compute
 * instance spanning it (no CI sub-division, no MPS inside).  The SMs of no instance (the
 * A100's 10 SMs that MIG mode leaves unused, slices no instance took) run nothing.
 *
 * SMQoS §6.6 compares RH-SMQoS with MIG on the A100 at two splits: LS:batch 2:1 (4g + 2g) and
 * 1:1 (3g + 3g) (experiments/smqos/a100_mig.json).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "policies/policy.h"

struct mig_inst {
	const struct mig_profile *prof;
	int start;                   /* first compute and memory slice */
	struct smset sms;
	double share;                /* of the chip's DRAM bandwidth */
};

struct mig {
	int n;
	struct mig_inst inst[MIG_MAX_INSTANCES];
};

/* "1g.10gb, 2g.20gb, ..." */
static void profile_list(const struct gpu_mig *m, char *out, size_t len)
{
	size_t at = 0;
	out[0] = 0;
	for (int i = 0; i < m->n_profiles && at < len; i++)
		at += (size_t)snprintf(out + at, len - at, "%s%s", i ? ", " : "", m->profiles[i].name);
}

/* "{0, 4}" */
static void start_list(const struct mig_profile *p, char *out, size_t len)
{
	size_t at = (size_t)snprintf(out, len, "{");
	for (int j = 0; j < p->n_starts && at < len; j++)
		at += (size_t)snprintf(out + at, len - at, "%s%d", j ? ", " : "", p->starts[j]);
	if (at < len)
		snprintf(out + at, len - at, "}");
}

/* Element i of "instances": a profile name, or {"profile": NAME, "start": SLICE}. */
static bool read_instance(const struct gpu_mig *m, struct cfg *e, struct mig_inst *in)
{
	char names[256], starts[64];
	const char *name = NULL;
	int64_t start = -1;
	if (cJSON_IsString(e->node)) {
		name = e->node->valuestring;
	} else if (cJSON_IsObject(e->node)) {
		cfg_only(e, (const char *const[]){ "profile", "start", NULL });
		if (!cfg_str(e, "profile", NULL, CFG_REQUIRED, &name) ||
		    !cfg_int(e, "start", 0, MIG_MAX_SLICES - 1, &(int64_t){ -1 }, &start))
			return false;
	} else {
		cfg_fail(e, "expected a MIG profile name or {\"profile\": NAME, \"start\": SLICE}");
		return false;
	}
	in->prof = mig_profile_find(m, name);
	if (!in->prof) {
		profile_list(m, names, sizeof(names));
		cfg_fail(e, "expected one of the GPU's MIG profiles (%s), got \"%s\"", names, name);
		return false;
	}
	if (start >= 0) {
		bool ok = false;
		for (int j = 0; j < in->prof->n_starts; j++)
			ok |= in->prof->starts[j] == start;
		if (!ok) {
			start_list(in->prof, starts, sizeof(starts));
			cfg_fail_key(e, "start", "expected a start %s allows, one of %s, got %lld", in->prof->name, starts,
				     (long long)start);
			return false;
		}
	}
	in->start = (int)start;
	return true;
}

/* Why the profiles cannot be placed together, for the error. */
static void why_not(const struct gpu_mig *m, const struct mig *s, char *out, size_t len)
{
	int c = 0, mem = 0;
	for (int i = 0; i < s->n; i++) {
		c += s->inst[i].prof->compute;
		mem += s->inst[i].prof->memory;
	}
	if (c > m->compute_slices || mem > m->memory_slices) {
		snprintf(out, len, "they need %d compute and %d memory slices, the GPU has %d and %d", c, mem,
			 m->compute_slices, m->memory_slices);
		return;
	}
	size_t at = (size_t)snprintf(out, len, "no placement at the starts each allows keeps their slices apart (");
	for (int i = 0; i < s->n && at < len; i++) {
		char st[64];
		if (s->inst[i].start >= 0)
			snprintf(st, sizeof(st), "%d (given)", s->inst[i].start);
		else
			start_list(s->inst[i].prof, st, sizeof(st));
		at += (size_t)snprintf(out + at, len - at, "%s%s: %dg + %d memory slices at %s", i ? "; " : "",
				       s->inst[i].prof->name, s->inst[i].prof->compute, s->inst[i].prof->memory, st);
	}
	if (at < len)
		snprintf(out + at, len - at, ")");
}

static void *mig_init(struct backend *b, const struct cfg *p)
{
	const struct gpu_desc *g = bk_gpu(b);
	const struct gpu_mig *m = &g->mig;
	cfg_only(p, (const char *const[]){ "name", "label", "instances", NULL });
	if (!m->present) {
		cfg_fail(p, "the GPU %s has no MIG profiles (its description %s gives no \"mig\" object)", g->name, g->source);
		return NULL;
	}
	if (bk_games(b) > 0) {
		cfg_fail(p, "mig places BE apps, one per GPU instance; the experiment has %d game(s)", bk_games(b));
		return NULL;
	}
	struct cfg arr;
	int n;
	if (!cfg_arr(p, "instances", true, &arr, &n))
		return NULL;
	int most = m->compute_slices < MIG_MAX_INSTANCES ? m->compute_slices : MIG_MAX_INSTANCES;
	if (n < 1 || n > most) {
		cfg_fail(&arr, "expected 1 to %d GPU instances, got %d", most, n);
		return NULL;
	}
	if (!bk_require(b, p, BK_CAP_MASK, "a MIG instance runs its app's kernels on its own SMs only") ||
	    !bk_require(b, p, BK_CAP_DRAM_PARTITION, "a MIG instance has its own memory slices' DRAM bandwidth"))
		return NULL;
	struct mig *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->n = n;
	const struct mig_profile *prof[MIG_MAX_INSTANCES];
	int start[MIG_MAX_INSTANCES];
	for (int i = 0; i < n; i++) {
		struct cfg e = cfg_at(&arr, i);
		if (!read_instance(m, &e, &s->inst[i])) {
			free(s);
			return NULL;
		}
		prof[i] = s->inst[i].prof;
		start[i] = s->inst[i].start;
	}
	if (bk_apps(b) < 1 || bk_apps(b) > n) {
		cfg_fail(&arr, "expected an instance for each BE app (app i runs in instance i): %d app(s), %d instance(s)",
			 bk_apps(b), n);
		free(s);
		return NULL;
	}
	if (!mig_place(m, prof, n, start)) {
		char why[512];
		why_not(m, s, why, sizeof(why));
		cfg_fail(&arr, "the %s cannot hold these MIG instances together: %s", g->name, why);
		free(s);
		return NULL;
	}
	struct dram_partition parts[MIG_MAX_INSTANCES];
	for (int i = 0; i < n; i++) {
		struct mig_inst *in = &s->inst[i];
		in->start = start[i];
		in->sms = smset_range(in->start * m->sms_per_slice, in->prof->compute * m->sms_per_slice);
		in->share = (double)in->prof->memory / m->memory_slices;
		parts[i] = (struct dram_partition){ .sms = in->sms, .share = in->share };
	}
	bk_dram_partition(b, n, parts);
	return s;
}

static void mig_destroy(void *self)
{
	free(self);
}

/* Each app fills its depth, masked to its instance's SMs. */
static void mig_be_ready(void *self, struct backend *b, int app)
{
	struct mig *s = self;
	struct launch_opts o = launch_masked(s->inst[app].sms);
	while (bk_app_in_flight(b, app) < bk_app_depth(b, app) && bk_app_launch(b, app, &o) >= 0)
		;
}

static void mig_finish(void *self, struct backend *b, cJSON *summary)
{
	struct mig *s = self;
	const struct gpu_mig *m = &bk_gpu(b)->mig;
	cJSON *o = cJSON_AddObjectToObject(summary, "mig");
	cJSON *arr = cJSON_AddArrayToObject(o, "instances");
	for (int i = 0; i < s->n; i++) {
		const struct mig_inst *in = &s->inst[i];
		cJSON *x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "profile", in->prof->name);
		cJSON_AddNumberToObject(x, "start", in->start);
		cJSON_AddNumberToObject(x, "first_sm", in->start * m->sms_per_slice);
		cJSON_AddNumberToObject(x, "sms", in->prof->compute * m->sms_per_slice);
		cJSON_AddNumberToObject(x, "dram_share", in->share);
		cJSON_AddNumberToObject(x, "app", i < bk_apps(b) ? i : -1);
		cJSON_AddItemToArray(arr, x);
	}
}

const struct policy_ops policy_mig = {
	.version = POLICY_OPS_VERSION,
	.name = "mig",
	.summary = "MIG: each BE app alone in a GPU instance of the given profiles (its SMs and its memory slices' DRAM bandwidth)",
	.init = mig_init,
	.destroy = mig_destroy,
	.be_ready = mig_be_ready,
	.finish = mig_finish,
};
