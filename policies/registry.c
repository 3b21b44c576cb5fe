/* registry — the table of built-in policies, looked up by name. */
#include <string.h>
#include "policies/policy.h"

extern const struct policy_ops policy_exclusive;
extern const struct policy_ops policy_static;

static const struct policy_ops *const policies[] = {
	&policy_exclusive,
	&policy_static,
};

static const char *const names[] = { "exclusive", "static", NULL };

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
