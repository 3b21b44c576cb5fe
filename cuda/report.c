/* report — one policy run's outputs (cuda/report.h): kernels.csv, tasks.csv and frames.csv rows
 * in the simulator's order, its kernels on the timeline, and its summary.json object: generic
 * numbers computed from the launch records, then what the policy's `finish` adds (as the
 * simulator's runner does). */
#include <math.h>
#include <stdlib.h>

#include "cuda/report.h"

/* Host and GPU instants as ns since the run start, on the GPU clock: the offset is the one
 * measured before the run, drifting linearly to the one measured after (the two clocks drift by
 * some ppm). */
struct clockmap {
	long long h0, off0, at0, g0;
	double drift;
};

static struct clockmap clockmap_of(const struct hl_run *r)
{
	struct clockmap c = { .h0 = r->h0, .off0 = r->off0, .at0 = r->at0 };
	c.drift = r->at1 > r->at0 ? (double)(r->off1 - r->off0) / (double)(r->at1 - r->at0) : 0;
	c.g0 = r->h0 + r->off0 + llround(c.drift * (double)(r->h0 - r->at0));
	return c;
}

static long long map_host(const struct clockmap *c, long long rel)
{
	long long h = rel + c->h0;
	return h + c->off0 + llround(c->drift * (double)(h - c->at0)) - c->g0;
}

static long long map_gpu(const struct clockmap *c, unsigned long long g) { return (long long)g - c->g0; }

/* One written kernel: its row's times. */
struct row {
	long id;
	long long launch, start, end;
};

