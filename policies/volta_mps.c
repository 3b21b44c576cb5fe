/* volta-mps — the Volta-MPS baseline of SMQoS §6 (Zhang et al., Parallel Computing 2022): each
 * BE app is an MPS client whose kernels may use at most a share of the GPU's SMs, as Volta MPS's
 * execution resource provisioning (CUDA_MPS_ACTIVE_THREAD_PERCENTAGE) gives; §6.1 sets the
 * latency-sensitive (LS) task's limit to the QoS policy.
 *
 * What NVIDIA's MPS documentation says of the mechanism, and so what is modelled: a Volta MPS
 * client's active thread percentage "constrains the portion of available threads" of the
 * device; "setting the limit does not reserve dedicated resources for any MPS client context.
 * It simply limits how much resources can be used by a client context. Kernels launched from
 * different MPS client contexts may execute on the same SM, depending on load-balancing"
 * (docs.nvidia.com/deploy/mps, Volta MPS execution resource provisioning); a limit of p % means
 * the client's kernels cannot use more than p % of the SMs (NVIDIA's forum answer "MPS resource
 * management", 2024); percentages that sum to 100 concentrate the clients' work on disjoint
 * sets of SMs (the same documentation's provisioning strategies).  So each kernel is launched in
 * its original form with an SM-count limit (launch_opts.sm_limit, BK_CAP_SM_LIMIT): at most
 * floor(p x SMs) SMs (at least one) hold its blocks at a time, which ones the hardware's block
 * dispatcher picks, and the other app's blocks may land beside them.  Work from separate
 * clients is treated as if it came from one process (the same forum thread), so the
 * dispatcher's usual rules hold between apps.
 *
 * How the driver turns a percentage into SMs the documentation does not say: floor(p x SMs) by
 * default, or the SMs a client of that percentage was measured to see (`ls_sm_limit`,
 * `batch_sm_limit`; on the H100, cuda/runs/h100-volta-mps sms.txt).  Not modelled: MPS's
 * separate address spaces and its server, and a limit changed at run time (§4.2: only work
 * created afterwards obeys it; this policy never changes it).  Each batch
 * app gets `batch_percentage` (default 1 - qos: the paper does not give the batch task's limit).
 */
#include <math.h>
#include <stdlib.h>
#include "policies/policy.h"

struct volta_mps {
	int ls_app, napps;
	double qos, ls_pct, batch_pct;
	int ls_limit, batch_limit;
};

static int sm_limit_of(int sms, double pct)
{
	int n = (int)floor(pct * sms + 1e-9);
	return n < 1 ? 1 : n > sms ? sms : n;
}

static void *volta_mps_init(struct backend *b, const struct cfg *p)
{
	static const char *const keys[] = { "name", "label", "ls", "qos", "ls_percentage", "batch_percentage",
					    "ls_sm_limit", "batch_sm_limit", NULL };
	struct volta_mps *v = calloc(1, sizeof(*v));
	if (!v)
		return NULL;
	cfg_only(p, keys);
	int64_t ls;
	v->napps = bk_apps(b);
	bool ok = v->napps >= 2;
	if (!ok)
		cfg_fail(p, "Volta-MPS shares the GPU between an LS app and at least one batch app; the experiment has %d",
			 v->napps);
	ok = ok && cfg_int(p, "ls", 0, v->napps - 1, &(int64_t){ 0 }, &ls) &&
	     cfg_num(p, "qos", 0.01, 1, CFG_REQUIRED, &v->qos) &&
	     cfg_num(p, "ls_percentage", 0.01, 1, &v->qos, &v->ls_pct);
	double rest = 1 - (ok ? v->qos : 0);
	ok = ok && cfg_num(p, "batch_percentage", 0.01, 1, &(double){ rest < 0.01 ? 0.01 : rest }, &v->batch_pct) &&
	     bk_require(b, p, BK_CAP_SM_LIMIT, "Volta MPS limits each client to a count of SMs the hardware picks");
	if (!ok) {
		free(v);
		return NULL;
	}
	int sms = bk_gpu(b)->sm_count;
	int64_t ll, bl;
	if (!cfg_int(p, "ls_sm_limit", 1, sms, &(int64_t){ sm_limit_of(sms, v->ls_pct) }, &ll) ||
	    !cfg_int(p, "batch_sm_limit", 1, sms, &(int64_t){ sm_limit_of(sms, v->batch_pct) }, &bl)) {
		free(v);
		return NULL;
	}
	v->ls_app = (int)ls;
	v->ls_limit = (int)ll;
	v->batch_limit = (int)bl;
	return v;
}

static void volta_mps_destroy(void *self)
{
	free(self);
}

static void volta_mps_be_ready(void *self, struct backend *b, int app)
{
	struct volta_mps *v = self;
	struct launch_opts o = launch_original();
	o.sm_limit = app == v->ls_app ? v->ls_limit : v->batch_limit;
	while (bk_app_in_flight(b, app) < bk_app_depth(b, app) && bk_app_launch(b, app, &o) >= 0)
		;
}

static void volta_mps_finish(void *self, struct backend *b, cJSON *summary)
{
	struct volta_mps *v = self;
	(void)b;
	cJSON *o = cJSON_AddObjectToObject(summary, "volta_mps");
	cJSON_AddNumberToObject(o, "ls_app", v->ls_app);
	cJSON_AddNumberToObject(o, "qos", v->qos);
	cJSON_AddNumberToObject(o, "ls_percentage", v->ls_pct);
	cJSON_AddNumberToObject(o, "batch_percentage", v->batch_pct);
	cJSON_AddNumberToObject(o, "ls_sm_limit", v->ls_limit);
	cJSON_AddNumberToObject(o, "batch_sm_limit", v->batch_limit);
}

const struct policy_ops policy_volta_mps = {
	.version = POLICY_OPS_VERSION,
	.name = "volta-mps",
	.summary = "Volta-MPS: each app an MPS client limited to a share of the SMs (LS: the QoS policy) that the hardware picks",
	.init = volta_mps_init,
	.destroy = volta_mps_destroy,
	.be_ready = volta_mps_be_ready,
	.finish = volta_mps_finish,
};
