/* runner — `combosim-cuda run EXPERIMENT`: replays an experiment on the GPU under each of its
 * policies, any policy of policies/ (run unchanged on the CUDA backend, cuda/backend.c, by the
 * host loop, cuda/hostloop.c), and writes the simulator's kernels.csv / frames.csv columns with
 * %globaltimer times relative to each run's start, tasks.csv, summary.json, and timeline.json
 * when the experiment sets outputs.timeline (cuda/report.c).
 *
 * Each kernel of the workload (game frames from their frame sources, BE apps' kernels, inline
 * or from a queue file) is the synthetic kernel of its class with its grid, threads and shared memory, its work
 * calibrated so that its solo time on this GPU is the experiment's solo_us; every shape is
 * calibrated before any run.  Every policy is first initialised on the CUDA backend without the
 * GPU: one that asks for what the backend cannot do (bk_require) is refused before anything
 * runs (exit 2).  A run that asks for it later is stopped there, its measurements written with
 * the error in its summary; the other runs go on, and the exit status is 2.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cuda/bench.h"
#include "cuda/hostdev.h"
#include "cuda/report.h"
#include "cuda/runner.h"
#include "traces/timeline.h"

struct prepared {                      /* one calibrated shape + target */
	int cls, grid, threads, smem;
	long long solo_ns;
	struct ck_kernel k;            /* original variant, work set, workers = occupancy x SMs */
};

struct runner {
	struct ck_dev *d;
	struct ck_calib cal;
	const struct experiment *e;
	int N;
	/* a Volta MPS client (runner_opts.mps_client): the SMs the device shows it */
	bool mps;
	int device_sms;
	struct prepared *prep;
	int n_prep, cap_prep;
	cJSON *calib_log;
};

static struct prepared *find_prepared(const struct runner *r, const struct kernel_spec *s)
{
	for (int i = 0; i < r->n_prep; i++) {
		struct prepared *p = &r->prep[i];
		if (p->cls == (int)s->cls && p->grid == s->grid && p->threads == s->threads && p->smem == s->smem &&
		    p->solo_ns == (long long)s->solo_ns)
			return p;
	}
	return NULL;
}

/* the host loop's view of the calibrated kernels */
static const struct ck_kernel *lookup(void *ctx, const struct kernel_spec *s)
{
	struct prepared *p = find_prepared(ctx, s);
	return p ? &p->k : NULL;
}

static void calib_record(struct runner *r, const struct kernel_spec *s, const struct ck_kernel *k, int occ,
			 double target, double measured)
{
	struct kernel_fit fit;
	char err[256];
	int described = kernel_fit(s, r->e->gpu, &fit, err, sizeof(err)) ? fit.occ_compute : 0;
	cJSON *c = cJSON_CreateObject();
	cJSON_AddStringToObject(c, "kernel", s->name);
	cJSON_AddStringToObject(c, "class", ck_class_names[k->cls]);
	cJSON_AddNumberToObject(c, "grid", k->tasks);
	cJSON_AddNumberToObject(c, "threads", k->threads);
	cJSON_AddNumberToObject(c, "smem", k->smem);
	cJSON_AddNumberToObject(c, "occupancy_per_sm", occ);
	/* policies size grids and room from the GPU description: say where it is off */
	cJSON_AddNumberToObject(c, "occupancy_per_sm_description", described);
	if (described != occ)
		fprintf(stderr, "combosim-cuda: kernel '%s': %d blocks fit an SM of this GPU, %d of %s's description\n",
			s->name, occ, described, r->e->gpu->name);
	cJSON_AddNumberToObject(c, "work", (double)k->work);
	cJSON_AddNumberToObject(c, "target_us", target);
	cJSON_AddNumberToObject(c, "measured_solo_us", measured);
	cJSON_AddItemToArray(r->calib_log, c);
	fprintf(stderr, "kernel %s (%s): target %.1f us, measured %.1f us\n", s->name, ck_class_names[k->cls], target,
		measured);
}

