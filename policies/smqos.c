/* smqos — SMQoS-style spatial sharing (Zhang et al., Parallel Computing 2022): one
 * latency-sensitive (LS) BE app and one or more batch apps each run on their own SMs (spatial
 * multitasking), and every epoch the SM split moves by at most one SM per task.
 *
 * Each epoch (`epoch_cycles` at the GPU's clock, 10 K as §5.1 after Rollover) the policy reads
 * each app's progress (policies/policy.h, bk_app_progress: the IPC-like rate, 1 = as fast as
 * alone on the whole GPU) and runs Algorithm 1 on the LS app against its target, `qos` x its
 * isolated rate (1 by the definition of a kernel's solo time: §5.1's QoS policy x isolated
 * IPC); with `"metric": "duration"` the LS app's performance is instead its finished kernels'
 * solo time over their duration (start to finish), as RH-SMQoS uses task duration (§4.1).
 * Algorithm 2 follows the batch apps' summed rate after each of their moves to find opt_k, and
 * Algorithm 3 gives a freed SM to the batch apps or power-gates it (policies/smqos_alg.c).
 * The apps run as SM-bound persistent kernels resized at each move (bk_kernel_resize): a
 * worker leaves an SM at its next task boundary, as §4.1 swaps an SM out only once its blocks
 * completed.  The LS app holds SMs [0, ls), the batch apps the top `batch` SMs (split evenly,
 * in app order), the SMs between them are gated (bk_sms_gate) when `gate` is on.  Initially the
 * SMs are split evenly (§5.1).
 *
 * `static-smqos` is the paper's Static-SMQoS (§5.2): the LS app's SM share is the QoS policy
 * (or `ls_sms`), never adjusted; the batch apps hold the rest.  Run with a sweep over `ls_sms`
 * it gives the paper's Offline allocation (§5.4: the LS app's fewest SMs that meet the target,
 * the rest to the batch apps); on a GPU it is RH-SMQoS as evaluated (§6.1: "the SM allocation
 * ratio for the LS task is equal to the QoS policy").
 *
 * `spart` is the paper's Spart comparison point (its ref. [19], Aguilera et al., "QoS-aware
 * dynamic resource allocation for spatial-multitasking GPUs", ASP-DAC 2014), modelled as the
 * SMQoS paper describes it: SM partitioning driven by a linear performance predictor.  Each
 * epoch the LS app's rate per SM is taken as constant and the split moves at once to the SMs
 * that would meet the target; the batch apps get every other SM (no gating).  A linear
 * predictor over-reads a saturating (MI) LS app on few SMs and under-reads interference, which
 * is what the paper's Fig. 7-8 show of it; its real predictor's details are not modelled.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "policies/policy.h"
#include "policies/smqos.h"

#define SMQOS_SERIES_MAX 100000

struct epoch_row {
	int ls, batch, opt_k;
	double ls_ipc, batch_ipc;
};

enum mode { MODE_DYNAMIC, MODE_STATIC, MODE_SPART };
static const char *const mode_names[] = { "dynamic", "static", "spart" };

struct smqos {
	enum mode mode;
	bool gate, by_duration, keep_series;
	int ls_app, napps;
	double qos, threshold;
	struct smqos_alloc alloc;
	struct smqos_optk optk;
	enum smqos_move batch_last;              /* the batch apps' move at the last epoch */
	int sm_last;                             /* their SMs before it */
	double batch_ipc_last;
	long *running;                           /* per app: its kernel in flight, or -1 */
	/* the LS app's performance: epochs counted, their summed IPC (or finished kernels' ratios) */
	long n_epoch, n_dur;
	double ipc_sum, dur_sum, epoch_dur_sum;
	long epoch_dur_n;
	double *app_work;                        /* per app: work ns over the run */
	long ls_swaps, batch_swaps, epochs;
	double active_sm_epochs;
	struct epoch_row *series;
	long nseries;
};

static const char *const metrics[] = { "ipc", "duration", NULL };

