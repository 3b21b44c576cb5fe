/* rollover — Rollover-style intra-SM sharing, the SMQoS paper's other comparison point (its
 * ref. [6]: Wang et al., "Quality of service support for fine-grained sharing on GPUs", ISCA
 * 2017), modelled as far as the SMQoS paper describes it: "controlled the kernel execution on
 * cycle basis and the amount of thread-level parallelism to meet QoS".
 *
 * Both the latency-sensitive (LS) app and the batch apps run on every SM, side by side in each
 * SM (fine-grained sharing), as persistent kernels whose per-SM block counts the policy sets
 * (the thread-level parallelism: bk_kernel_yield lowers a kernel's per-SM count).  Each epoch
 * the LS app is owed a quota of work, `qos` x the epoch (its isolated rate is 1); what it got
 * less or more rolls over into the next epoch's account, at most one epoch's quota either
 * way.  Behind its account, the LS app gets one more block per SM and the batch apps give up
 * their share of the room; ahead by more than an epoch's quota, one fewer.  The LS app starts
 * with half its occupancy.  Not modelled: the per-cycle issue stall of a kernel that used up
 * its quota (our SMs have no issue-slot model), and the split of a batch app's room is linear
 * in the LS app's blocks, not computed from registers and shared memory.
 */
#include <math.h>
#include <stdlib.h>
#include "policies/policy.h"

struct rollover {
	int ls_app, napps, total;
	double qos;
	sim_time epoch_ns;
	int t, occ_ls;                 /* LS blocks per SM, and the most that fit alone */
	double account;                /* quota owed to the LS app, ns of work (+ behind) */
	long *running;
	int *occ;                      /* per app: its kernel's occupancy alone on an SM */
	double *work;
	long epochs, moves;
	double t_sum;
};

static void *rollover_init(struct backend *b, const struct cfg *p)
{
	int64_t v;
	cfg_only(p, (const char *const[]){ "name", "label", "ls", "qos", "epoch_cycles", NULL });
	const struct gpu_desc *g = bk_gpu(b);
	int napps = bk_apps(b);
	if (napps < 2) {
		cfg_fail(p, "Rollover shares the GPU between an LS app and at least one batch app; the experiment has %d", napps);
		return NULL;
	}
	struct rollover *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->napps = napps;
	r->total = g->sm_count;
	bool ok = cfg_int(p, "ls", 0, napps - 1, &(int64_t){ 0 }, &v);
	r->ls_app = (int)v;
	ok = ok && cfg_num(p, "qos", 0.01, 1, CFG_REQUIRED, &r->qos);
	ok = ok && policy_epoch_cycles(b, p, 10000, &r->epoch_ns);
	for (int a = 0; ok && a < napps; a++)
		if (bk_app_depth(b, a) > 1) {
			cfg_fail(p, "Rollover runs each app one kernel at a time; app %d has depth %d", a, bk_app_depth(b, a));
			ok = false;
		}
	ok = ok && bk_require(b, p, BK_CAP_EPOCH, "Rollover keeps the LS app's quota account each epoch");
	ok = ok && bk_require(b, p, BK_CAP_YIELD, "Rollover sets each kernel's blocks per SM");
	r->running = malloc((size_t)napps * sizeof(*r->running));
	r->occ = calloc((size_t)napps, sizeof(*r->occ));
	r->work = calloc((size_t)napps, sizeof(*r->work));
	if (!ok || !r->running || !r->occ || !r->work) {
		free(r->running);
		free(r->occ);
		free(r->work);
		free(r);
		return NULL;
	}
	for (int a = 0; a < napps; a++)
		r->running[a] = -1;
	bk_epoch_every(b, r->epoch_ns);
	return r;
}

static void rollover_destroy(void *self)
{
	struct rollover *r = self;
	free(r->running);
	free(r->occ);
	free(r->work);
	free(r);
}

/* Blocks per SM app `a` may hold beside the LS app's t. */
static int cap_of(const struct rollover *r, int a)
{
	if (a == r->ls_app)
		return r->t;
	int share = (int)floor(r->occ[a] * (1 - (double)r->t / r->occ_ls) / (r->napps - 1));
	return share > 0 ? share : 0;
}

static void set_caps(struct rollover *r, struct backend *b, int a)
{
	if (r->running[a] < 0)
		return;
	struct smset all = smset_range(0, r->total);
	bk_kernel_yield(b, r->running[a], &all, r->occ[a] - cap_of(r, a));
}

