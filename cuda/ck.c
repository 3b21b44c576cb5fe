/* ck — names of the backend's kernel classes and variants (see cuda/ck.h). */
#include <string.h>

#include "cuda/ck.h"

const char *const ck_class_names[CK_NCLASS] = { "RT", "CD", "TC", "MEM" };
const char *const ck_variant_names[CK_NVARIANT] = { "original", "ptb", "sm-bound", "relaunch" };

int ck_class_parse(const char *s)
{
	for (int i = 0; i < CK_NCLASS; i++)
		if (strcmp(s, ck_class_names[i]) == 0)
			return i;
	return -1;
}

int ck_variant_parse(const char *s)
{
	for (int i = 0; i < CK_NVARIANT; i++)
		if (strcmp(s, ck_variant_names[i]) == 0)
			return i;
	return -1;
}
