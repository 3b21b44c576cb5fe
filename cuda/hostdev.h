/* hostdev — the host loop's device (cuda/hostloop.h struct hl_dev) on a real GPU: launches,
 * polls and reads through cuda/ck.h (kernels.cu), the host clock CLOCK_MONOTONIC. */
#ifndef COMBOSIM_CUDA_HOSTDEV_H
#define COMBOSIM_CUDA_HOSTDEV_H

#include "cuda/hostloop.h"

struct hl_dev hd_device(struct ck_dev *d);
/* CLOCK_MONOTONIC in ns */
long long hd_host_ns(void);

#endif
