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