static void prepare(struct runner *r, const struct kernel_spec *s)
{
	if (find_prepared(r, s))
		return;
	if (r->n_prep == r->cap_prep) {
		r->cap_prep = r->cap_prep ? 2 * r->cap_prep : 16;
		r->prep = realloc(r->prep, (size_t)r->cap_prep * sizeof(*r->prep));
		if (!r->prep) {
			fputs("combosim-cuda: out of memory\n", stderr);
			exit(1);
		}
	}
	struct prepared *p = &r->prep[r->n_prep++];
	*p = (struct prepared){ (int)s->cls, s->grid, s->threads, s->smem, (long long)s->solo_ns, { 0 } };
	struct ck_kernel *k = &p->k;
	k->cls = (int)s->cls;          /* enum kclass and enum ck_class agree: RT, CD, TC, MEM */
	k->variant = CK_ORIGINAL;
	k->tasks = s->grid;
	/* the hardware allocates whole warps (a block of 120 threads holds 4 warps' slots, as
	 * models/kernel.c fits it), and the synthetic kernels run whole warps: 128 threads */
	k->threads = (s->threads + 31) / 32 * 32;
	k->smem = s->smem;
	int occ = ck_occupancy(r->d, k->cls, k->threads, k->smem);
	if (occ < 1) {
		fprintf(stderr, "combosim-cuda: kernel '%s' (%d threads, %d B shared) does not fit an SM of %s\n",
			s->name, s->threads, s->smem, ck_device_name(r->d));
		exit(2);
	}
	k->workers = occ * r->N;
	double target = (double)s->solo_ns / 1e3;
	if (r->mps) {
		struct ck_kernel c = *k;
		double a, b;
		c.variant = CK_ORIGINAL;
		if (!ck_calib_get(&r->cal, &c, &a, &b)) {
			fprintf(stderr, "combosim-cuda: kernel '%s' (%s) is not in the calibration cache; as an MPS client "
				"(--mps-client) every kernel must have been calibrated on the whole GPU before\n", s->name,
				ck_class_names[k->cls]);
			exit(2);
		}
		k->work = ck_work_for(a, b, target);
		calib_record(r, s, k, occ, target, NAN);
		return;
	}
	double measured = bench_calibrate(r->d, &r->cal, k, target);
	if (isnan(measured))
		measured = bench_solo_us(r->d, k, 3);   /* from the cache: check it */
	if (!(fabs(measured - target) <= 0.10 * target)) {
		/* a replay with a kernel far off its solo time compares nothing: refuse it */
		fprintf(stderr, "combosim-cuda: kernel '%s' (%s): calibrated solo time %.1f us is %.0f %% off its target "
			"%.1f us; not running (delete the calibration cache entry and try again)\n", s->name,
			ck_class_names[k->cls], measured, 100 * fabs(measured - target) / target, target);
		exit(1);
	}
	calib_record(r, s, k, occ, target, measured);
}

/* Every kernel shape of the workload, calibrated before any run (no calibration mid-run). */
static void prepare_all(struct runner *r, const struct hl_workload *w)
{
	const struct experiment *e = r->e;
	for (int g = 0; g < e->n_games; g++)
		for (long f = 0; f < w->n_frames[g]; f++)
			for (int i = 0; i < w->frames[g][f].n; i++)
				prepare(r, &w->frames[g][f].k[i]);
	for (int a = 0; a < e->n_apps; a++)
		for (int i = 0; i < e->apps[a].n_kernels; i++)
			prepare(r, &e->kernels[e->apps[a].kernels[i]]);
}

/* Each policy initialised on the CUDA backend without a GPU: what it cannot run on it is
 * refused here, before any GPU time is spent.  Returns 0 or 2. */
static int check_policies(const struct hl_workload *w)
{
	const struct experiment *e = w->e;
	for (int i = 0; i < e->n_policies; i++) {
		struct hl_run r;
		struct cfg_diag diag = { .file = e->file };
		int rc = hl_run_init(&r, w, &e->policies[i], NULL, &diag);
		hl_run_free(&r);
		if (rc) {
			fprintf(stderr, "combosim-cuda: %s\n", diag.msg);
			return 2;
		}
	}
	return 0;
}

static int mkdir_p(const char *dir)
{
	char p[1024];
	snprintf(p, sizeof(p), "%s", dir);
	for (char *c = p + 1; *c; c++)
		if (*c == '/') {
			*c = 0;
			if (mkdir(p, 0777) && errno != EEXIST)
				return -1;
			*c = '/';
		}
	return mkdir(p, 0777) && errno != EEXIST ? -1 : 0;
}