static int row_cmp(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	if (a->end != b->end)
		return a->end < b->end ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

/* The kernels that ended within the duration, in the order the simulator writes them (by end);
 * launch times on the GPU clock cannot follow the start (within the sync error: clamped). */
static struct row *rows_of(const struct hl_run *r, const struct clockmap *c, long *n, struct hl_report *rep)
{
	struct row *rows = calloc((size_t)r->n_kernels + 1, sizeof(*rows));
	if (!rows) {
		fputs("combosim-cuda: out of memory\n", stderr);
		exit(1);
	}
	*n = 0;
	for (long i = 0; i < r->n_kernels; i++) {
		const struct hl_kernel *k = &r->kernels[i];
		if (k->held || (k->relaunch && !k->complete)) {
			rep->late++;     /* re-launching stopped at the duration: not finished in it */
			continue;
		}
		struct row w = { i, map_host(c, k->launched), map_gpu(c, k->t.first_ns), map_gpu(c, k->t.last_ns) };
		if (k->t.first_ns > k->t.last_ns)
			w.start = w.end;
		if (w.launch > w.start) {
			rep->launch_clamped++;
			rep->launch_max_clamp = w.launch - w.start > rep->launch_max_clamp ? w.launch - w.start
											    : rep->launch_max_clamp;
			w.launch = w.start;
		}
		if (w.end > r->e->duration_ns) {
			rep->late++;
			continue;
		}
		rows[(*n)++] = w;
	}
	qsort(rows, (size_t)*n, sizeof(*rows), row_cmp);
	return rows;
}

static const char *owner_of(const struct hl_run *r, const struct hl_kernel *k)
{
	return k->game >= 0 ? r->e->games[k->game].name : r->e->apps[k->app].name;
}

/* The SM-bound numbers of one written kernel: its fallback, and for a BE kernel the share of its
 * workers that stayed inside its set and, with a quota, inside per quota x set SMs (at most 1:
 * the quota held; below: SMs of the set without room for the whole quota). */
static void smbound_stats(const struct hl_kernel *k, struct hl_report *rep)
{
	if (k->variant != VAR_SMBOUND)
		return;
	if (k->app < 0) {
		rep->fallback_game += k->t.fallback;
		return;
	}
	rep->fallback_be[k->spec->cls] += k->t.fallback;
	rep->be_bound++;
	rep->be_inside += 1.0 - (double)(k->t.exited + k->t.fallback) / k->blocks;
	if (k->quota > 0 && k->set_sms > 0) {
		double fill = ((double)k->blocks - k->t.exited - k->t.fallback) / ((double)k->quota * k->set_sms);
		rep->quota_fill += fill;
		rep->quota_fill_max = fill > rep->quota_fill_max ? fill : rep->quota_fill_max;
		rep->be_quota++;
	}
}

static void write_kernels(const struct hl_run *r, const struct row *rows, long n, const struct hl_out *o,
			  struct hl_report *rep)
{
	const char *label = r->ps->name;
	for (long i = 0; i < n; i++) {
		const struct hl_kernel *k = &r->kernels[rows[i].id];
		const char *owner = owner_of(r, k);
		fprintf(o->kernels, "%s,%s,%s,%s,%s,%ld,%d,%lld,%lld,%lld,%lld,%d\n", label, k->spec->name,
			kclass_names[k->spec->cls], variant_names[k->variant], owner, k->frame, k->stream, rows[i].launch,
			rows[i].start, rows[i].end, (long long)k->spec->solo_ns, k->blocks);
		int done = k->variant == VAR_ORIGINAL ? k->tasks
			: (int)(k->t.tasks_taken < (uint32_t)k->tasks ? k->t.tasks_taken : (uint32_t)k->tasks);
		fprintf(o->tasks, "%s,%s,%s,%ld,%lld,%d,%d,%u,%u\n", label, k->spec->name, owner, k->frame, rows[i].launch,
			k->tasks, done, k->t.exited, k->t.fallback);
		smbound_stats(k, rep);
		if (done < k->tasks) {
			rep->incomplete++;
			rep->work_lost_ns += (double)k->spec->solo_ns * (1.0 - (double)done / k->tasks);
		}
		rep->written++;
	}
}

/* As the simulator: a process per policy run, a track per stream (its priority), a slice per
 * kernel written, in kernels.csv's order and times. */
static void write_timeline(const struct hl_run *r, int index, const struct row *rows, long n, const struct hl_out *o,
			   struct hl_report *rep)
{
	struct ck_tl_slice *s = calloc((size_t)n + 1, sizeof(*s));
	int *prio = calloc((size_t)r->n_streams + 1, sizeof(int));
	if (!s || !prio) {
		fputs("combosim-cuda: out of memory\n", stderr);
		exit(1);
	}
	for (long i = 0; i < n; i++) {
		const struct hl_kernel *k = &r->kernels[rows[i].id];
		s[i] = (struct ck_tl_slice){ .name = k->spec->name, .variant = variant_names[k->variant], .stream = k->stream,
					     .blocks = k->blocks, .start_ns = rows[i].start, .end_ns = rows[i].end };
	}
	for (int i = 0; i < r->n_streams; i++)
		prio[i] = r->streams[i].priority;
	struct ck_tl_report tr;
	if (ck_timeline_run(o->tl, index, r->ps->name, s, n, prio, r->n_streams, &tr)) {
		fprintf(stderr, "combosim-cuda: policy '%s': timeline.json: a stream out of range or out of memory\n",
			r->ps->name);
		exit(1);
	}
	rep->tl = tr;
	rep->tl_written = true;
	free(s);
	free(prio);
}

struct frow {
	long long key;
	int game;
	long number;
	long long start, finish;
};

static int frow_cmp(const void *pa, const void *pb)
{
	const struct frow *a = pa, *b = pb;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->game != b->game)
		return a->game - b->game;
	return a->number < b->number ? -1 : a->number > b->number;
}

/* Frames in the simulator's order: dropped ones at their release, the others at their finish
 * (last kernel end), those finishing after the duration left out. */
