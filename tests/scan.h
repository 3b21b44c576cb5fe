/* scan — sscanf on one line of a larger text.  glibc's sscanf takes the length of all it is
 * given at every call, so a test walking a run's outputs line by line with plain sscanf went
 * quadratic in their size (a 300000-frame trace: a minute under the sanitizers). */
#ifndef COMBOSIM_TESTS_SCAN_H
#define COMBOSIM_TESTS_SCAN_H

/* sscanf(line, fmt, ...) on line up to its first newline (at most 1023 bytes of it) */
int scan_line(const char *line, const char *fmt, ...) __attribute__((format(scanf, 2, 3)));

/* the line after the one `line` points into, or NULL at the text's end */
const char *next_line(const char *line);

#endif
