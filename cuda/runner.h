/* runner — `combosim-cuda run EXPERIMENT`: replays an experiment on the GPU (cuda/runner.c). */
#ifndef COMBOSIM_CUDA_RUNNER_H
#define COMBOSIM_CUDA_RUNNER_H

struct runner_opts {
	const char *experiment;
	const char *const *sets;   /* --set path=value overrides */
	int n_sets;
	const char *out_dir;
	const char *calib_path;
	const char *command;       /* recorded in summary.json */
	int device;
};

/* Exit code: 0 ok, 1 the run failed, 2 bad input. */
int runner_run(const struct runner_opts *o);

#endif
