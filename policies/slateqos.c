/* slateqos — the SlateQoS baseline of SMQoS §6 (Zhang et al., Parallel Computing 2022): Slate
 * (Allen et al., IPDPS 2019) extended with a QoS share, each app's kernels confined to a range
 * of SMs by re-launching them.
 *
 * What the SMQoS paper says of it, and so what is modelled: Slate "implemented the idea of SMT
 * by adding arguments to the kernel function and launching the task to a designated range of
 * SMs ... the tasks will be re-launched multiple times; for each time, partial TBs will be
 * placed within the specified range of SMs until all TBs have been scheduled" (§4.2);
 * "SlateQoS achieves the TB-SM mapping by re-launching the kernel multiple times" and, as
 * RH-SMQoS, maps the LS task to an SM share equal to the QoS policy (§6.1); its inefficiency is
 * "the overhead of re-launching and atomic operations" / "synchronization operations"
 * (§6.2-6.3).  So the LS app holds SMs [0, ls) with ls = round(qos x SMs) (or `ls_sms`), as
 * static-smqos does, the batch apps the rest split evenly; every kernel is launched in its
 * original form as a re-launched grid on its app's range (launch_opts.relaunch,
 * BK_CAP_RELAUNCH): its blocks that land outside the range exit at once (holding their slot
 * for the GPU's exit time), each block inside takes the next thread block from a counter,
 * runs it and exits, and once the grid is done the host launches a grid of the thread blocks
 * not yet run, `relaunch_us` later, until none is left.  The app's next kernel waits for that
 * (the host re-launches from the stream's head).
 *
 * `relaunch_us` (default 16): the time from a grid's end to the host's next launch.  Its source
 * is a measurement of a host runtime on the H100, not of Slate's: the median time from a BE
 * kernel's end to the launch of its app's next by combosim-cuda's host loop,
 * cuda/runs/h100-exclusive-unified/kernels.csv (be-alone: 15.7 and 16.2 us for its two apps,
 * 2222 gaps; a calibration input, that run being a superseded raw record).  Not modelled: the
 * atomic counter's cost per thread block (RH-SMQoS's workers take tasks the same way here), and
 * Slate's own re-partitioning when a co-runner arrives or leaves (SlateQoS's split is fixed).
 */
#include <math.h>
#include <stdlib.h>
#include "policies/policy.h"

struct slateqos {
	int ls_app, napps, total, ls, quota;
	double qos, relaunch_us;
};

static void *slateqos_init(struct backend *b, const struct cfg *p)
{
	static const char *const keys[] = { "name", "label", "ls", "qos", "ls_sms", "relaunch_us", "sm_quota", NULL };
	struct slateqos *q = calloc(1, sizeof(*q));
	if (!q)
		return NULL;
	cfg_only(p, keys);
	int64_t ls, n, quota;
	q->napps = bk_apps(b);
	q->total = bk_gpu(b)->sm_count;
	bool ok = q->napps >= 2;
	if (!ok)
		cfg_fail(p, "SlateQoS shares the GPU between an LS app and at least one batch app; the experiment has %d",
			 q->napps);
	ok = ok && cfg_int(p, "ls", 0, q->napps - 1, &(int64_t){ 0 }, &ls) &&
	     cfg_num(p, "qos", 0.01, 1, CFG_REQUIRED, &q->qos);
	long dflt = ok ? lround(q->qos * q->total) : 1;
	int hi = q->total - (q->napps - 1);
	dflt = dflt < 1 ? 1 : dflt > hi ? hi : dflt;
	ok = ok && hi >= 1 && cfg_int(p, "ls_sms", 1, hi, &(int64_t){ dflt }, &n) &&
	     cfg_num(p, "relaunch_us", 0, 1e6, &(double){ 16 }, &q->relaunch_us) &&
	     cfg_int(p, "sm_quota", 0, 1024, &(int64_t){ 0 }, &quota) &&
	     bk_require(b, p, BK_CAP_RELAUNCH, "SlateQoS re-launches each kernel on its SM range until all its blocks ran");
	if (!ok) {
		free(q);
		return NULL;
	}
	q->ls_app = (int)ls;
	q->ls = (int)n;
	q->quota = (int)quota;
	return q;
}

static void slateqos_destroy(void *self)
{
	free(self);
}

/* The LS app [0, ls); batch apps share the others, split evenly in app order. */
static struct smset range_of(const struct slateqos *q, int app)
{
	if (app == q->ls_app)
		return smset_range(0, q->ls);
	int nb = q->napps - 1, i = app < q->ls_app ? app : app - 1, rest = q->total - q->ls;
	int base = rest / nb, extra = rest % nb;
	return smset_range(q->ls + i * base + (i < extra ? i : extra), base + (i < extra));
}

static void slateqos_be_ready(void *self, struct backend *b, int app)
{
	struct slateqos *q = self;
	struct launch_opts o = launch_original();
	o.sms = range_of(q, app);
	o.relaunch = true;
	o.relaunch_ns = (sim_time)llround(q->relaunch_us * 1e3);
	o.sm_quota = q->quota;
	while (bk_app_in_flight(b, app) < bk_app_depth(b, app) && bk_app_launch(b, app, &o) >= 0)
		;
}

static void slateqos_finish(void *self, struct backend *b, cJSON *summary)
{
	struct slateqos *q = self;
	(void)b;
	cJSON *o = cJSON_AddObjectToObject(summary, "slateqos");
	cJSON_AddNumberToObject(o, "ls_app", q->ls_app);
	cJSON_AddNumberToObject(o, "qos", q->qos);
	cJSON_AddNumberToObject(o, "ls_sms", q->ls);
	cJSON_AddNumberToObject(o, "batch_sms", q->total - q->ls);
	cJSON_AddNumberToObject(o, "relaunch_us", q->relaunch_us);
}

const struct policy_ops policy_slateqos = {
	.version = POLICY_OPS_VERSION,
	.name = "slateqos",
	.summary = "SlateQoS: each app's kernels re-launched on its SM range (LS: the QoS policy's share) until all blocks ran",
	.init = slateqos_init,
	.destroy = slateqos_destroy,
	.be_ready = slateqos_be_ready,
	.finish = slateqos_finish,
};
