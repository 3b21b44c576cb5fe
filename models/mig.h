/* mig — Multi-Instance GPU: the instance profiles a GPU description offers and where the
 * hardware lets each one be placed.
 *
 * A MIG-capable GPU (A100, H100) is carved into GPU instances made of compute slices (a slice
 * is a fixed group of SMs: whole GPCs) and memory slices (each an equal part of the DRAM,
 * with its memory controllers and L2 banks, so of the DRAM bandwidth too).  A profile
 * ("3g.40gb") takes a fixed number of each and may start only at the memory-slice indexes the
 * driver lists for it (`nvidia-smi mig -lgipp`); an instance starting at slice s holds the
 * compute slices [s, s + compute) and the memory slices [s, s + memory).  Two instances may
 * not share a slice of either kind.  The GPU description's "mig" object gives all of this
 * (models/a100.json); mig_place finds a placement of a list of profiles or says why none
 * exists.  Nothing here runs anything: policies/mig.c turns a placement into SM sets and DRAM
 * partitions.
 */
#ifndef COMBOSIM_MIG_H
#define COMBOSIM_MIG_H

#include <stdbool.h>
#include <stddef.h>
#include "base/cfg.h"

#define MIG_MAX_PROFILES 16
#define MIG_MAX_SLICES 16
#define MIG_MAX_INSTANCES 8

struct mig_profile {
	char name[32];
	int compute;                     /* compute slices */
	int memory;                      /* memory slices */
	int n_starts;
	int starts[MIG_MAX_SLICES];      /* allowed first memory slice, ascending */
};

struct gpu_mig {
	bool present;                    /* the description has a "mig" object */
	int compute_slices, memory_slices;
	int sms_per_slice;               /* SMs of one compute slice; slice c holds SMs [c*n, (c+1)*n) */
	int n_profiles;
	struct mig_profile profiles[MIG_MAX_PROFILES];
};

/* Reads the description's "mig" object (cursor at it) into *m; errors go to its diag.
 * sm_count: the GPU's SMs, which the slices must fit. */
void mig_load(struct gpu_mig *m, const struct cfg *c, int sm_count);

/* The profile of that name, or NULL. */
const struct mig_profile *mig_profile_find(const struct gpu_mig *m, const char *name);

/* Places the n profiles (with start[i] >= 0 a fixed start, -1 any allowed one) so that no two
 * share a compute or memory slice, trying starts in ascending order, earlier instances first
 * (deterministic).  Fills start[] and returns true; false when no placement exists. */
bool mig_place(const struct gpu_mig *m, const struct mig_profile *const *p, int n, int *start);

#endif
