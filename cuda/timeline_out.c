/* timeline_out — the runner's timeline.json (see ck.h, ck_timeline_run): the kernels of one
 * policy run, as measured on the GPU, turned into the simulator's Chrome trace events through
 * its writer (traces/timeline.h).  No CUDA here: bin/combosim-cuda-tests checks it on the CPU.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cuda/ck.h"
#include "traces/timeline.h"

struct span {
	int stream;
	long ix;                           /* index in the caller's array */
	long long start, end;
};

/* by stream, then start, end, input order: a total order, so the result is deterministic */
static int cmp_span(const void *pa, const void *pb)
{
	const struct span *a = pa, *b = pb;
	if (a->stream != b->stream)
		return a->stream < b->stream ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->end != b->end)
		return a->end < b->end ? -1 : 1;
	return (a->ix > b->ix) - (a->ix < b->ix);
}

int ck_timeline_run(struct timeline *t, int pid, const char *policy, const struct ck_tl_slice *s, long n,
		    const int *prio, int n_streams, struct ck_tl_report *rep)
{
	*rep = (struct ck_tl_report){ 0 };
	for (long i = 0; i < n; i++)
		if (s[i].stream < 0 || s[i].stream >= n_streams)
			return -1;
	struct span *sp = malloc(((size_t)n + 1) * sizeof(*sp));
	long long(*at)[2] = malloc(((size_t)n + 1) * sizeof(*at));
	unsigned char *named = calloc((size_t)n_streams + 1, 1);
	if (!sp || !at || !named) {
		free(sp);
		free(at);
		free(named);
		return -1;
	}
	for (long i = 0; i < n; i++)
		sp[i] = (struct span){ s[i].stream, i, s[i].start_ns, s[i].end_ns };
	qsort(sp, (size_t)n, sizeof(*sp), cmp_span);
	long long prev_end = 0;
	for (long i = 0; i < n; i++) {
		if (i == 0 || sp[i].stream != sp[i - 1].stream)
			prev_end = 0;              /* nothing before the run start */
		long long st = sp[i].start, en = sp[i].end, by = 0;
		if (st < prev_end) {
			by = prev_end - st;
			st = prev_end;
		}
		if (en < st) {
			by = st - en > by ? st - en : by;
			en = st;
		}
		if (by > 0) {
			rep->clamped++;
			if (by > rep->max_clamp_ns)
				rep->max_clamp_ns = by;
		}
		at[sp[i].ix][0] = st;
		at[sp[i].ix][1] = en;
		prev_end = en;
	}

	char pname[96];
	snprintf(pname, sizeof(pname), "policy %s", policy);
	timeline_process(t, pid, pname);
	for (long i = 0; i < n; i++) {
		int tid = CK_TL_STREAM_TID + s[i].stream;
		if (!named[s[i].stream]) {
			char name[48];
			snprintf(name, sizeof(name), "stream %d (priority %d)", s[i].stream, prio[s[i].stream]);
			timeline_thread(t, pid, tid, name);
			named[s[i].stream] = 1;
		}
		char args[64];
		snprintf(args, sizeof(args), "{\"variant\":\"%s\",\"blocks\":%d}", s[i].variant, s[i].blocks);
		timeline_slice(t, pid, tid, s[i].name, "kernel", at[i][0], at[i][1], args);
		rep->slices++;
	}
	free(sp);
	free(at);
	free(named);
	return 0;
}
