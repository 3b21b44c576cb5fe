/* exclusive — no co-location: the games alone ("run": "game") or the BE apps alone
 * ("run": "be"), each on the whole GPU.  The normalisation baselines of every comparison. */
#include <stdlib.h>
#include "policies/policy.h"

static const char *const exclusive_runs[] = { "game", "be", NULL };

static void *exclusive_init(struct backend *b, const struct cfg *p)
{
	cfg_only(p, (const char *const[]){ "name", "label", "run", NULL });
	int run = cfg_enum(p, "run", exclusive_runs, "game");
	if (run < 0)
		return NULL;
	if ((run == 0 ? bk_games(b) : bk_apps(b)) == 0) {
		/* else the run would be empty and its row all zeros */
		cfg_fail(p, "\"run\": \"%s\" runs the %s alone, and the experiment has none%s",
			 exclusive_runs[run], run == 0 ? "games" : "BE apps",
			 run == 0 ? "; give \"run\": \"be\" for the BE apps alone" : "");
		return NULL;
	}
	if (run == 0)
		bk_exclude_apps(b);
	else
		bk_exclude_games(b);
	return NULL;
}

const struct policy_ops policy_exclusive = {
	.version = POLICY_OPS_VERSION,
	.name = "exclusive",
	.summary = "no co-location: the games alone (run=game) or the BE apps alone (run=be)",
	.init = exclusive_init,
};