static FILE *open_out(const char *dir, const char *name)
{
	char p[1200];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	if (!f) {
		fprintf(stderr, "combosim-cuda: cannot write %s: %s\n", p, strerror(errno));
		exit(1);
	}
	return f;
}

static void close_out(FILE *f, const char *name)
{
	if (ferror(f) | fclose(f)) {
		fprintf(stderr, "combosim-cuda: writing %s failed\n", name);
		exit(1);
	}
}

/* The loaded experiment, if `combosim-cuda run` can replay it; NULL after a message. */
static struct experiment *load(const struct runner_opts *o)
{
	struct cfg_diag diag = { .file = o->experiment };
	struct experiment *e = experiment_load(o->experiment, o->sets, o->n_sets, &diag);
	if (!e) {
		fprintf(stderr, "combosim-cuda: %s\n", diag.msg);
		return NULL;
	}
	if (e->type != EXP_RUN) {
		fprintf(stderr, "combosim-cuda: %s: only \"type\": \"run\" experiments are replayed\n", o->experiment);
		experiment_free(e);
		return NULL;
	}
	/* an app's kernels from a BE queue file joined the experiment's kernel table at load:
	 * they are calibrated (prepare_all) and replayed as inline ones are */
	for (int a = 0; a < e->n_apps; a++)
		if (e->apps[a].at_ns) {
			fprintf(stderr, "combosim-cuda: %s: $.apps[%d]: its queue's kernels carry \"at_us\" (a captured launch "
				"schedule), which the host loop does not replay; run it with combosim\n", o->experiment, a);
			experiment_free(e);
			return NULL;
		}
	return e;
}

/* Outputs the experiment asks for that this backend cannot measure: said on stderr and in
 * summary.json, not dropped in silence (the workload itself runs as asked). */
static void unwritten_outputs(const struct experiment *e, cJSON *sum)
{
	if (e->occupancy_ns > 0) {
		fprintf(stderr, "combosim-cuda: %s: outputs.occupancy_ms: no occupancy.csv on the GPU (it needs per-SM "
			"residency over time, which the runner does not record); the simulator writes it\n", e->file);
		cJSON_AddStringToObject(sum, "occupancy", "not written: outputs.occupancy_ms needs per-SM residency");
	}
	if (e->timeline && e->timeline_sm_lanes)
		fprintf(stderr, "combosim-cuda: %s: outputs.timeline_lanes \"sms\": only the stream tracks are written "
			"on the GPU (timeline.sm_lanes in summary.json says why)\n", e->file);
}

static cJSON *summary_new(const struct runner_opts *o, const struct experiment *e, struct runner *r, bool tl)
{
	cJSON *sum = cJSON_CreateObject();
	cJSON_AddStringToObject(sum, "experiment", o->experiment);
	cJSON_AddStringToObject(sum, "name", e->name);
	cJSON_AddStringToObject(sum, "command", o->command ? o->command : "");
	cJSON_AddStringToObject(sum, "backend", "cuda: every policy of policies/ through cuda/backend.c's ops, "
				"decisions from the policy's callbacks only");
	cJSON_AddStringToObject(sum, "rt_emulation", CK_RT_NOTE);
	cJSON_AddNumberToObject(sum, "duration_ms", (double)e->duration_ns / 1e6);
	cJSON_AddStringToObject(sum, "times", "ns; kernel start/end: %globaltimer (first block entry, last block exit) "
				"minus the run start; launch_ns: host enqueue time (CLOCK_MONOTONIC) minus the run start; "
				"release_ns: scheduled release");
	cJSON_AddStringToObject(sum, "not_replayed", "render-time variation (cv); actions the CUDA backend has no "
				"capability for (SM masks, context reset, resize, yield, gating)");
	cJSON_AddStringToObject(sum, "closed_loop", "a closed-loop game's next frame is released at its previous frame's "
				"end on the GPU + the simulator's CPU phase (same stream and seed) + the policy's sleep, "
				"on the host clock; or when the host learns of that end, if later (runs[].closed_loop)");
	cJSON_AddStringToObject(sum, "progress", "epochs on the host clock; a kernel counts as done when the host "
				"delivers it; in flight, PTB and SM-bound kernels report their task counter (less one "
				"per worker), original kernels 0; sms/on: the SMs the kernels were launched on");
	for (int g = 0; g < e->n_games; g++)
		if (e->games[g].cv > 0) {
			fprintf(stderr, "combosim-cuda: game '%s' has cv %.3g: the simulator varies its render times, this run "
				"does not\n", e->games[g].name, e->games[g].cv);
			cJSON_AddStringToObject(sum, "cv_warning", "a game has cv > 0: the simulator varies render times, "
						"this run does not");
			break;
		}
	unwritten_outputs(e, sum);
	cJSON_AddItemToObject(sum, "device", ck_props_json(r->d));
	if (r->mps) {
		const char *pct = getenv("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE");
		cJSON *m = cJSON_AddObjectToObject(sum, "mps_client");
		cJSON_AddNumberToObject(m, "device_sms", r->device_sms);
		cJSON_AddStringToObject(m, "active_thread_percentage", pct ? pct : "");
		cJSON_AddStringToObject(m, "calibration", "from the cache, made on the whole GPU without MPS; not re-measured");
	}
	cJSON_AddItemToObject(sum, "calibration", r->calib_log);
	if (tl) {
		cJSON *tj = cJSON_AddObjectToObject(sum, "timeline");
		cJSON_AddStringToObject(tj, "file", e->timeline_gzip ? "timeline.json.gz" : "timeline.json");
		cJSON_AddStringToObject(tj, "kernel_slices", "written as the simulator's: one process per policy run (pid = "
					"the policy's index in the experiment), a thread \"stream N (priority P)\" per stream "
					"(tid 100000 + N), one slice per kernel of kernels.csv with its start_ns / end_ns; "
					"a measured overlap on a stream is clamped, counted per run (timeline.slices_clamped)");
		cJSON_AddStringToObject(tj, "sm_lanes", "not written: the runner's asynchronous launches record each "
					"kernel's first block entry and last block exit, not per-block SM placement, so the "
					"simulator's per-SM block lanes have no data here");
	}
	return sum;
}

