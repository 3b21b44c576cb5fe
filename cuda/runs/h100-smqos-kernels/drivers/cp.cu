/* CP: Parboil cutcp, cuda_cutoff_potential_lattice6overlap through the benchmark's own host
 * function (binning, one launch per z-region slab).  Input: the 'small' dataset
 * watbox.sl40.pqr is not in the mirror; ASSUMPTION: a 40 A cubic box of 6400 atoms (0.1 atoms
 * per A^3, liquid water's 0.0334 molecules/A^3 x 3 atoms) at uniform random positions, charges
 * +-0.417 alternating.  Lattice spacing 0.5, cutoff 12, padding 0.5: the benchmark's main.c. */
#include "drv.h"
#include "parboil/benchmarks/cutcp/src/cuda/cutoff6overlap.cu"
#include "parboil/benchmarks/cutcp/src/cuda/cutcpu.c"   /* the atoms a full bin leaves to the CPU */
extern "C" void free_atom(Atoms *a) { (void)a; }   /* readatom.c's; our atoms outlive the call */
extern "C" void get_atom_extent(Vec3 *lo, Vec3 *hi, Atoms *a)   /* readatom.c's: the atoms' box */
{
	*lo = *hi = (Vec3){ a->atoms[0].x, a->atoms[0].y, a->atoms[0].z };
	for (int i = 1; i < a->size; i++) {
		lo->x = fminf(lo->x, a->atoms[i].x); lo->y = fminf(lo->y, a->atoms[i].y); lo->z = fminf(lo->z, a->atoms[i].z);
		hi->x = fmaxf(hi->x, a->atoms[i].x); hi->y = fmaxf(hi->y, a->atoms[i].y); hi->z = fmaxf(hi->z, a->atoms[i].z);
	}
}
int main()
{
	const int n = 6400;
	const float side = 40.f, h = 0.5f, cutoff = 12.f, pad = 0.5f;
	Atoms a;
	a.size = n;
	a.atoms = (Atom *)malloc(sizeof(Atom) * n);
	unsigned s = 40;
	for (int i = 0; i < n; i++) {
		a.atoms[i].x = side * frand(&s); a.atoms[i].y = side * frand(&s); a.atoms[i].z = side * frand(&s);
		a.atoms[i].q = (i & 1) ? 0.417f : -0.417f;
	}
	/* main.c: bounding box of the atoms, padded, sampled every h (lattice_from_bounding_box) */
	Lattice lat;
	lat.dim.lo.x = lat.dim.lo.y = lat.dim.lo.z = -pad;
	lat.dim.nx = lat.dim.ny = lat.dim.nz = (int)floorf((side + 2 * pad) / h) + 1;
	lat.dim.h = h;
	size_t cells = (size_t)((lat.dim.nx + 7) & ~7) * ((lat.dim.ny + 7) & ~7) * ((lat.dim.nz + 7) & ~7);
	lat.lattice = (float *)calloc(cells, sizeof(float));
	struct pb_TimerSet t;
	int zr = (int)ceilf(lat.dim.nz / 8.f);
	dim3 g((int)ceilf(lat.dim.nx / 8.f), (int)ceilf(lat.dim.ny / 8.f)); /* cutoff6overlap.cu: xRegionDim x yRegionDim */
	time_pass("CP", "cuda_cutoff_potential_lattice6overlap", g, dim3(8, 2, 8), zr, 5, [&] {
		if (gpu_compute_cutoff_potential_lattice6overlap(&t, &lat, cutoff, &a, 0)) exit(1);
	});
	return 0;
}
