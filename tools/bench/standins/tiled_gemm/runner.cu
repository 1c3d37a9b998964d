// Stand-in for a GEMM tutorial's runner (benchmark input, tools/bench): the
// kernel headers, and host functions that launch each templated kernel for
// the tile configurations a tuner would pick, by matrix size.
#include "kernels/simple.cuh"
#include "kernels/blocktiled.cuh"
#include "kernels/warptiled.cuh"

#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))

void runNaive(int M, int N, int K, float alpha, float *A, float *B, float beta, float *C) {
  dim3 Grid(CEIL_DIV(M, 32), CEIL_DIV(N, 32));
  dim3 Block(32, 32);
  gemmNaive<<<Grid, Block>>>(M, N, K, alpha, A, B, beta, C);
}

void runSharedTile(int M, int N, int K, float alpha, float *A, float *B, float beta, float *C) {
  dim3 Grid(CEIL_DIV(N, 32), CEIL_DIV(M, 32));
  gemmSharedTile<32><<<Grid, 32 * 32>>>(M, N, K, alpha, A, B, beta, C);
}

template <int BM, int BN, int BK, int TM, int TN>
void runBlocktiled(int M, int N, int K, float alpha, float *A, float *B, float beta, float *C) {
  dim3 Grid(CEIL_DIV(N, BN), CEIL_DIV(M, BM));
  dim3 Block((BM * BN) / (TM * TN));
  gemmBlocktiled<BM, BN, BK, TM, TN><<<Grid, Block>>>(M, N, K, alpha, A, B, beta, C);
  gemmVectorized<BM, BN, BK, TM, TN><<<Grid, Block>>>(M, N, K, alpha, A, B, beta, C);
}

template <int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN, int Threads>
void runWarptiled(int M, int N, int K, float alpha, float *A, float *B, float beta, float *C) {
  dim3 Grid(CEIL_DIV(N, BN), CEIL_DIV(M, BM));
  gemmWarptiled<BM, BN, BK, WM, WN, WNITER, TM, TN, Threads>
      <<<Grid, Threads>>>(M, N, K, alpha, A, B, beta, C);
}

void run(int Which, int M, int N, int K, float alpha, float *A, float *B, float beta,
         float *C) {
  switch (Which) {
  case 0:
    runNaive(M, N, K, alpha, A, B, beta, C);
    break;
  case 1:
    runSharedTile(M, N, K, alpha, A, B, beta, C);
    break;
  case 2:
    runWarptiled<128, 128, 16, 64, 64, 4, 8, 4, 128>(M, N, K, alpha, A, B, beta, C);
    break;
  case 3:
    runWarptiled<128, 256, 16, 128, 32, 1, 8, 8, 256>(M, N, K, alpha, A, B, beta, C);
    break;
  default:
    if (M >= 128 && N >= 128)
      runBlocktiled<128, 128, 8, 8, 8>(M, N, K, alpha, A, B, beta, C);
    else
      runBlocktiled<64, 64, 8, 8, 8>(M, N, K, alpha, A, B, beta, C);
    break;
  }
}
