/* partition — DRAM bandwidth partitions (policies/policy.h bk_dram_partition): a MIG GPU
 * instance owns whole memory slices, each with its memory controllers and L2 banks, so the
 * kernels of one instance share that instance's part of the DRAM bandwidth and nothing else.
 *
 * Each partition is a set of SMs with a share of the chip's bandwidth; the SMs in none share
 * what is left (parts[0]; without partitions it is the whole chip with share 1, and the
 * arithmetic is the one chip-wide DRAM's, bit for bit).  The loads stay in chip units (1 = the
 * whole chip's bandwidth, as kernels' dram demand is given) and a partition's kernels run
 * against load / share: a kernel alone in a 2/8 partition that wants 0.5 of the chip runs at
 * half speed, whatever the other partitions do.  SM classes never mix SMs of two partitions
 * (partition_set splits them, residency.c's merges keep them apart), so a class's speeds
 * depend on its own partition's load only.  The L2 banks an instance also owns carry its
 * share of the path to L2 (gpu.h l2_knee), loaded and shared the same way; L2 capacity is not
 * modelled (the model has no caches).
 */
#include "sim/engine_impl.h"

static double rel(double load, double share)
{
	if (share == 1)
		return load;             /* the chip-wide case, unrounded */
	/* a partition without bandwidth: residency_settle fails the run if anyone uses it */
	return share > 0 ? load / share : (load > 0 ? 1e12 : 0);
}

double partition_rel_load(const struct sim *s, const struct smclass *c)
{
	return rel(s->parts[c->part].load, s->parts[c->part].share);
}

double partition_rel_l2(const struct sim *s, const struct smclass *c)
{
	return rel(s->parts[c->part].l2load, s->parts[c->part].share);
}

double partition_in_use(const struct sim *s)
{
	double sum = 0;
	for (int p = 0; p < s->n_parts; p++) {
		const struct dram_part *d = &s->parts[p];
		if (d->load > 0 && d->share > 0)
			sum += d->load / gpu_dram_slowdown(s->g, d->share == 1 ? d->load : d->load / d->share);
	}
	return sum;
}

void partition_set(struct sim *s, int n, const struct dram_partition *parts)
{
	residency_integrate_all(s);  /* the DRAM in use so far, under the old partitions */
	double rest = 1;
	for (int i = 0; i < n; i++)
		rest -= parts[i].share;
	s->n_parts = n + 1;
	s->parts[0].share = n ? (rest > 1e-12 ? rest : 0) : 1;
	for (int i = 0; i < n; i++) {
		s->parts[i + 1].share = parts[i].share;
		s->parts[i + 1].sms = parts[i].sms;
	}
	/* every class back to the rest, then the part of each in partition i split off */
	int m = 0;
	for (int i = 0; i < s->n_classes; i++)
		if (s->classes[i].alive) {
			s->classes[i].part = 0;
			s->snap[m++] = &s->classes[i];   /* not in a dispatch pass: scratch is free */
		}
	for (int i = 0; i < n; i++) {
		int k = m;
		for (int j = 0; j < k; j++) {
			struct smclass *c = s->snap[j];
			if (c->part != 0)
				continue;
			struct smclass *d = class_split(s, c, &parts[i].sms);
			if (!d)
				continue;
			d->part = i + 1;
			if (d != c)
				s->snap[m++] = d;
		}
	}
	/* the loads from the classes' DRAM and L2 demand; every user runs against its new load */
	for (int p = 0; p < s->n_parts; p++)
		s->parts[p].load = s->parts[p].l2load = 0;
	for (int i = 0; i < s->n_classes; i++) {
		struct smclass *c = &s->classes[i];
		if (!c->alive)
			continue;
		s->parts[c->part].load += c->dram * c->nsm;
		s->parts[c->part].l2load += c->l2 * c->nsm;
		if (c->chip_groups)
			class_mark_dirty(s, c);
	}
	s->dram_share = partition_in_use(s);
	s->maybe_idle = true;
	s->need_dispatch = true;
}
