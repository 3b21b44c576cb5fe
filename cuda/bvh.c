/* bvh — the scene of the RT emulation: a complete binary BVH over random spheres in the unit
 * cube, built on the host (median split along the longest axis, recursively), stored as an
 * implicit tree (see cuda/ck.h).  Deterministic for a given seed. */
#include <stdlib.h>
#include <string.h>

#include "cuda/ck.h"

#define SPHERE_R 0.004f

struct pt {
	float c[3];
};

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

#define CMP_AXIS(a)                                                                        \
	static int cmp##a(const void *x, const void *y)                                    \
	{                                                                                  \
		float u = ((const struct pt *)x)->c[a], v = ((const struct pt *)y)->c[a];   \
		return (u > v) - (u < v);                                                  \
	}
CMP_AXIS(0)
CMP_AXIS(1)
CMP_AXIS(2)

static void sort_axis(struct pt *p, int n, int axis)
{
	static int (*const cmp[3])(const void *, const void *) = { cmp0, cmp1, cmp2 };
	qsort(p, (size_t)n, sizeof(*p), cmp[axis]);
}

/* Orders p[0..n) so that every aligned power-of-two run is a subtree's leaves. */
static void order(struct pt *p, int n)
{
	if (n <= 1)
		return;
	float lo[3], hi[3];
	for (int a = 0; a < 3; a++)
		lo[a] = hi[a] = p[0].c[a];
	for (int i = 1; i < n; i++)
		for (int a = 0; a < 3; a++) {
			if (p[i].c[a] < lo[a])
				lo[a] = p[i].c[a];
			if (p[i].c[a] > hi[a])
				hi[a] = p[i].c[a];
		}
	int axis = 0;
	for (int a = 1; a < 3; a++)
		if (hi[a] - lo[a] > hi[axis] - lo[axis])
			axis = a;
	sort_axis(p, n, axis);
	order(p, n / 2);
	order(p + n / 2, n / 2);
}

int ck_bvh_build(struct ck_bvh *b, int levels, uint64_t seed)
{
	int leaves = 1 << levels;
	memset(b, 0, sizeof(*b));
	b->levels = levels;
	b->nodes = 2 * leaves - 1;
	b->node = calloc((size_t)b->nodes * 8, sizeof(float));
	struct pt *p = malloc((size_t)leaves * sizeof(*p));
	if (!b->node || !p) {
		free(b->node);
		free(p);
		b->node = NULL;
		return -1;
	}
	uint64_t s = seed ? seed : 1;
	for (int i = 0; i < leaves; i++)
		for (int a = 0; a < 3; a++)
			p[i].c[a] = (float)(xorshift(&s) >> 11) * (1.0f / 9007199254740992.0f);
	order(p, leaves);
	int first_leaf = leaves - 1;
	for (int i = 0; i < leaves; i++) {
		float *n = b->node + (size_t)(first_leaf + i) * 8;
		for (int a = 0; a < 3; a++) {
			n[a] = p[i].c[a] - SPHERE_R;
			n[4 + a] = p[i].c[a] + SPHERE_R;
		}
		n[3] = SPHERE_R;
	}
	for (int i = first_leaf - 1; i >= 0; i--) {
		float *n = b->node + (size_t)i * 8;
		const float *l = b->node + (size_t)(2 * i + 1) * 8, *r = b->node + (size_t)(2 * i + 2) * 8;
		for (int a = 0; a < 3; a++) {
			n[a] = l[a] < r[a] ? l[a] : r[a];
			n[4 + a] = l[4 + a] > r[4 + a] ? l[4 + a] : r[4 + a];
		}
	}
	free(p);
	return 0;
}

void ck_bvh_free(struct ck_bvh *b)
{
	free(b->node);
	b->node = NULL;
}

int ck_bvh_check(const struct ck_bvh *b)
{
	int first_leaf = (b->nodes - 1) / 2;
	for (int i = 0; i < first_leaf; i++) {
		const float *n = b->node + (size_t)i * 8;
		for (int c = 2 * i + 1; c <= 2 * i + 2; c++) {
			const float *k = b->node + (size_t)c * 8;
			for (int a = 0; a < 3; a++)
				if (k[a] < n[a] || k[4 + a] > n[4 + a] || n[a] > n[4 + a])
					return i;
		}
	}
	return -1;
}
