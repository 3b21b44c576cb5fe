/* load — experiments written inline by the tests (see load.h). */
#include "tests/load.h"

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
struct gpu_desc *test_rtx3090_with(const char *key, cJSON *value, struct cfg_diag *diag)
{
	FILE *in = fopen("models/rtx3090.json", "r");
	char text[16384];
	size_t n = fread(text, 1, sizeof(text) - 1, in);
	fclose(in);
	text[n] = 0;
	cJSON *j = cJSON_Parse(text);
	if (cJSON_GetObjectItemCaseSensitive(j, key))
		cJSON_ReplaceItemInObjectCaseSensitive(j, key, value);
	else
		cJSON_AddItemToObject(j, key, value);
	char path[] = "/tmp/combosim-gpu-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	char *out = cJSON_Print(j);
	fputs(out, f);
	fclose(f);
	free(out);
	cJSON_Delete(j);
	struct gpu_desc *g = gpu_load(path, diag);
	unlink(path);
	return g;
}
