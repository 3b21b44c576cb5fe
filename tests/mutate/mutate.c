/* mutate-experiments — the mutation corpus of the shipped experiments, run by `make test` (and
 * by `make debug test` under the sanitizers).
 *
 *   mutate-experiments EXPERIMENT.json...
 *
 * Each experiment must load as shipped.  Then every member of every object, and the first,
 * second and last element of every array, is in turn deleted, given a value of each other
 * JSON type, and (numbers, strings, arrays) put out of range: negative, zero, fractional,
 * huge, empty, over-long, a duplicated element.  Each mutant is written beside the original
 * (so that its relative paths resolve) and loaded; a mutant that loads has its policies
 * created and a few simulated ms run.  A mutant must load or be refused with a precise message
 * (a file name, then a JSON path or a line); it must never crash, and no value of another
 * type may be accepted in place of a model input (only documentation members take any type).
 * Exit status 0 when every mutant passes; each failure is printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exp/experiment.h"
#include "sim/engine.h"

#define SAMPLE_FIRST 2          /* array elements mutated: the first two and the last */
#define RUN_NS 2000000          /* simulated time of a mutant that loads */

/* Members whose value is documentation: any JSON value is accepted there. */
static const char *const doc_keys[] = { "description", "notes", "inputs", "assumptions", "paper", "source",
					"note", NULL };

struct tally {
	long mutants, loaded, refused, failures;
};

struct ctx {
	const char *orig;       /* the experiment's file */
	char tmp[4200];         /* the mutant's file, beside it */
	cJSON *root;            /* the experiment's tree, mutated in place and restored */
	struct tally t;
};

static bool is_doc(const char *key)
{
	for (int i = 0; key && doc_keys[i]; i++)
		if (!strcmp(key, doc_keys[i]))
			return true;
	return false;
}

/* A precise message: the mutant's (or a file it names) name, then ": $" or ":LINE:". */
static bool precise(const char *msg)
{
	const char *colon = strstr(msg, ": $");
	const char *line = strchr(msg, ':');
	if (!*msg || strstr(msg, "(null)"))
		return false;
	if (colon)
		return true;
	return line && line[1] >= '0' && line[1] <= '9';
}

/* Creates each policy (its parameters are checked there: a refusal lands in d) and runs it for
 * RUN_NS; false when a policy refused. */
static bool run_briefly(struct experiment *e, struct cfg_diag *d)
{
	if (e->type != EXP_RUN)
		return true;
	if (e->duration_ns > RUN_NS)
		e->duration_ns = RUN_NS;
	for (int p = 0; p < e->n_policies; p++) {
		*d = (struct cfg_diag){ .file = e->file };
		struct sim *s = sim_new(e, &e->policies[p], NULL, d);
		if (!s)
			return false;
		sim_run(s);
		cJSON *o = cJSON_CreateObject();
		sim_report(s, o);
		cJSON_Delete(o);
		sim_free(s);
	}
	return true;
}

/* Writes the current tree as the mutant, loads it and judges the outcome. */
static void try_mutant(struct ctx *c, const char *what, bool retyped_model_input)
{
	char *text = cJSON_Print(c->root);
	FILE *f = fopen(c->tmp, "w");
	if (!text || !f) {
		fprintf(stderr, "mutate: cannot write %s\n", c->tmp);
		exit(2);
	}
	fputs(text, f);
	fclose(f);
	free(text);
	struct cfg_diag d = { 0 };
	struct experiment *e = experiment_load(c->tmp, NULL, 0, &d);
	bool ok = e && run_briefly(e, &d);
	experiment_free(e);
	c->t.mutants++;
	if (ok) {
		c->t.loaded++;
		if (retyped_model_input) {
			c->t.failures++;
			printf("FAIL %s: %s: accepted\n", c->orig, what);
		}
	} else {
		c->t.refused++;
		if (!precise(d.msg)) {
			c->t.failures++;
			printf("FAIL %s: %s: imprecise message: %s\n", c->orig, what, d.msg);
		}
	}
}

/* Takes node out of parent; returns the element before it (NULL: it was the first). */
static cJSON *take_out(cJSON *parent, cJSON *node)
{
	cJSON *prev = node == parent->child ? NULL : node->prev;
	cJSON_DetachItemViaPointer(parent, node);
	return prev;
}

/* Puts item into parent after prev (NULL: first): where take_out found its node, so that
 * the mutant keeps the original's order of members. */
static void put_back(cJSON *parent, cJSON *prev, cJSON *item)
{
	cJSON *first = parent->child;
	if (!prev) {
		item->next = first;
		item->prev = first ? first->prev : item;
		if (first)
			first->prev = item;
		parent->child = item;
		return;
	}
	item->prev = prev;
	item->next = prev->next;
	if (prev->next)
		prev->next->prev = item;
	else
		first->prev = item;     /* the new last element */
	prev->next = item;
}

/* One mutant with v in node's place; then node is put back. */
static void with_value(struct ctx *c, cJSON *parent, cJSON *node, cJSON *v, const char *what, bool strict)
{
	cJSON *prev = take_out(parent, node);
	/* a duplicated subtree already carries the member name */
	if (node->string && !v->string && !(v->string = strdup(node->string))) {
		fputs("mutate: out of memory\n", stderr);
		exit(2);
	}
	put_back(parent, prev, v);
	try_mutant(c, what, strict);
	take_out(parent, v);
	cJSON_Delete(v);
	put_back(parent, prev, node);
}