static void rollover_be_ready(void *self, struct backend *b, int app)
{
	struct rollover *r = self;
	const struct kernel_spec *k = bk_app_next(b, app);
	struct kernel_fit fit;
	char err[160];
	if (!k || !kernel_fit(k, bk_gpu(b), &fit, err, sizeof(err)))
		return;
	r->occ[app] = fit.occ_compute;
	if (app == r->ls_app) {
		r->occ_ls = fit.occ_compute;
		if (r->t == 0)
			r->t = (r->occ_ls + 1) / 2;
		r->t = r->t > r->occ_ls ? r->occ_ls : r->t;
	} else if (r->occ_ls == 0) {
		return;  /* the LS app sets the split: it launches first */
	}
	struct launch_opts o = launch_smbound(smset_range(0, r->total));
	o.sm_quota = fit.occ_compute;
	long id = bk_app_launch(b, app, &o);
	if (id < 0)
		return;
	r->running[app] = id;
	set_caps(r, b, app);
	if (app == r->ls_app)
		for (int a = 0; a < r->napps; a++)
			if (a != app && r->running[a] < 0)
				rollover_be_ready(r, b, a);
}

static void rollover_kernel_finished(void *self, struct backend *b, const struct kernel_done *k)
{
	struct rollover *r = self;
	(void)b;
	if (k->app >= 0 && r->running[k->app] == k->id)
		r->running[k->app] = -1;
}

static void rollover_epoch(void *self, struct backend *b, long number)
{
	struct rollover *r = self;
	(void)number;
	for (int a = 0; a < r->napps; a++) {
		struct progress p;
		bk_app_progress(b, a, &p);
		r->work[a] += p.work_ns;
		if (a == r->ls_app)
			r->account += r->qos * (double)r->epoch_ns - p.work_ns;
	}
	double quota = r->qos * (double)r->epoch_ns;
	r->account = fmin(quota, fmax(-quota, r->account));
	int t = r->t;
	if (r->account > 0 && r->t < r->occ_ls)
		r->t++;
	else if (r->account <= -quota && r->t > 1)
		r->t--;
	r->epochs++;
	r->t_sum += r->t;
	if (t != r->t) {
		r->moves++;
		for (int a = 0; a < r->napps; a++)
			set_caps(r, b, a);
	}
}

static void rollover_finish(void *self, struct backend *b, cJSON *summary)
{
	struct rollover *r = self;
	sim_time now = bk_now(b);
	cJSON *o = cJSON_AddObjectToObject(summary, "rollover");
	double perf = now > 0 ? r->work[r->ls_app] / (double)now : 0, sum = 0;
	cJSON_AddNumberToObject(o, "ls_app", r->ls_app);
	cJSON_AddNumberToObject(o, "qos", r->qos);
	cJSON_AddNumberToObject(o, "ls_perf", perf);
	cJSON_AddNumberToObject(o, "ls_norm", perf / r->qos);
	cJSON_AddBoolToObject(o, "qos_reached", perf >= r->qos);
	cJSON *batch = cJSON_AddArrayToObject(o, "batch_ntp");
	for (int a = 0; a < r->napps; a++) {
		if (a == r->ls_app)
			continue;
		double ntp = now > 0 ? r->work[a] / (double)now : 0;
		sum += ntp;
		cJSON_AddItemToArray(batch, cJSON_CreateNumber(ntp));
	}
	cJSON_AddNumberToObject(o, "batch_ntp_sum", sum);
	cJSON_AddNumberToObject(o, "epochs", (double)r->epochs);
	cJSON_AddNumberToObject(o, "ls_blocks_per_sm_mean", r->epochs ? r->t_sum / (double)r->epochs : 0);
	cJSON_AddNumberToObject(o, "ls_occupancy", r->occ_ls);
	cJSON_AddNumberToObject(o, "moves", (double)r->moves);
}

const struct policy_ops policy_rollover = {
	.version = POLICY_OPS_VERSION,
	.name = "rollover",
	.summary = "Rollover-style intra-SM sharing: LS app's blocks per SM follow its per-epoch quota account, batch apps fill the rest",
	.init = rollover_init,
	.destroy = rollover_destroy,
	.be_ready = rollover_be_ready,
	.kernel_finished = rollover_kernel_finished,
	.epoch = rollover_epoch,
	.finish = rollover_finish,
};
