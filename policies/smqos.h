/* smqos — the pure parts of the SMQoS-style policy (policies/smqos.c): Algorithm 1 (the
 * latency-sensitive task's SM swap decision), Algorithm 2 (the batch task's optimal SM count
 * opt_k and its bounds) and Algorithm 3 (where an SM goes: batch task, LS task or power gate),
 * exposed so that tests can check them line by line against the paper without a run.
 * Nothing here keeps state beyond the structs passed in.
 */
#ifndef COMBOSIM_SMQOS_H
#define COMBOSIM_SMQOS_H

#include <stdbool.h>

enum smqos_move { SMQOS_STAY, SMQOS_SWAP_IN, SMQOS_SWAP_OUT };

/* Algorithm 1: after `n_epoch` epochs (this one included) whose mean IPC is `ipc_ave` and
 * this epoch's `ipc_epoch`, whether the LS task swaps an SM in (either below `target`) or out
 * (both above it, and the mean would stay above it even if the next epoch did nothing). */
enum smqos_move smqos_ls_decide(long n_epoch, double ipc_ave, double ipc_epoch, double target);

/* What Algorithm 2 keeps of the batch task between epochs. */
struct smqos_optk {
	int opt_k;
	bool upper_k, lower_k;
};

/* Algorithm 2, at the end of the epoch after the batch task moved (`last`: SWAP_IN or
 * SWAP_OUT; STAY leaves *k as is): `sm_last` SMs and `ipc_last` IPC before the move,
 * `sm_batch` SMs and `ipc_epoch` IPC after it.  Once both bounds hold opt_k stays. */
void smqos_opt_k(struct smqos_optk *k, enum smqos_move last, double threshold,
		 double ipc_last, double ipc_epoch, int sm_last, int sm_batch);

/* An allocation: SMs of the LS task, of the batch tasks, and active (the others gated). */
struct smqos_alloc {
	int total, ls, batch;
};

/* Algorithm 3: applies the LS task's move `ls` to *a and returns the batch task's move.
 * LS swap-in: from an idle SM, or from the batch task when every SM is active.  LS swap-out:
 * the SM goes to the batch task while it is below opt_k or opt_k has no upper bound yet; else
 * the batch task also gives one back when opt_k has no lower bound yet; SMs that nobody
 * takes are power-gated (total - ls - batch). */
enum smqos_move smqos_alloc_step(struct smqos_alloc *a, enum smqos_move ls, const struct smqos_optk *k);

#endif