static bool read_common(struct smqos *q, struct backend *b, const struct cfg *p)
{
	int64_t v;
	q->napps = bk_apps(b);
	if (q->napps < 2) {
		cfg_fail(p, "SMQoS shares the GPU between an LS app and at least one batch app; the experiment has %d app%s",
			 q->napps, q->napps == 1 ? "" : "s");
		return false;
	}
	if (!cfg_int(p, "ls", 0, q->napps - 1, &(int64_t){ 0 }, &v))
		return false;
	q->ls_app = (int)v;
	if (!cfg_num(p, "qos", 0.01, 1, CFG_REQUIRED, &q->qos))
		return false;
	int m = cfg_enum(p, "metric", metrics, "ipc");
	if (m < 0)
		return false;
	q->by_duration = m == 1;
	if (!cfg_bool(p, "series", &(bool){ false }, &q->keep_series))
		return false;
	sim_time epoch;
	if (!policy_epoch_cycles(b, p, 10000, &epoch))
		return false;
	if (!bk_require(b, p, BK_CAP_EPOCH, "SMQoS reads every app's progress each epoch"))
		return false;
	bk_epoch_every(b, epoch);
	return true;
}

/* A move resizes each app's one kernel in flight: the moving modes run apps at depth 1 (a
 * static split launches every kernel on its side and may queue several). */
static bool one_in_flight(const struct smqos *q, struct backend *b, const struct cfg *p)
{
	for (int a = 0; a < q->napps; a++)
		if (bk_app_depth(b, a) > 1) {
			cfg_fail(p, "%s moves SMs between the apps' running kernels, one per app; app %d has depth %d",
				 q->mode == MODE_SPART ? "Spart" : "SMQoS", a, bk_app_depth(b, a));
			return false;
		}
	return true;
}

static bool read_dynamic(struct smqos *q, struct backend *b, const struct cfg *p)
{
	int total = bk_gpu(b)->sm_count;
	int64_t v;
	if (!cfg_num(p, "threshold", 0, 1, &(double){ 0.01 }, &q->threshold))
		return false;
	if (!cfg_int(p, "initial_ls_sms", 1, total - 1, &(int64_t){ total / 2 }, &v))
		return false;
	q->alloc = (struct smqos_alloc){ .total = total, .ls = (int)v, .batch = total - (int)v };
	q->optk = (struct smqos_optk){ .opt_k = q->alloc.batch };
	if (!one_in_flight(q, b, p) || !bk_require(b, p, BK_CAP_RESIZE, "SMQoS moves SMs between running kernels each epoch"))
		return false;
	bool can_gate = bk_can(b, BK_CAP_GATE);
	if (!cfg_bool(p, "gate", &can_gate, &q->gate))
		return false;
	return !q->gate || bk_require(b, p, BK_CAP_GATE, "\"gate\": true power-gates idle SMs (Alg. 3)");
}

static bool read_static(struct smqos *q, struct backend *b, const struct cfg *p)
{
	int total = bk_gpu(b)->sm_count;
	int64_t v;
	long ls = lround(q->qos * total);
	if (!cfg_int(p, "ls_sms", 1, total - 1, &(int64_t){ ls < 1 ? 1 : ls > total - 1 ? total - 1 : ls }, &v))
		return false;
	q->alloc = (struct smqos_alloc){ .total = total, .ls = (int)v, .batch = total - (int)v };
	return true;
}

/* Spart: the LS app's SMs from a linear predictor; no gating. */
static bool read_spart(struct smqos *q, struct backend *b, const struct cfg *p)
{
	int total = bk_gpu(b)->sm_count;
	int64_t v;
	if (!cfg_int(p, "initial_ls_sms", 1, total - 1, &(int64_t){ total / 2 }, &v))
		return false;
	q->alloc = (struct smqos_alloc){ .total = total, .ls = (int)v, .batch = total - (int)v };
	return one_in_flight(q, b, p) &&
	       bk_require(b, p, BK_CAP_RESIZE, "Spart repartitions the SMs of running kernels each epoch");
}

static void *smqos_create(struct backend *b, const struct cfg *p, enum mode mode)
{
	static const char *const keys[][12] = {
		[MODE_DYNAMIC] = { "name", "label", "ls", "qos", "metric", "series", "epoch_cycles", "threshold",
				   "initial_ls_sms", "gate", NULL },
		[MODE_STATIC] = { "name", "label", "ls", "qos", "metric", "series", "epoch_cycles", "ls_sms", NULL },
		[MODE_SPART] = { "name", "label", "ls", "qos", "metric", "series", "epoch_cycles", "initial_ls_sms", NULL },
	};
	static bool (*const readers[])(struct smqos *, struct backend *, const struct cfg *) = {
		[MODE_DYNAMIC] = read_dynamic, [MODE_STATIC] = read_static, [MODE_SPART] = read_spart,
	};
	struct smqos *q = calloc(1, sizeof(*q));
	if (!q)
		return NULL;
	q->mode = mode;
	cfg_only(p, keys[mode]);
	bool ok = read_common(q, b, p) && readers[mode](q, b, p);
	if (ok) {
		q->running = malloc((size_t)q->napps * sizeof(*q->running));
		q->app_work = calloc((size_t)q->napps, sizeof(*q->app_work));
		ok = q->running && q->app_work;
		for (int i = 0; ok && i < q->napps; i++)
			q->running[i] = -1;
	}
	if (!ok) {
		free(q->running);
		free(q->app_work);
		free(q);
		return NULL;
	}
	q->sm_last = q->alloc.batch;
	return q;
}

