/* fuzz_sweep — libFuzzer harness for sweep files (app/sweep.c): the grid, its point count, the
 * "fixed" assignments, and the first points loaded as experiments, as `combosim sweep` checks
 * them before running anything.  Any input must give a precise error or a count: never a
 * crash, a sanitizer report, a hang or a runaway allocation.  Experiment paths resolve from
 * the repository root (where make runs it).  Built by `make fuzz`; the corpus under
 * tests/fuzz/corpus/sweep/ is replayed by `make test`. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool contains(const uint8_t *data, size_t size, const char *s)
{
	size_t n = strlen(s);
	for (size_t i = 0; i + n <= size; i++)
		if (!memcmp(data + i, s, n))
			return true;
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/combosim-fuzzs-XXXXXX.json";
	/* devices and kernel files are not the target (reading /dev/zero never ends) */
	if (contains(data, size, "/dev") || contains(data, size, "/proc") || contains(data, size, "/sys"))
		return 0;
	int fd = mkstemps(path, 5);
	if (fd < 0)
		return 0;
	bool ok = write(fd, data, size) == (ssize_t)size;
	close(fd);
	if (ok) {
		struct cfg_diag d = { 0 };
		sweep_check_file(path, 4, &d);
	}
	unlink(path);
	return 0;
}
