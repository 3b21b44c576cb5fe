/* placement — reading the simulator's dispatch rules off recorded block placements (%smid,
 * %globaltimer start/end per block): the SM tie order, the leftover rule between two
 * back-to-back kernels, and most-room placement.  Pure CPU code, tested without a GPU. */
#include <stdlib.h>
#include <string.h>

#include "cuda/ck.h"

static int by_block(const void *a, const void *b)
{
	const struct ck_placed *x = a, *y = b;
	return (x->block > y->block) - (x->block < y->block);
}

int ck_tie_order(const struct ck_placed *p, int n, int kernel, int n_sms, int *order, const char **name)
{
	struct ck_placed *k = malloc((size_t)(n ? n : 1) * sizeof(*k));
	int m = 0;
	*name = "other";
	if (!k)
		return -1;
	for (int i = 0; i < n; i++)
		if (p[i].kernel == kernel)
			k[m++] = p[i];
	qsort(k, (size_t)m, sizeof(*k), by_block);
	int len = m < n_sms ? m : n_sms;
	char *seen = calloc((size_t)(n_sms > 0 ? n_sms : 1) + CK_MAX_SMS, 1);
	int distinct = 0;
	for (int i = 0; i < len; i++) {
		order[i] = k[i].smid;
		if (k[i].smid >= 0 && k[i].smid < n_sms + CK_MAX_SMS && seen && !seen[k[i].smid]++)
			distinct++;
	}
	free(seen);
	free(k);
	if (len == n_sms && distinct == n_sms) {
		bool seq = true, eo = true;
		int pos = 0;
		for (int i = 0; i < n_sms; i++)
			seq = seq && order[i] == i;
		for (int s = 0; s < n_sms; s += 2)
			eo = eo && order[pos++] == s;
		for (int s = 1; s < n_sms; s += 2)
			eo = eo && order[pos++] == s;
		*name = seq ? "sequential" : eo ? "evens-then-odds" : "other";
	}
	return distinct;
}

int ck_leftover_violations(const struct ck_placed *p, int n, int earlier, int later, uint64_t tol_ns)
{
	uint64_t last_start = 0;
	bool any = false;
	for (int i = 0; i < n; i++)
		if (p[i].kernel == earlier && (!any || p[i].start_ns > last_start)) {
			last_start = p[i].start_ns;
			any = true;
		}
	int v = 0;
	for (int i = 0; i < n && any; i++)
		if (p[i].kernel == later && p[i].start_ns + tol_ns < last_start)
			v++;
	return v;
}

int ck_most_room_violations(const struct ck_placed *p, int n, int earlier, int later, int n_sms, int cap)
{
	int *load = malloc((size_t)n_sms * sizeof(int));
	struct ck_placed *l = malloc((size_t)(n ? n : 1) * sizeof(*l));
	int m = 0, v = 0;
	if (!load || !l) {
		free(load);
		free(l);
		return -1;
	}
	for (int i = 0; i < n; i++)
		if (p[i].kernel == later)
			l[m++] = p[i];
	qsort(l, (size_t)m, sizeof(*l), by_block);
	for (int b = 0; b < m; b++) {
		uint64_t t = l[b].start_ns;
		memset(load, 0, (size_t)n_sms * sizeof(int));
		for (int i = 0; i < n; i++)
			if (p[i].kernel == earlier && p[i].start_ns <= t && p[i].end_ns > t && p[i].smid < n_sms)
				load[p[i].smid]++;
		for (int c = 0; c < b; c++)      /* blocks of `later` placed before, still resident */
			if (l[c].end_ns > t && l[c].smid < n_sms)
				load[l[c].smid]++;
		int least = cap;
		for (int s = 0; s < n_sms; s++)
			if (load[s] < least)
				least = load[s];
		if (l[b].smid >= 0 && l[b].smid < n_sms && load[l[b].smid] > least)
			v++;
	}
	free(load);
	free(l);
	return v;
}

void ck_blocks_per_sm(const struct ck_placed *p, int n, int kernel, int n_sms, int *counts)
{
	memset(counts, 0, (size_t)n_sms * sizeof(int));
	for (int i = 0; i < n; i++)
		if (p[i].kernel == kernel && p[i].smid >= 0 && p[i].smid < n_sms)
			counts[p[i].smid]++;
}
