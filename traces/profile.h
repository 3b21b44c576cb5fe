/* profile — workload profiles (JSON, see traces/README.md):
 *
 *  - a game profile ("combosim game-profile" v1) says how a frame-level trace record (render
 *    time at full GPU, RT share, resolution) becomes kernels: the RT-part and CD-part kernel
 *    shapes and their shares of each part's time; and, for the generator, the Table-4 qualities
 *    and the stable/dynamic load models;
 *  - a BE profile ("combosim be-profile" v1) gives one pass of a BE app's kernels, for the
 *    generator to write as a queue.
 *
 * Errors come through struct cfg_diag: "FILE: $.path: expected ..., got ...".
 */
#ifndef COMBOSIM_PROFILE_H
#define COMBOSIM_PROFILE_H

#include "models/gpu.h"
#include "base/cfg.h"
#include "models/kernel.h"
#include "traces/source.h"

#define PROFILE_NAME_MAX 64

/* One frame record of a frame-level trace. */
struct frame_record {
	long frame;
	double render_ms;        /* render time alone on the whole GPU */
	double rt_share;         /* < 0: not given (the profile's default applies) */
	int width, height;       /* 0: not given (the profile's reference resolution) */
	double spp, triangles;   /* < 0: not given (descriptive; COMBO Eq. 4's inputs) */
	double cpu_ms;           /* < 0: not given; a closed loop's CPU phase after the frame */
};

enum profile_part { PART_RT, PART_CD };

struct profile_kernel {
	struct kernel_spec k;    /* shape at the reference resolution; solo_ns unused */
	enum profile_part part;
	double share;            /* of its part's time */
};

enum quality { Q_HIGH, Q_MEDIUM, Q_LOW, Q_COUNT };
extern const char *const quality_names[Q_COUNT];

struct profile_quality {
	bool present;
	double sm_ratio;         /* COMBO Table 4: SM share needed at the profile's fps */
	double peak_ms;          /* = sm_ratio * 1000 / fps (checked on load) */
	int width, height;
	double spp, triangles;
};

struct profile_stable {
	bool present;
	double level;            /* the mode's mean need as a fraction of the peak render time:
				  * frames within peak * level * (1 +- amplitude); without "level" in
				  * the profile, 1 / (1 + amplitude): the heaviest frames at the peak */
	double amplitude;        /* relative bound of the frame-to-frame noise */
	double sigma;            /* frame-to-frame noise (standard deviation, before clipping) */
};

struct profile_dynamic {
	bool present;
	double low, mean, high;  /* fractions of the peak render time */
	double sigma;            /* stationary standard deviation of the wander */
	double tau_ms;           /* correlation time of the wander (persistence) */
};

/* A closed frame loop's per-frame CPU and GPU time in persistent scenes (vGASA §2.1: "the FPS
 * keeps constant for a short period of time but varies during gaming"): scenes of exponential
 * length (mean scene_s at the profile's fps), each scaling the frame's CPU and GPU time by its
 * level exp(N(0, level_sigma)); within a scene frames vary independently by cv (GPU) and
 * cpu_cv (CPU), 1 + N(0, cv) clipped to [0.5, 2] as the engine's own variation. */
struct profile_scenes {
	bool present;
	double render_ms, cpu_ms;    /* the base frame: GPU time alone on the whole GPU, CPU time */
	double cv, cpu_cv;
	double scene_s, level_sigma;
};

struct game_profile {
	char file[512];
	char name[PROFILE_NAME_MAX];
	double fps;              /* the frame rate Table 4's SM ratios are for */
	double rt_share;         /* default per-frame RT share */
	int ref_width, ref_height;
	struct profile_kernel *kernels;
	int n_kernels;
	struct profile_quality q[Q_COUNT];
	struct profile_stable stable;
	struct profile_dynamic dynamic;
	struct profile_scenes scenes;
	double feature_noise;    /* relative noise of generated spp/triangles around Eq. 4 */
};

/* Loads a game profile.  With g, every kernel shape must fit an SM of g.  NULL + diag on error. */
struct game_profile *game_profile_load(const char *path, const struct gpu_desc *g,
				       struct cfg_diag *diag);
void game_profile_free(struct game_profile *p);
/* Whether the profile has kernels of `part` (a profile whose rt_share is 0 may have no rt ones). */
bool game_profile_has_part(const struct game_profile *p, enum profile_part part);

/* The kernels of one frame: each kernel's solo time is render time x its part's share
 * (rt_share or 1 - rt_share) x its share within the part (rounded so the parts add up to the
 * render time to the nanosecond); grids scale with width x height over the reference
 * resolution.  Kernels of zero time are left out. */
void game_profile_expand(const struct game_profile *p, const struct frame_record *r,
			 struct frame_kernels *out);

/* A BE profile. */
struct be_profile_kernel {
	struct kernel_spec k;
	int launches;            /* consecutive launches per pass */
};

struct be_profile {
	char file[512];
	char name[PROFILE_NAME_MAX];
	char kind[32];           /* "compute-intensive" | "memory-intensive" | "mixed" */
	double cv;               /* per-launch duration variation (standard deviation / mean) */
	struct be_profile_kernel *kernels;
	int n_kernels;
	const cJSON *tree;       /* owned: descriptive members copied into generated queues */
};

struct be_profile *be_profile_load(const char *path, const struct gpu_desc *g, struct cfg_diag *diag);
void be_profile_free(struct be_profile *p);

/* Reads a kernel object (the experiment file's kernel keys, plus `extra` keys the caller
 * reads itself) into k.  solo_us is required when need_solo.  With g, the block must fit. */
void profile_read_kernel(const struct cfg *c, struct kernel_spec *k, bool need_solo,
			 const char *const *extra, const struct gpu_desc *g);

/* Finds a shipped workload file by name: DIR/NAME.json under $COMBOSIM_TRACES, then
 * traces/DIR/NAME.json in the current directory and the data directories (base/datadir.h).
 * DIR is "games", "be" or "dnn". */
bool profile_find(const char *dir, const char *name, char *out, size_t n);

/* Resolves a workload reference from a file REFERRER (NULL: the command line): a value with a
 * '/' or ending in ".json" is a path (trace_resolve_path), anything else a shipped name under
 * DIR, looked up as profile_find does but beside REFERRER before the current directory. */
bool profile_resolve(const char *dir, const char *value, const char *referrer, char *out, size_t n);

/* Checks a kernel name: 1 to KERNEL_NAME_MAX - 1 characters, no commas, quotes or newlines. */
bool kernel_name_ok(const char *s);

#endif
