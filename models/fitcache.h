/* fitcache — kernel_fit results remembered per kernel spec, for one GPU.
 *
 * A run fits every launch's spec (the engine for each kernel instance, COMBO for each BE launch),
 * and the same few specs come back thousands of times: a game's frames, a BE app's queue.
 * kernel_fit is a pure function of the spec and the GPU, so its base (kernel_fit_base: all but
 * the work per block) found once serves every later spec equal to it in all but the name and
 * the solo time (frames scale it).  The key is the spec's contents, not its address: frames
 * own copies.
 * A spec that does not fit is not remembered (its error is kernel_fit's each time).
 */
#ifndef COMBOSIM_FITCACHE_H
#define COMBOSIM_FITCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include "models/kernel.h"

struct fit_cache;

/* NULL when out of memory. */
struct fit_cache *fit_cache_new(const struct gpu_desc *g);
void fit_cache_free(struct fit_cache *c);

/* As kernel_fit(k, the cache's GPU, fit, err, errlen). */
bool fit_cache_get(struct fit_cache *c, const struct kernel_spec *k, struct kernel_fit *fit,
		   char *err, size_t errlen);

/* Fits computed (misses) and copied (hits) so far: for tests. */
void fit_cache_counts(const struct fit_cache *c, long *misses, long *hits);

#endif
