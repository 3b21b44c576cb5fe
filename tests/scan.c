/* scan — sscanf on one line of a larger text (see scan.h). */
#include "tests/scan.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int scan_line(const char *line, const char *fmt, ...)
{
	char buf[1024];
	size_t n = strcspn(line, "\n");
	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, line, n);
	buf[n] = '\0';
	va_list ap;
	va_start(ap, fmt);
	int r = vsscanf(buf, fmt, ap);
	va_end(ap);
	return r;
}

const char *next_line(const char *line)
{
	const char *nl = strchr(line, '\n');
	return nl && nl[1] ? nl + 1 : NULL;
}