static void *smqos_init(struct backend *b, const struct cfg *p)
{
	return smqos_create(b, p, MODE_DYNAMIC);
}

static void *static_smqos_init(struct backend *b, const struct cfg *p)
{
	return smqos_create(b, p, MODE_STATIC);
}

static void *spart_init(struct backend *b, const struct cfg *p)
{
	return smqos_create(b, p, MODE_SPART);
}

static void smqos_destroy(void *self)
{
	struct smqos *q = self;
	free(q->running);
	free(q->app_work);
	free(q->series);
	free(q);
}

/* ---------------------------------------------------------------- where each app runs */

/* The SMs of app `app`: the LS app [0, ls); batch apps share the top `batch` SMs, split
 * evenly in app order (earlier apps get the odd ones). */
static struct smset app_sms(const struct smqos *q, int app)
{
	if (app == q->ls_app)
		return smset_range(0, q->alloc.ls);
	int nb = q->napps - 1, i = app < q->ls_app ? app : app - 1;
	int base = q->alloc.batch / nb, extra = q->alloc.batch % nb;
	int first = q->alloc.total - q->alloc.batch + i * base + (i < extra ? i : extra);
	return smset_range(first, base + (i < extra));
}

static void apply_alloc(struct smqos *q, struct backend *b)
{
	for (int a = 0; a < q->napps; a++) {
		struct smset s = app_sms(q, a);
		if (q->running[a] >= 0)
			bk_kernel_resize(b, q->running[a], &s);
	}
	if (q->gate) {
		struct smset gated = smset_range(q->alloc.ls, q->alloc.total - q->alloc.ls - q->alloc.batch);
		bk_sms_gate(b, &gated);
	}
}

static void smqos_be_ready(void *self, struct backend *b, int app)
{
	struct smqos *q = self;
	struct smset s = app_sms(q, app);
	if (smset_count(&s) == 0)
		return;  /* a batch app with no SM waits for one (Alg. 3 gave them all away) */
	struct launch_opts o = launch_smbound(s);
	long id;
	while (bk_app_in_flight(b, app) < bk_app_depth(b, app) && (id = bk_app_launch(b, app, &o)) >= 0)
		q->running[app] = id;
}

static void smqos_kernel_finished(void *self, struct backend *b, const struct kernel_done *k)
{
	struct smqos *q = self;
	(void)b;
	if (k->app < 0)
		return;
	if (q->running[k->app] == k->id)
		q->running[k->app] = -1;
	if (k->app == q->ls_app && k->finished > k->started) {
		/* its run, not its wait behind the app's previous kernel on the stream */
		double perf = (double)k->spec->solo_ns / (double)(k->finished - k->started);
		q->dur_sum += perf;
		q->n_dur++;
		q->epoch_dur_sum += perf;
		q->epoch_dur_n++;
	}
}

/* ---------------------------------------------------------------- the epoch */

/* The LS app's performance over the epoch just ended, and over the run so far; false when
 * there is nothing to judge by (duration metric: no LS kernel finished in the epoch). */
static bool ls_perf(struct smqos *q, const struct progress *ls, double *epoch, double *ave)
{
	if (q->by_duration) {
		if (q->epoch_dur_n == 0)
			return false;
		*epoch = q->epoch_dur_sum / (double)q->epoch_dur_n;
		*ave = q->dur_sum / (double)q->n_dur;
		q->epoch_dur_sum = 0;
		q->epoch_dur_n = 0;
		q->n_epoch++;
		return true;
	}
	q->n_epoch++;
	q->ipc_sum += ls->rate;
	*epoch = ls->rate;
	*ave = q->ipc_sum / (double)q->n_epoch;
	return true;
}

