// Stand-in for a tutorial GEMM project (benchmark input, tools/bench): the
// first steps, one output element per thread.
#pragma once

__global__ void gemmNaive(int M, int N, int K, float alpha, const float *A, const float *B,
                          float beta, float *C) {
  const int Row = blockIdx.x * blockDim.x + threadIdx.x;
  const int Col = blockIdx.y * blockDim.y + threadIdx.y;
  if (Row < M && Col < N) {
    float Acc = 0.0f;
    for (int I = 0; I < K; ++I)
      Acc += A[Row * K + I] * B[I * N + Col];
    C[Row * N + Col] = alpha * Acc + beta * C[Row * N + Col];
  }
}

template <int Tile>
__global__ void gemmSharedTile(int M, int N, int K, float alpha, const float *A,
                               const float *B, float beta, float *C) {
  __shared__ float As[Tile * Tile];
  __shared__ float Bs[Tile * Tile];
  const int Ty = threadIdx.x / Tile, Tx = threadIdx.x % Tile;
  A += blockIdx.y * Tile * K;
  B += blockIdx.x * Tile;
  C += blockIdx.y * Tile * N + blockIdx.x * Tile;
  float Acc = 0.0f;
  for (int Base = 0; Base < K; Base += Tile) {
    As[Ty * Tile + Tx] = A[Ty * K + Tx];
    Bs[Ty * Tile + Tx] = B[Ty * N + Tx];
    __syncthreads();
    A += Tile;
    B += Tile * N;
    for (int I = 0; I < Tile; ++I)
      Acc += As[Ty * Tile + I] * Bs[I * Tile + Tx];
    __syncthreads();
  }
  C[Ty * N + Tx] = alpha * Acc + beta * C[Ty * N + Tx];
}