static void write_frames(const struct hl_run *r, const struct clockmap *c, const struct hl_out *o, struct hl_report *rep)
{
	long total = 0, n = 0;
	for (int g = 0; g < r->e->n_games; g++)
		total += r->w->n_frames[g];
	struct frow *fr = calloc((size_t)total + 1, sizeof(*fr));
	if (!fr) {
		fputs("combosim-cuda: out of memory\n", stderr);
		exit(1);
	}
	for (int g = 0; g < r->e->n_games; g++)
		for (long i = 0; i < r->w->n_frames[g]; i++) {
			const struct hl_frame *f = &r->frames[g][i];
			if (!f->released)
				continue;
			rep->frames_released++;
			if (f->dropped) {
				rep->frames_dropped++;
				fr[n++] = (struct frow){ f->release, g, i, -1, -1 };
				continue;
			}
			if (!f->launched) {
				rep->frames_not_launched++;
				continue;
			}
			long long st = -1, fin = -1;
			int nk = r->w->frames[g][i].n;
			for (long j = f->first; j < f->first + nk; j++) {
				const struct hl_kernel *k = &r->kernels[j];
				long long s0 = map_gpu(c, k->t.first_ns <= k->t.last_ns ? k->t.first_ns : k->t.last_ns);
				long long e0 = map_gpu(c, k->t.last_ns);
				st = st < 0 || s0 < st ? s0 : st;
				fin = e0 > fin ? e0 : fin;
			}
			if (fin > r->e->duration_ns)
				continue;
			rep->frames_done++;
			fr[n++] = (struct frow){ fin, g, i, st, fin };
		}
	qsort(fr, (size_t)n, sizeof(*fr), frow_cmp);
	for (long i = 0; i < n; i++) {
		const struct hl_frame *f = &r->frames[fr[i].game][fr[i].number];
		bool dropped = f->dropped;
		long long lat = dropped ? -1 : fr[i].finish - f->release;
		int violated = dropped || fr[i].finish > f->deadline;
		fprintf(o->frames, "%s,%s,%ld,%lld,%lld,%lld,%lld,%lld,%d,%d,%s\n", r->ps->name, r->e->games[fr[i].game].name,
			fr[i].number, f->release, fr[i].start, fr[i].finish, lat, f->deadline, violated, dropped, f->note);
	}
	free(fr);
}

/* How long after a kernel's end on the GPU the loop delivered it: the host's reaction time
 * (event poll, read back), which the simulator does not have. */
static void delivery_stats(const struct hl_run *r, cJSON *out)
{
	double sum = 0, max = 0;
	long n = 0;
	for (long i = 0; i < r->n_kernels; i++) {
		const struct hl_kernel *k = &r->kernels[i];
		if (k->delivered < 0)
			continue;
		double d = (double)(k->delivered - ((long long)k->t.last_ns - (r->h0 + r->off0)));
		sum += d;
		max = d > max ? d : max;
		n++;
	}
	cJSON *j = cJSON_AddObjectToObject(out, "delivery_delay_us");
	cJSON_AddNumberToObject(j, "kernels", (double)n);
	cJSON_AddNumberToObject(j, "mean", n ? sum / n / 1e3 : 0);
	cJSON_AddNumberToObject(j, "max", max / 1e3);
}

/* How the host kept its clock-driven promises: releases behind their times (its poll), the
 * closed loops' pacing, epochs, and the apps' depth used. */
