/* LIB: ISPASS-2009 LIB (LIBOR market model), Pathcalc_Portfolio_KernelGPU2 then
 * Pathcalc_Portfolio_KernelGPU, GRID_SIZE 64 blocks of BLOCK_SIZE 64, NPATH 4096, constants as
 * the benchmark's main(). */
#include "drv.h"
#define main ispass_lib_main
#include "ispass-2009/LIB/libor.cu"
#undef main
int main()
{
	float h_lambda[NN], h_delta = 0.25f;
	int h_N = NN, h_Nmat = NMAT, h_Nopt = NOPT;
	int h_mat[] = { 4, 4, 4, 8, 8, 8, 20, 20, 20, 28, 28, 28, 40, 40, 40 };
	float h_sw[] = { .045, .05, .055, .045, .05, .055, .045, .05, .055, .045, .05, .055, .045, .05, .055 };
	for (int i = 0; i < NN; i++) h_lambda[i] = 0.2f;
	CK(cudaMemcpyToSymbol(N, &h_N, sizeof(h_N))); CK(cudaMemcpyToSymbol(Nmat, &h_Nmat, sizeof(h_Nmat)));
	CK(cudaMemcpyToSymbol(Nopt, &h_Nopt, sizeof(h_Nopt))); CK(cudaMemcpyToSymbol(delta, &h_delta, sizeof(h_delta)));
	CK(cudaMemcpyToSymbol(maturities, h_mat, sizeof(h_mat))); CK(cudaMemcpyToSymbol(swaprates, h_sw, sizeof(h_sw)));
	CK(cudaMemcpyToSymbol(lambda, h_lambda, sizeof(h_lambda)));
	float *v, *lb;
	CK(cudaMalloc(&v, sizeof(float) * NPATH)); CK(cudaMalloc(&lb, sizeof(float) * NPATH));
	dim3 b(BLOCK_SIZE), g(GRID_SIZE);
	time_pass("LIB", "Pathcalc_Portfolio_KernelGPU2", g, b, 1, 10, [&] { Pathcalc_Portfolio_KernelGPU2<<<g, b>>>(v); });
	time_pass("LIB", "Pathcalc_Portfolio_KernelGPU", g, b, 1, 10, [&] { Pathcalc_Portfolio_KernelGPU<<<g, b>>>(v, lb); });
	return 0;
}