/* The out-of-range values of a node's own type. */
static void out_of_range(struct ctx *c, cJSON *parent, cJSON *node, const char *path)
{
	char what[700];
	if (cJSON_IsNumber(node)) {
		static const double vals[] = { -1, 0, 0.5, 1e9, 1e300, -1e300 };
		for (size_t k = 0; k < sizeof(vals) / sizeof(vals[0]); k++) {
			if (vals[k] == node->valuedouble)
				continue;
			snprintf(what, sizeof(what), "%s = %g", path, vals[k]);
			with_value(c, parent, node, cJSON_CreateNumber(vals[k]), what, false);
		}
	} else if (cJSON_IsString(node)) {
		char longs[301];
		memset(longs, 'w', 300);
		longs[300] = 0;
		const char *vals[] = { "", "x", longs, "a,b\"c\nd" };
		for (size_t k = 0; k < sizeof(vals) / sizeof(vals[0]); k++) {
			if (!strcmp(vals[k], node->valuestring))
				continue;
			snprintf(what, sizeof(what), "%s = \"%.20s\"", path, vals[k]);
			with_value(c, parent, node, cJSON_CreateString(vals[k]), what, false);
		}
	} else if (cJSON_IsArray(node) && node->child) {
		snprintf(what, sizeof(what), "%s emptied", path);
		with_value(c, parent, node, cJSON_CreateArray(), what, false);
		cJSON *dup = cJSON_Duplicate(node, 1);
		cJSON_AddItemToArray(dup, cJSON_Duplicate(node->child, 1));
		snprintf(what, sizeof(what), "%s with its first element twice", path);
		with_value(c, parent, node, dup, what, false);
	} else if (cJSON_IsBool(node)) {
		snprintf(what, sizeof(what), "%s negated", path);
		with_value(c, parent, node, cJSON_CreateBool(!cJSON_IsTrue(node)), what, false);
	}
}

/* Values of each other JSON type.  Accepting one in place of a model input is silent misuse,
 * except where the value is documentation, or null (JSON's "none": "baseline": null). */
static void retyped(struct ctx *c, cJSON *parent, cJSON *node, const char *path)
{
	bool strict = !is_doc(node->string);
	char what[700];
	const char *names[] = { "a string", "a number", "a boolean", "null", "an array", "an object" };
	bool same[] = { cJSON_IsString(node), cJSON_IsNumber(node), cJSON_IsBool(node), cJSON_IsNull(node),
			cJSON_IsArray(node), cJSON_IsObject(node) };
	for (int k = 0; k < 6; k++) {
		if (same[k])
			continue;
		cJSON *v = k == 0 ? cJSON_CreateString("x") : k == 1 ? cJSON_CreateNumber(7) : k == 2 ? cJSON_CreateTrue()
			 : k == 3 ? cJSON_CreateNull() : k == 4 ? cJSON_CreateArray() : cJSON_CreateObject();
		snprintf(what, sizeof(what), "%s as %s", path, names[k]);
		with_value(c, parent, node, v, what, strict && k != 3);
	}
}

/* Every mutation of one node of parent, then of its children. */
static void mutate_node(struct ctx *c, cJSON *parent, cJSON *node, const char *path)
{
	char what[700];
	cJSON *prev = take_out(parent, node);
	snprintf(what, sizeof(what), "%s deleted", path);
	try_mutant(c, what, false);
	put_back(parent, prev, node);
	retyped(c, parent, node, path);
	out_of_range(c, parent, node, path);
	int n = cJSON_GetArraySize(node), k = 0;
	for (cJSON *m = node->child; m; m = m->next, k++) {
		char sub[700];
		if (cJSON_IsObject(node))
			snprintf(sub, sizeof(sub), "%s.%s", path, m->string);
		else if (k < SAMPLE_FIRST || k == n - 1)
			snprintf(sub, sizeof(sub), "%s[%d]", path, k);
		else
			continue;
		mutate_node(c, node, m, sub);
	}
}

static int mutate_file(const char *file, struct tally *all)
{
	struct ctx c = { .orig = file };
	struct cfg_diag d = { 0 };
	struct experiment *e = experiment_load(file, NULL, 0, &d);
	if (!e) {
		printf("FAIL %s: the shipped experiment does not load: %s\n", file, d.msg);
		return 1;
	}
	experiment_free(e);
	d = (struct cfg_diag){ 0 };
	c.root = cfg_load_file(file, &d);
	if (!c.root)
		return 1;
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s", file);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	else
		snprintf(dir, sizeof(dir), ".");
	snprintf(c.tmp, sizeof(c.tmp), "%s/.mutant-%ld.json", dir, (long)getpid());
	for (cJSON *m = c.root->child; m; m = m->next) {
		char path[600];
		snprintf(path, sizeof(path), "$.%s", m->string);
		mutate_node(&c, c.root, m, path);
	}
	unlink(c.tmp);
	cJSON_Delete(c.root);
	printf("mutate: %s: %ld mutants, %ld loaded, %ld refused, %ld failures\n", file, c.t.mutants, c.t.loaded,
	       c.t.refused, c.t.failures);
	all->mutants += c.t.mutants;
	all->failures += c.t.failures;
	return c.t.failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct tally all = { 0 };
	int rc = 0;
	setvbuf(stdout, NULL, _IOLBF, 0);     /* lines survive a sanitizer's exit */
	if (argc < 2) {
		fputs("usage: mutate-experiments EXPERIMENT.json...\n", stderr);
		return 2;
	}
	for (int i = 1; i < argc; i++)
		rc |= mutate_file(argv[i], &all);
	printf("mutate: %ld mutants of %d experiments, %ld failures\n", all.mutants, argc - 1, all.failures);
	return rc;
}
