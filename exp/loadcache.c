/* loadcache — inputs read once per process (see loadcache.h).  A short list searched linearly:
 * a sweep's process holds a few dozen entries at most (one per experiment file, queue and
 * trace of its points). */
#include "exp/loadcache.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct file_id {
	dev_t dev;
	ino_t ino;
	off_t size;
	int64_t mtime_s, mtime_ns;
};

struct entry {
	enum load_kind kind;
	int n;
	char *paths[LOAD_PATHS_MAX];
	struct file_id id[LOAD_PATHS_MAX];
	void *val;
	void (*free_val)(void *);
};

struct load_cache {
	struct entry *e;
	int n, cap;
	long hits, stored;
};

struct load_cache *load_cache_new(void)
{
	return calloc(1, sizeof(struct load_cache));
}

static void entry_clear(struct entry *x)
{
	for (int i = 0; i < x->n; i++)
		free(x->paths[i]);
	if (x->free_val)
		x->free_val(x->val);
	memset(x, 0, sizeof(*x));
}

void load_cache_free(struct load_cache *lc)
{
	if (!lc)
		return;
	for (int i = 0; i < lc->n; i++)
		entry_clear(&lc->e[i]);
	free(lc->e);
	free(lc);
}

static bool file_id_of(const char *path, struct file_id *id)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return false;
	memset(id, 0, sizeof(*id));
	id->dev = st.st_dev;
	id->ino = st.st_ino;
	id->size = st.st_size;
	id->mtime_s = (int64_t)st.st_mtim.tv_sec;
	id->mtime_ns = (int64_t)st.st_mtim.tv_nsec;
	return true;
}

static bool same_id(const struct file_id *a, const struct file_id *b)
{
	return a->dev == b->dev && a->ino == b->ino && a->size == b->size && a->mtime_s == b->mtime_s &&
	       a->mtime_ns == b->mtime_ns;
}

/* The entry for (kind, paths), whatever the files' state, or NULL. */
static struct entry *find(struct load_cache *lc, enum load_kind kind, const char *const *paths, int n)
{
	for (int i = 0; i < lc->n; i++) {
		struct entry *x = &lc->e[i];
		if (x->kind != kind || x->n != n)
			continue;
		int j = 0;
		while (j < n && !strcmp(x->paths[j], paths[j]))
			j++;
		if (j == n)
			return x;
	}
	return NULL;
}

const void *load_cache_get(struct load_cache *lc, enum load_kind kind, const char *const *paths, int n)
{
	if (!lc || n < 1 || n > LOAD_PATHS_MAX)
		return NULL;
	struct entry *x = find(lc, kind, paths, n);
	if (!x)
		return NULL;
	for (int j = 0; j < n; j++) {
		struct file_id id;
		if (!file_id_of(paths[j], &id) || !same_id(&id, &x->id[j]))
			return NULL;
	}
	lc->hits++;
	return x->val;
}

const void *load_cache_put(struct load_cache *lc, enum load_kind kind, const char *const *paths, int n, void *val,
			   void (*free_val)(void *))
{
	struct entry fresh = { .kind = kind, .n = n, .val = val, .free_val = free_val };
	bool ok = lc && n >= 1 && n <= LOAD_PATHS_MAX;
	for (int j = 0; ok && j < n; j++) {
		ok = file_id_of(paths[j], &fresh.id[j]);
		fresh.paths[j] = ok ? strdup(paths[j]) : NULL;
		ok = ok && fresh.paths[j];
		fresh.n = j + 1;
	}
	if (ok && !find(lc, kind, paths, n) && lc->n == lc->cap) {
		int cap = lc->cap ? 2 * lc->cap : 16;
		struct entry *e = realloc(lc->e, (size_t)cap * sizeof(*e));
		ok = e != NULL;
		if (ok) {
			lc->e = e;
			lc->cap = cap;
		}
	}
	if (!ok) {
		fresh.n = LOAD_PATHS_MAX;   /* the paths not copied are NULL */
		entry_clear(&fresh);
		return NULL;
	}
	struct entry *x = find(lc, kind, paths, n);
	if (x)
		entry_clear(x);     /* an older version of the same inputs */
	else
		x = &lc->e[lc->n++];
	*x = fresh;
	lc->stored++;
	return val;
}

void load_cache_note(struct load_cache *lc, const char *path)
{
	if (lc && !find(lc, LOAD_INPUT, &path, 1))
		load_cache_put(lc, LOAD_INPUT, &path, 1, NULL, NULL);
}

void load_cache_paths(const struct load_cache *lc, void (*fn)(const char *path, void *ctx), void *ctx)
{
	for (int i = 0; lc && i < lc->n; i++)
		for (int j = 0; j < lc->e[i].n; j++) {
			const char *p = lc->e[i].paths[j];
			bool seen = false;
			for (int a = 0; a <= i && !seen; a++)
				for (int b = 0; b < (a == i ? j : lc->e[a].n) && !seen; b++)
					seen = !strcmp(lc->e[a].paths[b], p);
			if (!seen)
				fn(p, ctx);
		}
}

void load_cache_stats(const struct load_cache *lc, long *hits, long *stored)
{
	*hits = lc ? lc->hits : 0;
	*stored = lc ? lc->stored : 0;
}
