/* runner — `combosim-cuda run EXPERIMENT`: replays an experiment on the GPU under each of its
 * policies (cuda/runner.c). */
#ifndef COMBOSIM_CUDA_RUNNER_H
#define COMBOSIM_CUDA_RUNNER_H

#include <stdbool.h>

struct runner_opts {
	const char *experiment;
	const char *const *sets;   /* --set path=value overrides */
	int n_sets;
	const char *out_dir;
	const char *calib_path;
	const char *command;       /* recorded in summary.json */
	int device;
	/* only load the experiment and initialise every policy on the CUDA backend (no GPU) */
	bool check_only;
	/* the process is a Volta MPS client limited to some of the GPU's SMs (device_mps.sh): the
	 * device shows fewer SMs than the description, which sizes the kernels as on the whole
	 * GPU; every kernel shape must be in the calibration cache, calibrated without MPS, and is
	 * not re-measured (its solo time on the client's SMs is not its solo time) */
	bool mps_client;
};

/* Exit code: 0 ok, 1 the run failed, 2 bad input. */
int runner_run(const struct runner_opts *o);

#endif
