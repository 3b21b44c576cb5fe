/* replay — runs a fuzz harness over every file of the given directories, without libFuzzer:
 * how `make test` keeps the fuzz corpus and every crash found as regression tests. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
	size_t got = buf ? fread(buf, 1, (size_t)(n > 0 ? n : 0), f) : 0;
	fclose(f);
	if (buf)
		LLVMFuzzerTestOneInput(buf, got);
	free(buf);
	return 1;
}

int main(int argc, char **argv)
{
	int files = 0;
	for (int i = 1; i < argc; i++) {
		DIR *d = opendir(argv[i]);
		if (!d) {
			files += replay_file(argv[i]);
			continue;
		}
		struct dirent *e;
		while ((e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			char p[4096];
			snprintf(p, sizeof(p), "%s/%s", argv[i], e->d_name);
			files += replay_file(p);
		}
		closedir(d);
	}
	printf("replay: %d inputs, no crash\n", files);
	return 0;
}