static double batch_rate(struct smqos *q, struct backend *b)
{
	double sum = 0;
	for (int a = 0; a < q->napps; a++) {
		struct progress p;
		bk_app_progress(b, a, &p);
		q->app_work[a] += p.work_ns;
		if (a != q->ls_app)
			sum += p.rate;
	}
	return sum;
}

static void record(struct smqos *q, double ls_ipc, double batch_ipc)
{
	if (!q->keep_series || q->nseries >= SMQOS_SERIES_MAX)
		return;
	if ((q->nseries & (q->nseries - 1)) == 0) {
		size_t cap = q->nseries ? 2 * (size_t)q->nseries : 64;
		struct epoch_row *n = realloc(q->series, cap * sizeof(*n));
		if (!n)
			return;
		q->series = n;
	}
	q->series[q->nseries++] = (struct epoch_row){
		.ls = q->alloc.ls, .batch = q->alloc.batch, .opt_k = q->optk.opt_k,
		.ls_ipc = ls_ipc, .batch_ipc = batch_ipc,
	};
}

/* Resizes every app's kernel to the allocation and starts those that were waiting for SMs. */
static void move_to(struct smqos *q, struct backend *b)
{
	apply_alloc(q, b);
	for (int a = 0; a < q->napps; a++)
		if (q->running[a] < 0)
			smqos_be_ready(q, b, a);
}

/* Algorithms 2, 1 and 3 in that order: opt_k learns from the batch apps' last move, then the
 * LS app moves, then the batch apps. */
static void adjust(struct smqos *q, struct backend *b, double ls_epoch, double ls_ave, double batch_ipc)
{
	smqos_opt_k(&q->optk, q->batch_last, q->threshold, q->batch_ipc_last, batch_ipc, q->sm_last,
		    q->alloc.batch);
	enum smqos_move ls = smqos_ls_decide(q->n_epoch, ls_ave, ls_epoch, q->qos);
	int before = q->alloc.batch, ls_before = q->alloc.ls;
	q->batch_last = smqos_alloc_step(&q->alloc, ls, &q->optk);
	q->sm_last = before;
	q->batch_ipc_last = batch_ipc;
	q->ls_swaps += q->alloc.ls != ls_before;
	q->batch_swaps += q->alloc.batch != before;
	if (q->alloc.ls != ls_before || q->alloc.batch != before)
		move_to(q, b);
}

/* Spart: the LS app's rate per SM this epoch, taken as constant (a linear predictor), gives
 * the SMs that meet the target; the split moves there at once, the batch apps get the rest. */
static void spart_adjust(struct smqos *q, struct backend *b, double ls_epoch)
{
	if (ls_epoch <= 0)
		return;
	double per_sm = ls_epoch / q->alloc.ls;
	int need = (int)ceil(q->qos / per_sm - 1e-9);
	need = need < 1 ? 1 : need > q->alloc.total - 1 ? q->alloc.total - 1 : need;
	if (need == q->alloc.ls)
		return;
	q->ls_swaps += abs(need - q->alloc.ls);
	q->batch_swaps += abs(need - q->alloc.ls);
	q->alloc.ls = need;
	q->alloc.batch = q->alloc.total - need;
	move_to(q, b);
}

static void smqos_epoch(void *self, struct backend *b, long number)
{
	struct smqos *q = self;
	struct progress ls;
	double epoch = 0, ave = 0;
	(void)number;
	q->epochs++;
	q->active_sm_epochs += q->alloc.ls + q->alloc.batch;
	bk_app_progress(b, q->ls_app, &ls);
	double batch_ipc = batch_rate(q, b);
	bool judged = ls_perf(q, &ls, &epoch, &ave);
	record(q, ls.rate, batch_ipc);
	if (q->mode == MODE_DYNAMIC && judged)
		adjust(q, b, epoch, ave, batch_ipc);
	else if (q->mode == MODE_SPART && judged)
		spart_adjust(q, b, epoch);
}

/* ---------------------------------------------------------------- results */

static void add_series(const struct smqos *q, cJSON *o)
{
	cJSON *rows = cJSON_AddArrayToObject(o, "epochs_series");
	for (long i = 0; i < q->nseries; i++) {
		const struct epoch_row *r = &q->series[i];
		cJSON *row = cJSON_CreateObject();
		cJSON_AddNumberToObject(row, "ls_sms", r->ls);
		cJSON_AddNumberToObject(row, "batch_sms", r->batch);
		cJSON_AddNumberToObject(row, "active_sms", r->ls + r->batch);
		cJSON_AddNumberToObject(row, "opt_k", r->opt_k);
		cJSON_AddNumberToObject(row, "ls_ipc", r->ls_ipc);
		cJSON_AddNumberToObject(row, "batch_ipc", r->batch_ipc);
		cJSON_AddItemToArray(rows, row);
	}
}

