/* mig — MIG profiles and their placement (see mig.h). */
#include "models/mig.h"

#include <stdio.h>
#include <string.h>

void mig_load(struct gpu_mig *m, const struct cfg *c, int sm_count)
{
	int64_t v;
	memset(m, 0, sizeof(*m));
	cfg_only(c, (const char *const[]){ "compute_slices", "memory_slices", "sms_per_compute_slice",
					   "profiles", "source", NULL });
	if (cfg_int(c, "compute_slices", 1, MIG_MAX_SLICES, CFG_REQUIRED, &v))
		m->compute_slices = (int)v;
	if (cfg_int(c, "memory_slices", 1, MIG_MAX_SLICES, CFG_REQUIRED, &v))
		m->memory_slices = (int)v;
	if (cfg_int(c, "sms_per_compute_slice", 1, sm_count, CFG_REQUIRED, &v))
		m->sms_per_slice = (int)v;
	if (c->diag->failed)
		return;
	if (m->compute_slices * m->sms_per_slice > sm_count) {
		cfg_fail_key(c, "sms_per_compute_slice", "expected at most %d (sm_count %d over %d compute slices), got %d",
			     sm_count / m->compute_slices, sm_count, m->compute_slices, m->sms_per_slice);
		return;
	}
	struct cfg arr;
	int n;
	if (!cfg_arr(c, "profiles", true, &arr, &n))
		return;
	if (n < 1 || n > MIG_MAX_PROFILES) {
		cfg_fail(&arr, "expected 1 to %d profiles, got %d", MIG_MAX_PROFILES, n);
		return;
	}
	for (int i = 0; i < n && !c->diag->failed; i++) {
		struct cfg e = cfg_at(&arr, i), starts;
		struct mig_profile *p = &m->profiles[i];
		const char *name;
		int ns;
		cfg_only(&e, (const char *const[]){ "name", "compute_slices", "memory_slices", "starts", NULL });
		if (!cfg_str(&e, "name", NULL, CFG_REQUIRED, &name))
			return;
		if (strlen(name) >= sizeof(p->name) || mig_profile_find(m, name)) {
			cfg_fail_key(&e, "name", "expected a new profile name shorter than %zu characters, got \"%s\"",
				     sizeof(p->name), name);
			return;
		}
		if (!cfg_int(&e, "compute_slices", 1, m->compute_slices, CFG_REQUIRED, &v))
			return;
		p->compute = (int)v;
		if (!cfg_int(&e, "memory_slices", 1, m->memory_slices, CFG_REQUIRED, &v))
			return;
		p->memory = (int)v;
		if (!cfg_arr(&e, "starts", true, &starts, &ns))
			return;
		if (ns < 1 || ns > MIG_MAX_SLICES) {
			cfg_fail(&starts, "expected 1 to %d starts, got %d", MIG_MAX_SLICES, ns);
			return;
		}
		for (int j = 0; j < ns; j++) {
			struct cfg s = cfg_at(&starts, j);
			/* the instance's compute and memory slices must both exist from there */
			int hi = m->compute_slices - p->compute;
			if (m->memory_slices - p->memory < hi)
				hi = m->memory_slices - p->memory;
			if (!cfg_self_int(&s, j ? p->starts[j - 1] + 1 : 0, hi, &v))
				return;
			p->starts[j] = (int)v;
		}
		p->n_starts = ns;
		snprintf(p->name, sizeof(p->name), "%s", name);
		m->n_profiles = i + 1;
	}
	m->present = !c->diag->failed;
}

const struct mig_profile *mig_profile_find(const struct gpu_mig *m, const char *name)
{
	for (int i = 0; i < m->n_profiles; i++)
		if (strcmp(m->profiles[i].name, name) == 0)
			return &m->profiles[i];
	return NULL;
}

/* Depth-first over the instances in order; used: slices taken so far (compute bits, memory
 * bits). */
static bool place_from(const struct mig_profile *const *p, int n, int i, int *start, unsigned cused,
		       unsigned mused, const int *fixed)
{
	if (i == n)
		return true;
	for (int j = 0; j < p[i]->n_starts; j++) {
		int s = p[i]->starts[j];
		if (fixed[i] >= 0 && s != fixed[i])
			continue;
		unsigned cb = ((1u << p[i]->compute) - 1) << s, mb = ((1u << p[i]->memory) - 1) << s;
		if ((cb & cused) || (mb & mused))
			continue;
		start[i] = s;
		if (place_from(p, n, i + 1, start, cused | cb, mused | mb, fixed))
			return true;
	}
	return false;
}

bool mig_place(const struct gpu_mig *m, const struct mig_profile *const *p, int n, int *start)
{
	int fixed[MIG_MAX_INSTANCES];
	(void)m;
	if (n < 1 || n > MIG_MAX_INSTANCES)
		return false;
	for (int i = 0; i < n; i++)
		fixed[i] = start[i];
	return place_from(p, n, 0, start, 0, 0, fixed);
}
