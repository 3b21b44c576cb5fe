/* experiment — an experiment file, loaded and validated: the GPU, the workload (kernels, games,
 * BE apps), the policies to compare on it, the duration and the seed, and what to output.
 * Every error names the file, the JSON path and what was expected (exit code 2).
 */
#ifndef COMBOSIM_EXPERIMENT_H
#define COMBOSIM_EXPERIMENT_H

#include <stdint.h>
#include <cjson/cJSON.h>
#include "models/gpu.h"
#include "models/kernel.h"
#include "policies/policy.h"
#include "traces/workload.h"

struct policy_spec {
	char name[NAME_MAX_LEN];     /* label in outputs ("static-41" when given) */
	const struct policy_ops *ops;
	const cJSON *params;
	char path[64];               /* "$.policies[1]" */
};

enum exp_type { EXP_RUN, EXP_CORUN };

/* outputs.timeline_max_mb's default: Perfetto's UI loads traces of a few hundred MB at best. */
#define TIMELINE_MAX_MB_DEFAULT 1000.0
/* An estimated timeline above this many MB is warned about: Perfetto opens it slowly or not. */
#define TIMELINE_WARN_MB 100.0

/* A reproduction row aggregated over co-run pairs: e.g. the mean makespan reduction of all
 * RT+CD pairs under the PTB variant (COMBO Fig. 7). */
enum corun_stat { STAT_MEAN, STAT_MAX, STAT_MIN };
struct corun_summary {
	char metric[96];
	enum variant variant;
	enum kclass first, second;
	enum corun_stat stat;
	double paper;            /* NAN when the paper gives no number */
	char note[160];
};

struct corun_pair {
	int a, b;                /* kernel indices; a is launched first */
	double paper;            /* the paper's makespan reduction, NAN when none */
	char metric[96];
	char note[160];
};

struct experiment {
	char file[512];
	char name[NAME_MAX_LEN];
	enum exp_type type;
	struct gpu_desc *gpu;
	uint64_t seed;
	sim_time duration_ns;
	struct kernel_spec *kernels;
	int n_kernels;
	struct game_spec *games;
	int n_games;
	struct app_spec *apps;
	int n_apps;
	struct policy_spec *policies;
	int n_policies;
	int baseline;            /* the policy the table compares the others with ("baseline"), or -1 */
	struct corun_pair *pairs;
	int n_pairs;
	struct default_launch corun_launch[VAR_COUNT];   /* one co-run pass per variant */
	int n_corun_variants;
	struct corun_summary *summaries;
	int n_summaries;
	sim_time occupancy_ns;   /* outputs.occupancy_ms: occupancy.csv's bin; 0: not written */
	bool timeline;
	double timeline_max_mb;  /* outputs.timeline_max_mb: a larger estimated timeline is refused */
	sim_time timeline_from_ns, timeline_to_ns;  /* slices overlapping [from, to) are written */
	bool *timeline_policy;   /* [n_policies]: whether the policy's run is in the timeline; owned */
	bool timeline_sm_lanes;  /* outputs.timeline_lanes "sms": per-SM lanes besides the streams */
	bool timeline_gzip;      /* outputs.timeline_gzip: timeline.json.gz */
	bool no_frames_csv;      /* outputs.frames_csv false: frames.csv not written */
	bool no_kernels_csv;     /* outputs.kernels_csv false: kernels.csv not written */
	cJSON *tree;             /* the resolved experiment (after --set), owned */
	struct load_cache *cache;   /* while loading: inputs read before (exp/loadcache.h), or NULL */
};

/* Loads FILE and applies the --set overrides.  NULL with diag filled on any error. */
struct experiment *experiment_load(const char *file, const char *const *sets, int n_sets,
				   struct cfg_diag *diag);
void experiment_free(struct experiment *e);

/* experiment_load, reading the experiment file, its BE queues and game traces through cache
 * (exp/loadcache.h; NULL: none): a process loading many experiments on the same inputs parses
 * and checks each once.  The experiment it returns is the same as experiment_load's. */
struct load_cache;
struct experiment *experiment_load_cached(const char *file, const char *const *sets, int n_sets,
					  struct cfg_diag *diag, struct load_cache *cache);

/* Finds a GPU description: a name ("rtx3090": models/rtx3090.json under $COMBOSIM_MODELS, then
 * the lookup of base/datadir.h from EXPFILE, NULL for the command line) or a path to a JSON
 * file.  False (out: GPU) if none is readable. */
bool experiment_gpu_path(const char *gpu, const char *expfile, char *out, size_t n);

#endif