static void loop_stats(const struct hl_run *r, cJSON *out)
{
	cJSON *lag = cJSON_AddObjectToObject(out, "release_lag_us");
	cJSON_AddNumberToObject(lag, "frames", (double)r->lag_n);
	cJSON_AddNumberToObject(lag, "mean", r->lag_n ? r->lag_sum / (double)r->lag_n / 1e3 : 0);
	cJSON_AddNumberToObject(lag, "max", (double)r->lag_max / 1e3);
	bool closed = false;
	for (int g = 0; g < r->e->n_games; g++)
		closed |= r->e->games[g].closed;
	if (closed) {
		cJSON *c = cJSON_AddObjectToObject(out, "closed_loop");
		/* releases whose CPU phase and sleep had passed when the host learned of the
		 * presentation: made then, later than the simulator's */
		cJSON_AddNumberToObject(c, "releases_late", (double)r->closed_late);
		cJSON_AddNumberToObject(c, "late_max_us", (double)r->closed_late_max / 1e3);
		cJSON_AddNumberToObject(c, "sleeps_applied", (double)r->sleeps);
		cJSON_AddNumberToObject(c, "sleep_ms_total", (double)r->sleep_total / 1e6);
	}
	cJSON_AddNumberToObject(out, "epochs_fired", (double)r->epochs);
	if (r->resizes + r->yields > 0) {       /* only in runs that reshaped: others keep their keys */
		long left = 0;
		for (long i = 0; i < r->n_kernels; i++)
			left += r->kernels[i].done ? r->kernels[i].t.left : 0;
		cJSON *x = cJSON_AddObjectToObject(out, "reshape");
		cJSON_AddNumberToObject(x, "resizes", (double)r->resizes);
		cJSON_AddNumberToObject(x, "yields", (double)r->yields);
		cJSON_AddNumberToObject(x, "cap_writes", (double)r->cap_writes);
		cJSON_AddNumberToObject(x, "topups", (double)r->topups);
		cJSON_AddNumberToObject(x, "topup_workers", (double)r->topup_workers);
		cJSON_AddNumberToObject(x, "topup_blocks", (double)r->topup_blocks);
		cJSON_AddNumberToObject(x, "workers_left", (double)left);
	}
	if (r->rl_kernels > 0) {                /* only in runs that re-launched (hostrelaunch.c) */
		cJSON *x = cJSON_AddObjectToObject(out, "relaunch");
		cJSON_AddNumberToObject(x, "kernels", (double)r->rl_kernels);
		cJSON_AddNumberToObject(x, "relaunches", (double)r->rl_relaunches);
		cJSON_AddNumberToObject(x, "grids_per_kernel_mean",
					(double)(r->rl_kernels + r->rl_relaunches) / (double)r->rl_kernels);
		/* the host's gap from a grid's end on the GPU to its next launch (policy's + reaction) */
		cJSON_AddNumberToObject(x, "gap_mean_us", r->rl_relaunches ? r->rl_gap_sum / (double)r->rl_relaunches / 1e3 : 0);
		cJSON_AddNumberToObject(x, "gap_max_us", (double)r->rl_gap_max / 1e3);
		cJSON_AddNumberToObject(x, "launches_held", (double)r->rl_held);
	}
	cJSON *d = cJSON_AddArrayToObject(out, "app_max_in_flight");
	for (int a = 0; a < r->e->n_apps; a++)
		cJSON_AddItemToArray(d, cJSON_CreateNumber(r->apps[a].max_in_flight));
}

static void launch_stats(const struct hl_run *r, cJSON *out)
{
	long be = 0, var[VAR_COUNT] = { 0 }, ckpt = 0;
	for (long i = 0; i < r->n_kernels; i++) {
		be += r->kernels[i].app >= 0;
		var[r->kernels[i].variant]++;
	}
	for (int a = 0; a < r->e->n_apps; a++)
		ckpt += r->apps[a].checkpoints;
	cJSON_AddNumberToObject(out, "kernels_launched", (double)r->n_kernels);
	cJSON_AddNumberToObject(out, "be_kernels_launched", (double)be);
	cJSON *v = cJSON_AddObjectToObject(out, "variants_launched");
	for (int i = 0; i < VAR_COUNT; i++)
		cJSON_AddNumberToObject(v, variant_names[i], (double)var[i]);
	cJSON_AddNumberToObject(out, "streams", r->n_streams);
	cJSON_AddNumberToObject(out, "timers_fired", (double)r->timers_fired);
	cJSON_AddNumberToObject(out, "app_checkpoints_recorded", (double)ckpt);
}

