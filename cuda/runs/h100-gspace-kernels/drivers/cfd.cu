/* CFD: Rodinia 3.1 cfd (euler3d.cu), cuda_compute_flux through the benchmark's compute_flux
 * (192 threads a block, one an element), on the run script's first mesh fvcorr.domn.097K:
 * 97046 elements padded to 97152 = 506 x 192 as its main pads them.  The mesh file is not in
 * the mirror; ASSUMPTION: every element has 4 interior neighbours drawn uniformly within
 * +-2048 elements of its own index (mesh numbering keeps neighbours close) and random unit
 * normals; the free-stream constants as its main sets them (Mach 1.2, angle 0). */
#include "drv.h"
#define main rodinia_cfd_main
#include "rodinia/3.1/cuda/cfd/euler3d.cu"
#undef main
int main()
{
	const int nelr = 97152;
	float ffv[NVAR];
	ffv[VAR_DENSITY] = 1.4f;
	float pr = 1.0f, c = std::sqrt(GAMMA * pr / ffv[VAR_DENSITY]), sp = ff_mach * c;
	float3 vel = make_float3(sp, 0, 0), mom = make_float3(ffv[VAR_DENSITY] * sp, 0, 0);
	ffv[VAR_MOMENTUM + 0] = mom.x; ffv[VAR_MOMENTUM + 1] = 0; ffv[VAR_MOMENTUM + 2] = 0;
	ffv[VAR_DENSITY_ENERGY] = ffv[VAR_DENSITY] * (0.5f * sp * sp) + pr / (GAMMA - 1.0f);
	float3 fx, fy, fz, fe;
	compute_flux_contribution(ffv[VAR_DENSITY], mom, ffv[VAR_DENSITY_ENERGY], pr, vel, fx, fy, fz, fe);
	CK(cudaMemcpyToSymbol(ff_variable, ffv, sizeof(ffv)));
	CK(cudaMemcpyToSymbol(ff_flux_contribution_momentum_x, &fx, sizeof(fx)));
	CK(cudaMemcpyToSymbol(ff_flux_contribution_momentum_y, &fy, sizeof(fy)));
	CK(cudaMemcpyToSymbol(ff_flux_contribution_momentum_z, &fz, sizeof(fz)));
	CK(cudaMemcpyToSymbol(ff_flux_contribution_density_energy, &fe, sizeof(fe)));
	std::vector<int> ese((size_t)nelr * NNB);
	std::vector<float> nrm((size_t)nelr * NNB * NDIM);
	unsigned s = 19;
	for (int i = 0; i < nelr; i++)
		for (int j = 0; j < NNB; j++) {
			int nb = i + (int)(4096 * frand(&s)) - 2048;
			ese[i + j * nelr] = nb < 0 ? -nb : nb >= nelr ? 2 * nelr - nb - 1 : nb;
			float a = 6.2831853f * frand(&s), z = 2 * frand(&s) - 1, r = std::sqrt(1 - z * z);
			nrm[i + (j + 0 * NNB) * nelr] = r * std::cos(a);
			nrm[i + (j + 1 * NNB) * nelr] = r * std::sin(a);
			nrm[i + (j + 2 * NNB) * nelr] = z;
		}
	int *dese = alloc<int>(nelr * NNB);
	float *dn = alloc<float>(nelr * NNB * NDIM), *var = alloc<float>(nelr * NVAR), *flux = alloc<float>(nelr * NVAR);
	upload(dese, ese.data(), nelr * NNB);
	upload(dn, nrm.data(), nelr * NNB * NDIM);
	initialize_variables(nelr, var);
	initialize_variables(nelr, flux);
	CKL();
	time_pass("CFD", "cuda_compute_flux", dim3(nelr / BLOCK_SIZE_3), dim3(BLOCK_SIZE_3), 1, 20,
		  [&] { compute_flux(nelr, dese, dn, var, flux); });
	return 0;
}