static void smqos_finish(void *self, struct backend *b, cJSON *summary)
{
	struct smqos *q = self;
	sim_time now = bk_now(b);
	cJSON *o = cJSON_AddObjectToObject(summary, "smqos");
	double perf = q->by_duration ? (q->n_dur ? q->dur_sum / (double)q->n_dur : 0)
				     : (now > 0 ? q->app_work[q->ls_app] / (double)now : 0);
	cJSON_AddStringToObject(o, "mode", mode_names[q->mode]);
	cJSON_AddNumberToObject(o, "ls_app", q->ls_app);
	cJSON_AddStringToObject(o, "metric", q->by_duration ? "duration" : "ipc");
	cJSON_AddNumberToObject(o, "qos", q->qos);
	cJSON_AddNumberToObject(o, "ls_perf", perf);
	cJSON_AddNumberToObject(o, "ls_norm", perf / q->qos);
	cJSON_AddBoolToObject(o, "qos_reached", perf >= q->qos);
	cJSON *batch = cJSON_AddArrayToObject(o, "batch_ntp");
	double sum = 0;
	for (int a = 0; a < q->napps; a++) {
		if (a == q->ls_app)
			continue;
		double ntp = now > 0 ? q->app_work[a] / (double)now : 0;
		sum += ntp;
		cJSON_AddItemToArray(batch, cJSON_CreateNumber(ntp));
	}
	cJSON_AddNumberToObject(o, "batch_ntp_sum", sum);
	cJSON_AddNumberToObject(o, "epochs", (double)q->epochs);
	cJSON_AddNumberToObject(o, "ls_sms", q->alloc.ls);
	cJSON_AddNumberToObject(o, "batch_sms", q->alloc.batch);
	cJSON_AddNumberToObject(o, "active_sms_mean", q->epochs ? q->active_sm_epochs / (double)q->epochs : 0);
	if (q->mode == MODE_DYNAMIC) {
		cJSON_AddNumberToObject(o, "opt_k", q->optk.opt_k);
		cJSON_AddBoolToObject(o, "upper_k", q->optk.upper_k);
		cJSON_AddBoolToObject(o, "lower_k", q->optk.lower_k);
	}
	if (q->mode != MODE_STATIC) {
		cJSON_AddNumberToObject(o, "ls_swaps", (double)q->ls_swaps);
		cJSON_AddNumberToObject(o, "batch_swaps", (double)q->batch_swaps);
	}
	if (q->keep_series)
		add_series(q, o);
}

const struct policy_ops policy_smqos = {
	.version = POLICY_OPS_VERSION,
	.name = "smqos",
	.summary = "SMQoS: LS app's SMs adjusted one per epoch to its target (Alg. 1), batch opt_k and SM gating (Alg. 2-3)",
	.init = smqos_init,
	.destroy = smqos_destroy,
	.be_ready = smqos_be_ready,
	.kernel_finished = smqos_kernel_finished,
	.epoch = smqos_epoch,
	.finish = smqos_finish,
};

const struct policy_ops policy_static_smqos = {
	.version = POLICY_OPS_VERSION,
	.name = "static-smqos",
	.summary = "Static-SMQoS / Offline / RH-SMQoS: LS app on a fixed SM share (the QoS policy, or ls_sms), batch apps on the rest",
	.init = static_smqos_init,
	.destroy = smqos_destroy,
	.be_ready = smqos_be_ready,
	.kernel_finished = smqos_kernel_finished,
	.epoch = smqos_epoch,
	.finish = smqos_finish,
};

const struct policy_ops policy_spart = {
	.version = POLICY_OPS_VERSION,
	.name = "spart",
	.summary = "Spart-style SM partitioning: LS app's SMs from a linear predictor each epoch, batch apps on the rest",
	.init = spart_init,
	.destroy = smqos_destroy,
	.be_ready = smqos_be_ready,
	.kernel_finished = smqos_kernel_finished,
	.epoch = smqos_epoch,
	.finish = smqos_finish,
};
