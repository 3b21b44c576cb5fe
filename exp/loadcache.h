/* loadcache — what loading an experiment reads from files, kept for the next load in the same
 * process: a process that loads many experiments on the same inputs (`combosim batch`, the
 * checks of `combosim sweep`) parses each experiment file, BE queue and game trace once.
 *
 * An entry is keyed by its kind, the resolved paths it was read from (the file itself and the
 * files its result depends on, such as the GPU description a queue's kernels were fitted to)
 * and, for each of those paths, the file's identity and version as stat(2) gives them (device,
 * inode, size, modification time): a file rewritten in place or replaced is read again.  Only
 * successful reads are kept; a failing one is read and reported again each time.  Values are
 * owned by the cache and handed out read-only; the caller copies what it keeps.
 */
#ifndef COMBOSIM_LOADCACHE_H
#define COMBOSIM_LOADCACHE_H

#include <stdbool.h>

struct load_cache;

/* Kinds of entries (one per thing loaded; the value's type goes with the kind). */
enum load_kind {
	LOAD_JSON,               /* a parsed JSON document: const cJSON * */
	LOAD_QUEUE,              /* a BE queue read for one GPU: const struct queue_load * (exp/experiment.c) */
	LOAD_TRACE,              /* a game trace checked for one profile and GPU: const struct trace_check * */
	LOAD_INPUT,              /* no value: a file read afresh each time, noted as an input (load_cache_note) */
	LOAD_KINDS
};

struct load_cache *load_cache_new(void);
void load_cache_free(struct load_cache *lc);

/* The value stored for (kind, paths[0..n-1]) whose files are unchanged since, or NULL (also
 * for lc NULL, n out of 1..LOAD_PATHS_MAX, or a path that cannot be stat'ed). */
#define LOAD_PATHS_MAX 3
const void *load_cache_get(struct load_cache *lc, enum load_kind kind, const char *const *paths, int n);

/* Stores val for (kind, paths) with the files' identities now, replacing an older entry (its
 * value freed with its free function); val is freed at once by free_val when it cannot be
 * stored (lc NULL, a path not stat'able, no memory).  Returns val when stored, else NULL. */
const void *load_cache_put(struct load_cache *lc, enum load_kind kind, const char *const *paths, int n, void *val,
			   void (*free_val)(void *));

/* Notes path as an input of the loads through lc (for load_cache_paths) when not noted yet. */
void load_cache_note(struct load_cache *lc, const char *path);

/* Calls fn(path, ctx) for each distinct path the entries were read from (every input file the
 * loads through lc read and kept), in the order first stored. */
void load_cache_paths(const struct load_cache *lc, void (*fn)(const char *path, void *ctx), void *ctx);

/* Counts, for tests and benchmarks: look-ups answered from the cache and entries stored. */
void load_cache_stats(const struct load_cache *lc, long *hits, long *stored);

#endif