/* Every policy's run on the GPU, into the open outputs; 2 when one stopped early. */
static int run_all(struct runner *r, const struct hl_workload *w, const struct hl_out *out, cJSON *runs)
{
	const struct experiment *e = r->e;
	struct hl_dev dev = hd_device(r->d);
	int rc = 0;
	for (int i = 0; i < e->n_policies; i++) {
		const struct policy_spec *ps = &e->policies[i];
		struct hl_run run;
		struct cfg_diag diag = { .file = e->file };
		if (hl_run_init(&run, w, ps, &dev, &diag)) {
			/* it passed the check: only a policy whose init depends on the GPU gets here */
			fprintf(stderr, "combosim-cuda: %s\n", diag.msg);
			hl_run_free(&run);
			rc = 2;
			continue;
		}
		struct hl_out run_out = *out;
		if (!e->timeline_policy || !e->timeline_policy[i])
			run_out.tl = NULL;          /* outputs.timeline_policies leaves it out */
		if (run_out.tl) {
			char pname[96];
			snprintf(pname, sizeof(pname), "policy %s", ps->name);
			timeline_process(run_out.tl, i, pname);
		}
		if (hl_run_exec(&run)) {
			fprintf(stderr, "combosim-cuda: run of policy '%s' stopped: %s (its measurements so far are written; "
				"the other runs go on)\n", ps->name, run.err);
			rc = 2;
		}
		cJSON_AddItemToArray(runs, hl_report_run(&run, i, &run_out));
		hl_run_free(&run);
		fflush(out->kernels);
		fflush(out->frames);
		fflush(out->tasks);
	}
	return rc;
}

