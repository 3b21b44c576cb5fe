/* calib — the per-device calibration cache of combosim-cuda: for each kernel shape, the line
 * t(work) = a + b * work fitted to solo runs on the whole GPU, so that a requested solo time
 * maps to a work parameter without re-measuring.  One JSON file per device:
 *   { "device": NAME, "entries": { KEY: { "a_us", "b_us", "target_us", "measured_us" } } }
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/ck.h"

void ck_calib_key(const struct ck_kernel *k, char *buf, size_t n)
{
	snprintf(buf, n, "%s/%s/tasks=%d/workers=%d/threads=%d/smem=%d", ck_class_names[k->cls],
		 ck_variant_names[k->variant], k->tasks, k->variant == CK_ORIGINAL ? 0 : k->workers,
		 k->threads, k->smem);
}

static char *slurp(const char *path, int *missing)
{
	FILE *f = fopen(path, "rb");
	*missing = 0;
	if (!f) {
		*missing = errno == ENOENT;
		return NULL;
	}
	size_t cap = 4096, len = 0;
	char *s = malloc(cap);
	while (s) {
		size_t r = fread(s + len, 1, cap - len - 1, f);
		len += r;
		if (r == 0)
			break;
		if (len + 1 == cap) {
			char *t = realloc(s, cap * 2);
			if (!t) {
				free(s);
				s = NULL;
				break;
			}
			s = t;
			cap *= 2;
		}
	}
	fclose(f);
	if (s)
		s[len] = 0;
	return s;
}

static cJSON *empty_cache(const char *device)
{
	cJSON *r = cJSON_CreateObject();
	cJSON_AddStringToObject(r, "device", device);
	cJSON_AddStringToObject(r, "model", "solo time on the whole GPU, original variant: t_us = a_us + b_us * work");
	cJSON_AddObjectToObject(r, "entries");
	return r;
}

int ck_calib_load(struct ck_calib *c, const char *path, const char *device, char *err, size_t n)
{
	int missing;
	memset(c, 0, sizeof(*c));
	snprintf(c->path, sizeof(c->path), "%s", path);
	char *text = slurp(path, &missing);
	if (!text) {
		if (!missing) {
			snprintf(err, n, "%s: %s", path, strerror(errno));
			return -1;
		}
		c->root = empty_cache(device);
		return 0;
	}
	cJSON *r = cJSON_Parse(text);
	free(text);
	const cJSON *dev = cJSON_GetObjectItemCaseSensitive(r, "device");
	const cJSON *ent = cJSON_GetObjectItemCaseSensitive(r, "entries");
	if (!cJSON_IsObject(r) || !cJSON_IsString(dev) || !cJSON_IsObject(ent)) {
		snprintf(err, n, "%s: expected a calibration cache {\"device\": ..., \"entries\": {...}}", path);
		cJSON_Delete(r);
		return -1;
	}
	for (const cJSON *e = ent->child; e; e = e->next) {
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(e, "a_us");
		const cJSON *b = cJSON_GetObjectItemCaseSensitive(e, "b_us");
		if (!cJSON_IsNumber(a) || !cJSON_IsNumber(b) || !(b->valuedouble > 0)) {
			snprintf(err, n, "%s: $.entries.%s: expected numbers a_us and b_us > 0", path, e->string);
			cJSON_Delete(r);
			return -1;
		}
	}
	if (strcmp(dev->valuestring, device) != 0) {
		cJSON_Delete(r);
		r = empty_cache(device);
	}
	c->root = r;
	return 0;
}

bool ck_calib_get(const struct ck_calib *c, const struct ck_kernel *k, double *a_us, double *b_us)
{
	char key[160];
	ck_calib_key(k, key, sizeof(key));
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(c->root, "entries"), key);
	if (!e)
		return false;
	*a_us = cJSON_GetObjectItemCaseSensitive(e, "a_us")->valuedouble;
	*b_us = cJSON_GetObjectItemCaseSensitive(e, "b_us")->valuedouble;
	return true;
}

bool ck_calib_put(struct ck_calib *c, const struct ck_kernel *k, double a_us, double b_us,
		  double target_us, double measured_us)
{
	/* the reader refuses such a line, and with it the whole file every later bench opens */
	if (!(isfinite(a_us) && isfinite(b_us) && b_us > 0))
		return false;
	char key[160];
	ck_calib_key(k, key, sizeof(key));
	cJSON *ent = cJSON_GetObjectItemCaseSensitive(c->root, "entries");
	cJSON *e = cJSON_CreateObject();
	cJSON_AddNumberToObject(e, "a_us", a_us);
	cJSON_AddNumberToObject(e, "b_us", b_us);
	cJSON_AddNumberToObject(e, "target_us", target_us);
	cJSON_AddNumberToObject(e, "measured_us", measured_us);
	if (cJSON_GetObjectItemCaseSensitive(ent, key))
		cJSON_ReplaceItemInObjectCaseSensitive(ent, key, e);
	else
		cJSON_AddItemToObject(ent, key, e);
	c->dirty = true;
	return true;
}

int ck_calib_save(struct ck_calib *c)
{
	if (!c->dirty)
		return 0;
	char tmp[600];
	snprintf(tmp, sizeof(tmp), "%s.tmp", c->path);
	char *s = cJSON_Print(c->root);
	FILE *f = s ? fopen(tmp, "w") : NULL;
	int ok = f && fputs(s, f) >= 0 && fputc('\n', f) != EOF;
	if (f && fclose(f))
		ok = 0;
	free(s);
	if (!ok || rename(tmp, c->path)) {
		remove(tmp);
		return -1;
	}
	c->dirty = false;
	return 0;
}

void ck_calib_free(struct ck_calib *c)
{
	cJSON_Delete(c->root);
	c->root = NULL;
}

void ck_fit_line(double w1, double t1, double w2, double t2, double *a, double *b)
{
	*b = (t2 - t1) / (w2 - w1);
	*a = t1 - *b * w1;
}

long ck_work_for(double a, double b, double target_us)
{
	if (!(b > 0))
		return 1;
	double w = (target_us - a) / b;
	if (!(w >= 1))
		return 1;
	if (w > 2e9)
		return 2000000000L;
	return lround(w);
}
