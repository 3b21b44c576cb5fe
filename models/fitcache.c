/* fitcache — kernel_fit results remembered per kernel spec (see fitcache.h).
 *
 * Direct-mapped: a hash of the spec picks one of FIT_SLOTS entries, which holds the last spec
 * that hashed there and its fit; a spec equal to it in every field is a hit.  A run's distinct
 * specs are a few dozen (games' kernels, BE queues' kernels), so collisions are rare and cost
 * only a kernel_fit.
 */
#include "models/fitcache.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FIT_SLOTS 256u

struct fit_entry {
	bool used;
	struct kernel_spec spec;
	struct kernel_fit_base base;
};

struct fit_cache {
	const struct gpu_desc *g;
	long misses, hits;
	struct fit_entry e[FIT_SLOTS];
};

/* spec_same compares every field but the name, which only kernel_fit's errors use (a spec that
 * does not fit is never remembered), and the solo time, which only block_ns depends on (unless
 * the DRAM demand comes from bytes): a game's frames scale their kernels' solo times.  A field
 * added to struct kernel_spec must be added there and to spec_hash, or a changed kernel would
 * be given an old fit. */
_Static_assert(sizeof(struct kernel_spec) == 160, "struct kernel_spec changed: update spec_same");

static bool spec_same(const struct kernel_spec *a, const struct kernel_spec *b)
{
	for (int u = 0; u < UNIT_COUNT; u++)
		if (a->demand[u] != b->demand[u])
			return false;
	return a->cls == b->cls && a->dram == b->dram && a->dram_bytes == b->dram_bytes &&
	       a->grid == b->grid && a->threads == b->threads && a->regs == b->regs &&
	       a->smem == b->smem && (a->dram_bytes <= 0 || a->solo_ns == b->solo_ns) &&
	       a->sat_blocks == b->sat_blocks &&
	       a->ptb_workers == b->ptb_workers && a->dram_default == b->dram_default;
}

static uint64_t bits(double x)
{
	uint64_t u;
	memcpy(&u, &x, sizeof(u));
	return u;
}

/* FNV-1a over the fields spec_same compares */
static uint32_t spec_hash(const struct kernel_spec *k)
{
	uint64_t h = 14695981039346656037ull;
	const uint64_t v[] = { (uint64_t)k->grid, (uint64_t)k->threads, (uint64_t)k->regs,
			       (uint64_t)k->smem, k->dram_bytes > 0 ? (uint64_t)k->solo_ns : 0, (uint64_t)k->cls,
			       (uint64_t)k->sat_blocks, (uint64_t)k->ptb_workers, k->dram_default,
			       bits(k->dram), bits(k->dram_bytes), bits(k->demand[0]), bits(k->demand[1]),
			       bits(k->demand[2]), bits(k->demand[3]) };
	_Static_assert(UNIT_COUNT == 4, "hash every unit's demand");
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		h = (h ^ v[i]) * 1099511628211ull;
	return (uint32_t)(h ^ (h >> 32));
}

struct fit_cache *fit_cache_new(const struct gpu_desc *g)
{
	struct fit_cache *c = calloc(1, sizeof(*c));
	if (c)
		c->g = g;
	return c;
}

void fit_cache_free(struct fit_cache *c)
{
	free(c);
}

bool fit_cache_get(struct fit_cache *c, const struct kernel_spec *k, struct kernel_fit *fit,
		   char *err, size_t errlen)
{
	struct fit_entry *e = &c->e[spec_hash(k) % FIT_SLOTS];
	if (!(e->used && spec_same(&e->spec, k))) {
		c->misses++;
		struct kernel_fit_base b;
		if (!kernel_fit_base(k, c->g, &b, err, errlen)) {
			*fit = b.fit;
			return false;
		}
		e->used = true;
		e->spec = *k;
		e->base = b;
	} else {
		c->hits++;
	}
	kernel_fit_finish(&e->base, k, c->g, fit);
	return true;
}

void fit_cache_counts(const struct fit_cache *c, long *misses, long *hits)
{
	*misses = c->misses;
	*hits = c->hits;
}
