/* registry — the table of built-in policies, looked up by name. */
#include <string.h>
#include "policies/policy.h"

extern const struct policy_ops policy_exclusive;
extern const struct policy_ops policy_static;
extern const struct policy_ops policy_pilotfish;
extern const struct policy_ops policy_combo;
extern const struct policy_ops policy_combo_nm;
extern const struct policy_ops policy_combo_intra;
extern const struct policy_ops policy_combo_exact;
extern const struct policy_ops policy_vgasa;
extern const struct policy_ops policy_smqos;
extern const struct policy_ops policy_static_smqos;
extern const struct policy_ops policy_spart;
extern const struct policy_ops policy_rollover;
extern const struct policy_ops policy_gspace;
extern const struct policy_ops policy_mig;
extern const struct policy_ops policy_volta_mps;
extern const struct policy_ops policy_slateqos;

static const struct policy_ops *const policies[] = {
	&policy_exclusive,
	&policy_static,
	&policy_pilotfish,
	&policy_combo,
	&policy_combo_nm,
	&policy_combo_intra,
	&policy_combo_exact,
	&policy_vgasa,
	&policy_smqos,
	&policy_static_smqos,
	&policy_spart,
	&policy_rollover,
	&policy_gspace,
	&policy_mig,
	&policy_volta_mps,
	&policy_slateqos,
};

static const char *const names[] = {
	"exclusive", "static", "pilotfish", "combo", "combo-nm", "combo-intra", "combo-exact", "vgasa", "smqos", "static-smqos", "spart", "rollover", "gspace", "mig", "volta-mps", "slateqos", NULL
};

const struct policy_ops *policy_find(const char *name)
{
	for (size_t i = 0; i < sizeof(policies) / sizeof(policies[0]); i++)
		if (strcmp(policies[i]->name, name) == 0)
			return policies[i];
	return NULL;
}

const char *const *policy_names(void)
{
	return names;
}
