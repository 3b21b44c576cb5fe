/* datadir — the lookup of shipped data (see datadir.h). */
#include "base/datadir.h"

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* `make install` generates the header defining COMBOSIM_DATADIR from PREFIX (Makefile). */
#ifndef COMBOSIM_DATADIR
#define COMBOSIM_DATADIR "/usr/local/share/combosim"
#endif

const char *datadir_default(void)
{
	return COMBOSIM_DATADIR;
}

static bool readable(const char *p)
{
	return access(p, R_OK) == 0;
}

/* out = DIR/REL; whether it is readable (a path that did not fit is not). */
static bool try_at(const char *dir, const char *rel, char *out, size_t n)
{
	int len = snprintf(out, n, "%s/%s", dir, rel);
	return len > 0 && (size_t)len < n && readable(out);
}

bool datadir_find(const char *rel, char *out, size_t n)
{
	char exe[PATH_MAX], bindir[PATH_MAX], base[PATH_MAX + 32], real[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		exe[len] = 0;
		snprintf(bindir, sizeof(bindir), "%s", dirname(exe));
		/* a build tree's bin/ and bin/debug/, then an installed tree wherever it now lies;
		 * canonical, so messages and summary.json name the file plainly */
		static const char *const up[] = { "..", "../..", "../share/combosim" };
		for (size_t i = 0; i < sizeof(up) / sizeof(up[0]); i++) {
			snprintf(base, sizeof(base), "%s/%s", bindir, up[i]);
			if (realpath(base, real) && try_at(real, rel, out, n))
				return true;
		}
	}
	if (try_at(COMBOSIM_DATADIR, rel, out, n))
		return true;
	snprintf(out, n, "%s", rel);
	return false;
}

bool datadir_lookup(const char *rel, const char *referrer, char *out, size_t n)
{
	if (referrer) {
		char tmp[PATH_MAX], dir[PATH_MAX];
		snprintf(tmp, sizeof(tmp), "%s", referrer);
		snprintf(dir, sizeof(dir), "%s", dirname(tmp));
		static const char *const up[] = { "..", "../.." };
		for (size_t i = 0; i < sizeof(up) / sizeof(up[0]); i++) {
			char base[PATH_MAX + 8];
			snprintf(base, sizeof(base), "%s/%s", dir, up[i]);
			if (try_at(base, rel, out, n))
				return true;
		}
	}
	snprintf(out, n, "%s", rel);
	if (readable(out))
		return true;
	return datadir_find(rel, out, n);
}

bool datadir_resolve_path(const char *path, const char *referrer, char *out, size_t n)
{
	snprintf(out, n, "%s", path);
	if (path[0] == '/')
		return readable(out);
	if (referrer) {
		char tmp[PATH_MAX];
		snprintf(tmp, sizeof(tmp), "%s", referrer);
		if (try_at(dirname(tmp), path, out, n))
			return true;
	}
	snprintf(out, n, "%s", path);
	if (readable(out))
		return true;
	if (datadir_find(path, out, n))
		return true;
	snprintf(out, n, "%s", path);
	return false;
}