static void row_stats(const struct hl_report *rep, cJSON *out)
{
	cJSON_AddNumberToObject(out, "kernels_written", (double)rep->written);
	cJSON_AddNumberToObject(out, "kernels_after_duration", (double)rep->late);
	cJSON_AddNumberToObject(out, "frames_released", (double)rep->frames_released);
	cJSON_AddNumberToObject(out, "frames_finished_in_duration", (double)rep->frames_done);
	cJSON_AddNumberToObject(out, "frames_dropped", (double)rep->frames_dropped);
	cJSON_AddNumberToObject(out, "frames_never_launched", (double)rep->frames_not_launched);
	cJSON_AddNumberToObject(out, "kernels_incomplete", (double)rep->incomplete);
	cJSON_AddNumberToObject(out, "solo_ms_of_work_not_done", rep->work_lost_ns / 1e6);
	if (rep->incomplete)
		cJSON_AddStringToObject(out, "incomplete_note", "SM-bound kernels whose blocks all landed outside their SM set "
					"(or ran out before taking every task) finished without doing all their tasks: tasks.csv");
	/* the SM-bound fallback (cuda/kernels.cu): every worker landed outside the set and the
	 * grid's last ran all tasks on one SM outside it; over the kernels written */
	long fb = rep->fallback_game;
	cJSON *fbe = cJSON_CreateObject();
	for (int c = 0; c < KC_COUNT; c++) {
		cJSON_AddNumberToObject(fbe, kclass_names[c], (double)rep->fallback_be[c]);
		fb += rep->fallback_be[c];
	}
	cJSON_AddNumberToObject(out, "smbound_fallbacks", (double)fb);
	cJSON_AddNumberToObject(out, "smbound_fallbacks_render", (double)rep->fallback_game);
	cJSON_AddItemToObject(out, "smbound_fallbacks_be", fbe);
	cJSON_AddNumberToObject(out, "be_smbound_kernels", (double)rep->be_bound);
	if (rep->be_bound)
		cJSON_AddNumberToObject(out, "be_workers_inside_mean_fraction", rep->be_inside / (double)rep->be_bound);
	if (rep->be_quota) {
		cJSON_AddNumberToObject(out, "be_quota_kernels", (double)rep->be_quota);
		cJSON_AddNumberToObject(out, "be_quota_fill_mean", rep->quota_fill / (double)rep->be_quota);
		cJSON_AddNumberToObject(out, "be_quota_fill_max", rep->quota_fill_max);
	}
}

static void clock_stats(const struct hl_run *r, const struct clockmap *c, const struct hl_report *rep, cJSON *out)
{
	cJSON_AddNumberToObject(out, "clock_sync_roundtrip_ns", (double)r->rt0);
	cJSON_AddNumberToObject(out, "clock_sync_roundtrip_end_ns", (double)r->rt1);
	cJSON_AddNumberToObject(out, "clock_drift_ppm", c->drift * 1e6);
	cJSON_AddNumberToObject(out, "launch_ns_clamped_to_start", (double)rep->launch_clamped);
	cJSON_AddNumberToObject(out, "launch_ns_max_clamp_ns", (double)rep->launch_max_clamp);
}

cJSON *hl_report_run(struct hl_run *r, int index, const struct hl_out *o)
{
	struct clockmap c = clockmap_of(r);
	struct hl_report rep = { 0 };
	long n;
	struct row *rows = rows_of(r, &c, &n, &rep);
	write_kernels(r, rows, n, o, &rep);
	if (o->tl)
		write_timeline(r, index, rows, n, o, &rep);
	free(rows);
	write_frames(r, &c, o, &rep);

	cJSON *out = cJSON_CreateObject();
	cJSON_AddStringToObject(out, "policy", r->ps->name);
	cJSON_AddStringToObject(out, "mechanism", r->ps->ops->name);
	if (r->failed)
		cJSON_AddStringToObject(out, "error", r->err);
	launch_stats(r, out);
	row_stats(&rep, out);
	clock_stats(r, &c, &rep, out);
	delivery_stats(r, out);
	loop_stats(r, out);
	if (rep.tl_written) {
		cJSON *tj = cJSON_AddObjectToObject(out, "timeline");
		cJSON_AddNumberToObject(tj, "pid", index);
		cJSON_AddNumberToObject(tj, "kernel_slices", (double)rep.tl.slices);
		cJSON_AddNumberToObject(tj, "slices_clamped", (double)rep.tl.clamped);
		cJSON_AddNumberToObject(tj, "max_clamp_ns", (double)rep.tl.max_clamp_ns);
		if (rep.tl.clamped)
			fprintf(stderr, "combosim-cuda: policy '%s': timeline.json: %ld kernel slices overlapped the one before "
				"on their stream (measured times), moved by up to %lld ns; kernels.csv keeps the measured times\n",
				r->ps->name, rep.tl.clamped, rep.tl.max_clamp_ns);
	}
	/* the policy's own numbers, as the simulator's runner adds them (sim_report) */
	if (r->ps->ops->finish)
		r->ps->ops->finish(r->pol, &r->bk, out);
	fprintf(stderr, "policy %s: %ld kernels written (%ld after the duration), %ld frames, %ld dropped%s%s\n",
		r->ps->name, rep.written, rep.late, rep.frames_released, rep.frames_dropped, r->failed ? "; stopped: " : "",
		r->failed ? r->err : "");
	return out;
}
