/* load — experiments written inline by the tests (see load.h). */
#include "tests/load.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct experiment *test_load_json(const char *json, struct cfg_diag *diag)
{
	*diag = (struct cfg_diag){ 0 };
	char path[] = "/tmp/combosim-test-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0) {
		snprintf(diag->msg, sizeof(diag->msg), "cannot create a temporary file");
		diag->failed = true;
		return NULL;
	}
	FILE *f = fdopen(fd, "w");
	fputs(json, f);
	fclose(f);
	struct experiment *e = experiment_load(path, NULL, 0, diag);
	unlink(path);
	diag->file = NULL;       /* it named `path`, a local gone with this frame; msg keeps the name */
	return e;
}

struct experiment *test_load_text(const char *json)
{
	struct cfg_diag diag;
	struct experiment *e = test_load_json(json, &diag);
	if (!e)
		fprintf(stderr, "\nload failed: %s\n", diag.msg);
	return e;
}

/* Loads models/rtx3090.json with member `key` replaced by `value` (owned), through a temporary
 * file; NULL with diag filled when the loader rejects it. */
static void set_member(cJSON *j, const char *key, cJSON *value)
{
	if (cJSON_GetObjectItemCaseSensitive(j, key))
		cJSON_ReplaceItemInObjectCaseSensitive(j, key, value);
	else
		cJSON_AddItemToObject(j, key, value);
}

/* j printed to a new temporary file named in path; cJSON j is freed */
static bool write_temp_json(cJSON *j, char *path, size_t n)
{
	snprintf(path, n, "/tmp/combosim-gpu-XXXXXX");
	int fd = mkstemp(path);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	char *text = cJSON_Print(j);
	cJSON_Delete(j);
	if (!f) {
		free(text);
		return false;
	}
	fputs(text, f);
	fclose(f);
	free(text);
	return true;
}

bool test_gpu_file(char *path, size_t n, const char *base, ...)
{
	struct cfg_diag d = { 0 };
	cJSON *j = cfg_load_file(base, &d);
	if (!j)
		return false;
	va_list ap;
	va_start(ap, base);
	for (const char *key; (key = va_arg(ap, const char *));) {
		const char *text = va_arg(ap, const char *);
		cJSON *value = text ? cJSON_Parse(text) : NULL;
		if (text && !value) {
			va_end(ap);
			cJSON_Delete(j);
			return false;
		}
		if (value)
			set_member(j, key, value);
	}
	va_end(ap);
	return write_temp_json(j, path, n);
}

struct gpu_desc *test_rtx3090_with(const char *key, cJSON *value, struct cfg_diag *diag)
{
	struct cfg_diag d = { 0 };
	cJSON *j = cfg_load_file("models/rtx3090.json", &d);
	set_member(j, key, value);
	char path[64];
	if (!write_temp_json(j, path, sizeof(path))) {
		*diag = (struct cfg_diag){ .failed = true };
		snprintf(diag->msg, sizeof(diag->msg), "cannot create a temporary file");
		return NULL;
	}
	struct gpu_desc *g = gpu_load(path, diag);
	unlink(path);
	return g;
}