static int replay(const struct runner_opts *o, struct runner *r, const struct hl_workload *w)
{
	const struct experiment *e = r->e;
	bench_warmup(r->d, 300);
	prepare_all(r, w);
	if (ck_calib_save(&r->cal))
		fprintf(stderr, "combosim-cuda: cannot save the calibration cache %s: %s\n", o->calib_path, strerror(errno));
	struct hl_out out = { open_out(o->out_dir, "kernels.csv"), open_out(o->out_dir, "frames.csv"),
			      open_out(o->out_dir, "tasks.csv"), NULL };
	const char *tl_name = e->timeline_gzip ? "timeline.json.gz" : "timeline.json";
	FILE *ftl = e->timeline ? open_out(o->out_dir, tl_name) : NULL;
	out.tl = !ftl ? NULL : e->timeline_gzip ? timeline_open_gz(ftl) : timeline_open(ftl);
	if (out.tl)
		timeline_window(out.tl, e->timeline_from_ns, e->timeline_to_ns);
	fputs("policy,kernel,owner,frame,launch_ns,tasks,tasks_done,blocks_exited,fallback\n", out.tasks);
	fputs("policy,game,frame,release_ns,start_ns,finish_ns,latency_ns,deadline_ns,violated,dropped,note\n", out.frames);
	fputs("policy,kernel,class,variant,owner,frame,stream,launch_ns,start_ns,end_ns,solo_ns,blocks\n", out.kernels);
	cJSON *sum = summary_new(o, e, r, out.tl != NULL);
	int rc = run_all(r, w, &out, cJSON_AddArrayToObject(sum, "runs"));
	close_out(out.kernels, "kernels.csv");
	close_out(out.frames, "frames.csv");
	close_out(out.tasks, "tasks.csv");
	if (out.tl && timeline_close(out.tl)) {
		fprintf(stderr, "combosim-cuda: writing %s failed\n", tl_name);
		exit(1);
	}
	if (ftl)
		close_out(ftl, tl_name);
	FILE *fs = open_out(o->out_dir, "summary.json");
	char *s = cJSON_Print(sum);
	fputs(s ? s : "{}", fs);
	fputc('\n', fs);
	free(s);
	close_out(fs, "summary.json");
	cJSON_Delete(sum);
	return rc;
}

/* The device, its streams (one per game, one per app, then an app's further ones, its `streams`:
 * hl_stream_plan, with the experiment's priorities relative to the lowest), and the SM count
 * policies size their sets by. */
static int open_device(const struct runner_opts *o, struct runner *r, const struct hl_workload *w)
{
	const struct experiment *e = r->e;
	int ns = hl_stream_plan(e, NULL);
	int *prio = calloc((size_t)ns + 1, sizeof(int));
	if (!prio)
		return 1;
	hl_stream_plan(e, prio);
	for (int i = 0; i < ns; i++)
		prio[i] -= w->prio_min;
	r->d = ck_open(o->device, ns > 0 ? ns : 1, prio);
	free(prio);
	r->N = r->device_sms = ck_sm_count(r->d);
	r->mps = o->mps_client;
	if (r->mps)
		r->N = e->gpu->sm_count;   /* kernels sized as on the whole GPU; the client's share limits them */
	if (r->N != e->gpu->sm_count) {
		fprintf(stderr, "combosim-cuda: %s has %d SMs, the experiment's GPU description '%s' %d: policies size their "
			"SM sets from the description; run it with a description of this GPU (\"gpu\")\n",
			ck_device_name(r->d), r->N, e->gpu->name, e->gpu->sm_count);
		return 2;
	}
	char err[512];
	if (ck_calib_load(&r->cal, o->calib_path, ck_device_name(r->d), err, sizeof(err))) {
		fprintf(stderr, "combosim-cuda: %s\n", err);
		return 2;
	}
	return 0;
}

int runner_run(const struct runner_opts *o)
{
	struct experiment *e = load(o);
	if (!e)
		return 2;
	struct hl_workload w;
	char err[512];
	int rc = 2;
	if (hl_workload_open(&w, e, err, sizeof(err))) {
		fprintf(stderr, "combosim-cuda: %s\n", err);
		goto out;
	}
	if ((rc = check_policies(&w)) || o->check_only) {
		if (!rc)
			printf("%s: every policy initialises on the CUDA backend (%d policies; the device's SM count is checked "
			       "against the GPU description's %d at the run)\n", o->experiment, e->n_policies, e->gpu->sm_count);
		goto out;
	}
	if (mkdir_p(o->out_dir)) {
		fprintf(stderr, "combosim-cuda: cannot create %s: %s\n", o->out_dir, strerror(errno));
		rc = 1;
		goto out;
	}
	struct runner r = { .e = e, .calib_log = cJSON_CreateArray() };
	w.base = lookup;
	w.base_ctx = &r;
	rc = open_device(o, &r, &w);
	if (!rc)
		rc = replay(o, &r, &w);
	else
		cJSON_Delete(r.calib_log);
	free(r.prep);
	ck_calib_free(&r.cal);
	ck_close(r.d);
out:
	hl_workload_close(&w);
	experiment_free(e);
	return rc;
}
