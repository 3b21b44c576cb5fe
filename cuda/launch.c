/* launch — launch options to a synthetic kernel launch (cuda/launch.h). */
#include "cuda/launch.h"

int cl_smset(const struct smset *set, int sm_count, struct ck_kernel *k)
{
	int lo = -1, hi = -1, n = 0;
	if (sm_count > CK_MAX_SMS)
		sm_count = CK_MAX_SMS;
	ck_mask_clear(k);
	for (int sm = 0; sm < sm_count; sm++)
		if (smset_has(set, sm)) {
			k->mask[sm / 32] |= 1u << (sm % 32);
			lo = lo < 0 ? sm : lo;
			hi = sm;
			n++;
		}
	/* a range goes in the launch's arguments (no copy to the device before the kernel) */
	k->sm_lo = n && n == hi - lo + 1 ? lo : 0;
	k->sm_hi = n && n == hi - lo + 1 ? hi + 1 : 0;
	return n;
}

const char *cl_kernel(const struct ck_kernel *base, const struct kernel_spec *s, const struct launch_opts *o,
		      int sm_count, struct ck_kernel *k)
{
	*k = *base;
	k->sm_lo = k->sm_hi = k->sm_quota = 0;
	ck_mask_clear(k);
	if (o->masked)
		return "a launch under a hardware SM mask (launch_opts.masked): the CUDA runtime has none here; "
		       "SM-bound kernels (launch_smbound) confine a kernel to an SM set";
	if (o->relaunch && o->variant != VAR_ORIGINAL)
		return "a re-launched kernel of a persistent variant (only original grids are re-launched, as the simulator's)";
	int workers = o->workers > 0 ? o->workers : s->ptb_workers > 0 ? s->ptb_workers : base->workers;
	switch (o->variant) {
	case VAR_ORIGINAL:
		k->variant = CK_ORIGINAL;
		if (!o->relaunch)
			return NULL;
		k->variant = CK_RELAUNCH;   /* grid = tasks, re-launched by the host (hostrelaunch.c) */
		if (cl_smset(&o->sms, sm_count, k) == 0)
			return smset_count(&o->sms) ? "a re-launched kernel whose SM set has no SM of this GPU"
						    : "a re-launched kernel with an empty SM set";
		k->sm_quota = o->sm_quota > 0 ? o->sm_quota : 0;
		return NULL;
	case VAR_PTB:
		k->variant = CK_PTB;
		k->workers = workers < k->tasks ? workers : k->tasks;
		return NULL;
	case VAR_SMBOUND:
		k->variant = CK_SMBOUND;
		k->workers = workers;
		if (cl_smset(&o->sms, sm_count, k) == 0)
			return smset_count(&o->sms) ? "an SM-bound launch whose SM set has no SM of this GPU"
						    : "an SM-bound launch with an empty SM set";
		k->sm_quota = o->sm_quota > 0 ? o->sm_quota : 0;
		return NULL;
	default:
		return "a launch of an unknown kernel variant";
	}
}
