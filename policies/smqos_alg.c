/* smqos_alg — SMQoS's three allocation algorithms (Zhang et al., "QoS-aware dynamic resource
 * allocation with improved utilization and energy efficiency on GPU", Parallel Computing
 * 2022, §4.2-4.3), as pure functions: policies/smqos.h says what each takes and returns.
 * The line numbers in comments are the paper's.
 */
#include "policies/smqos.h"

enum smqos_move smqos_ls_decide(long n_epoch, double ipc_ave, double ipc_epoch, double target)
{
	if (ipc_ave < target || ipc_epoch < target)                     /* line 3 */
		return SMQOS_SWAP_IN;
	double ave_if_idle = ipc_ave * (double)n_epoch / (double)(n_epoch + 1);
	if (ave_if_idle > target && ipc_epoch > target)                  /* line 6 */
		return SMQOS_SWAP_OUT;
	return SMQOS_STAY;
}

void smqos_opt_k(struct smqos_optk *k, enum smqos_move last, double threshold,
		 double ipc_last, double ipc_epoch, int sm_last, int sm_batch)
{
	/* "opt_k remains unchanged during the rest of the execution" once it is determined */
	if ((k->upper_k && k->lower_k) || sm_last != k->opt_k)
		return;
	if (last == SMQOS_SWAP_IN) {                                       /* precondition 1 */
		if (ipc_epoch > ipc_last * (1 + threshold)) {
			k->lower_k = true;
			k->opt_k = sm_batch;
		} else {
			k->upper_k = true;
		}
	} else if (last == SMQOS_SWAP_OUT) {                               /* precondition 2 */
		if (ipc_epoch < ipc_last * (1 - threshold)) {
			k->lower_k = true;
		} else {
			k->upper_k = true;
			k->opt_k = sm_batch;
		}
	}
}

/* Precondition 2 of Algorithm 3 (lines 10-20): the LS task gave an SM back. */
static enum smqos_move batch_on_ls_swapout(const struct smqos_alloc *a, const struct smqos_optk *k)
{
	if (a->batch < k->opt_k || !k->upper_k)
		return SMQOS_SWAP_IN;
	if (!k->lower_k && a->batch > 0)
		return SMQOS_SWAP_OUT;
	return SMQOS_STAY;
}

enum smqos_move smqos_alloc_step(struct smqos_alloc *a, enum smqos_move ls, const struct smqos_optk *k)
{
	enum smqos_move batch = SMQOS_STAY;
	if (ls == SMQOS_SWAP_IN) {                                         /* precondition 1 */
		if (a->ls >= a->total)
			return SMQOS_STAY;
		if (a->ls + a->batch == a->total) {
			batch = SMQOS_SWAP_OUT;
			a->batch--;
		}
		a->ls++;
		return batch;
	}
	if (ls != SMQOS_SWAP_OUT || a->ls <= 1)
		return SMQOS_STAY;
	a->ls--;
	batch = batch_on_ls_swapout(a, k);
	if (batch == SMQOS_SWAP_IN)
		a->batch++;
	else if (batch == SMQOS_SWAP_OUT)
		a->batch--;
	return batch;                                                      /* line 32: the rest gated */
}
