/* gen — game trace and BE queue generators (see gen.h). */
#include "traces/gen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "traces/gametrace.h"
#include "traces/queue.h"

/* One random stream per (seed, profile): two games generated with the same seed differ. */
static gsl_rng *rng_new(uint64_t seed, const char *name)
{
	uint64_t h = 1469598103934665603ull;         /* FNV-1a of the profile name */
	for (const char *s = name; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	seed = seed * 1000003ull + (h & 0xffffffffull);
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	if (!r) {
		fprintf(stderr, "combosim: out of memory\n");
		exit(1);
	}
	gsl_rng_set(r, (unsigned long)(seed ^ (seed >> 32)));
	return r;
}

/* Folds y back into [lo, hi] (reflection at the bounds keeps the wander's persistence). */
static double reflect(double y, double lo, double hi)
{
	for (int i = 0; i < 8 && (y < lo || y > hi); i++)
		y = y > hi ? 2 * hi - y : 2 * lo - y;
	return fmin(hi, fmax(lo, y));
}

void gen_game(const struct game_profile *p, enum quality q, enum load_mode mode, long frames,
	      uint64_t seed, double fps, const char *cmdline, FILE *out)
{
	const struct profile_quality *pq = &p->q[q];
	gsl_rng *r = rng_new(seed, p->name);
	double peak = pq->peak_ms;
	double phi = exp(-(1000.0 / fps) / p->dynamic.tau_ms);
	double innov = p->dynamic.sigma * sqrt(1 - phi * phi);
	/* the wander starts from its stationary distribution */
	double y = reflect(p->dynamic.mean + gsl_ran_gaussian(r, p->dynamic.sigma), p->dynamic.low, p->dynamic.high);
	bool features = pq->spp >= 0 && pq->triangles >= 0;

	fprintf(out, "%s frame-level\n", GAME_TRACE_MAGIC);
	fprintf(out, "# generated: %s\n", cmdline);
	fprintf(out, "# profile %s, quality %s: SM ratio %.4f at %g fps (COMBO Table 4), peak render time %.4f ms at full GPU; ",
		p->name, quality_names[q], pq->sm_ratio, p->fps, peak);
	if (mode == MODE_STABLE)
		fprintf(out, "stable mode: %.4f of the peak +- %g %%\n", p->stable.level, 100 * p->stable.amplitude);
	else
		fprintf(out, "dynamic mode: %.4f-%.4f of the peak around %.4f, tau %g ms\n", p->dynamic.low,
			p->dynamic.high, p->dynamic.mean, p->dynamic.tau_ms);
	fprintf(out, "frame,render_ms,rt_share,width,height%s\n", features ? ",spp,triangles" : "");
	for (long f = 0; f < frames; f++) {
		double t;
		if (mode == MODE_STABLE) {
			double a = p->stable.amplitude;
			double x = fmin(a, fmax(-a, gsl_ran_gaussian(r, p->stable.sigma)));
			t = peak * p->stable.level * (1 + x);
		} else {
			double d = phi * (y - p->dynamic.mean) + gsl_ran_gaussian(r, innov);
			y = reflect(p->dynamic.mean + d, p->dynamic.low, p->dynamic.high);
			t = peak * y;
		}
		/* to the microsecond, rounded down so that a frame at the peak still fits */
		double ms = floor(t * 1000 + 1e-9) / 1000;
		if (ms < 0.001)
			ms = 0.001;
		fprintf(out, "%ld,%.3f,%.4f,%d,%d", f, ms, p->rt_share, pq->width, pq->height);
		if (features) {
			/* Eq. 4: RT time ~ W*H*spp, CD time ~ W*H*triangles at fixed W*H and RT share,
			 * so both follow the frame's render time, with the profile's noise */
			double scale = ms / peak;
			double spp = pq->spp * scale * (1 + gsl_ran_gaussian(r, p->feature_noise));
			double tris = pq->triangles * scale * (1 + gsl_ran_gaussian(r, p->feature_noise));
			fprintf(out, ",%.4f,%.0f", fmax(0, spp), fmax(0, tris));
		}
		fputc('\n', out);
	}
	gsl_rng_free(r);
}

/* 1 + N(0, cv) clipped to [0.5, 2], as the engine varies a frame (traces/gamerng.c). */
static double frame_scale(gsl_rng *r, double cv)
{
	return fmin(2.0, fmax(0.5, 1 + gsl_ran_gaussian(r, cv)));
}

void gen_scenes(const struct game_profile *p, long frames, uint64_t seed, double fps,
		const char *cmdline, FILE *out)
{
	const struct profile_scenes *z = &p->scenes;
	gsl_rng *r = rng_new(seed, p->name);
	fprintf(out, "%s frame-level\n", GAME_TRACE_MAGIC);
	fprintf(out, "# generated: %s\n", cmdline);
	fprintf(out, "# profile %s, scenes mode: base frame %g ms GPU, %g ms CPU; per-frame cv %g (GPU), %g (CPU); "
		"scenes of mean %g s (%g frames at %g fps), level exp(N(0, %g))\n",
		p->name, z->render_ms, z->cpu_ms, z->cv, z->cpu_cv, z->scene_s, z->scene_s * fps, fps, z->level_sigma);
	fprintf(out, "frame,render_ms,cpu_ms\n");
	long f = 0;
	for (int scene = 0; f < frames; scene++) {
		long len = lround(gsl_ran_exponential(r, z->scene_s * fps));
		if (len < 1)
			len = 1;
		double level = exp(gsl_ran_gaussian(r, z->level_sigma));
		fprintf(out, "# scene %d: frames %ld-%ld, level %.4f\n", scene, f, (f + len < frames ? f + len : frames) - 1, level);
		for (long i = 0; i < len && f < frames; i++, f++) {
			double gpu = z->render_ms * level * frame_scale(r, z->cv);
			double cpu = z->cpu_ms * level * frame_scale(r, z->cpu_cv);
			fprintf(out, "%ld,%.3f,%.3f\n", f, fmax(0.001, gpu), cpu);
		}
	}
	gsl_rng_free(r);
}

void gen_be(const struct be_profile *p, long iterations, double cv, uint64_t seed, const char *cmdline, FILE *out)
{
	gsl_rng *r = rng_new(seed, p->name);
	struct queue_writer w;
	char desc[512], members[4096] = "";
	const cJSON *src = cJSON_GetObjectItemCaseSensitive(p->tree, "sources");
	const cJSON *title = cJSON_GetObjectItemCaseSensitive(p->tree, "title");
	snprintf(desc, sizeof(desc), "%s (%s), %ld pass%s over its kernels; generated from the BE profile %s",
		 cJSON_IsString(title) ? title->valuestring : p->name, p->kind, iterations,
		 iterations == 1 ? "" : "es", p->name);
	if (src) {
		char *s = cJSON_PrintUnformatted(src);
		if (s && strlen(s) + 16 < sizeof(members))
			snprintf(members, sizeof(members), "\"sources\": %s", s);
		free(s);
	}
	queue_begin(&w, out, p->name, desc, cmdline, members);
	for (long it = 0; it < iterations; it++)
		for (int i = 0; i < p->n_kernels; i++)
			for (int l = 0; l < p->kernels[i].launches; l++) {
				struct kernel_spec k = p->kernels[i].k;
				if (cv > 0) {
					double x = fmin(3 * cv, fmax(-3 * cv, gsl_ran_gaussian(r, cv)));
					k.solo_ns = llround((double)k.solo_ns * (1 + x));
					if (k.solo_ns < 1)
						k.solo_ns = 1;
				}
				queue_add(&w, &k, NULL);
			}
	queue_end(&w, NULL);
	gsl_rng_free(r);
}
