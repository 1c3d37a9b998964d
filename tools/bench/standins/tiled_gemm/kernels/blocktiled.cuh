// Stand-in (benchmark input): each thread computes a TM x TN patch from
// shared tiles; the vectorized variant loads float4 and stores A transposed.
#pragma once

template <int BM, int BN, int BK, int TM, int TN>
__global__ void gemmBlocktiled(int M, int N, int K, float alpha, const float *A,
                               const float *B, float beta, float *C) {
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  const int Threads = (BM * BN) / (TM * TN);
  const int ThreadCol = threadIdx.x % (BN / TN), ThreadRow = threadIdx.x / (BN / TN);
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  const int RowA = threadIdx.x / BK, ColA = threadIdx.x % BK;
  const int RowB = threadIdx.x / BN, ColB = threadIdx.x % BN;
  float Acc[TM * TN] = {0.0f};
  float RegM[TM], RegN[TN];
  for (int Base = 0; Base < K; Base += BK) {
    for (int Off = 0; Off < BM; Off += Threads / BK)
      As[(RowA + Off) * BK + ColA] = A[(RowA + Off) * K + ColA];
    for (int Off = 0; Off < BK; Off += Threads / BN)
      Bs[(RowB + Off) * BN + ColB] = B[(RowB + Off) * N + ColB];
    __syncthreads();
    A += BK;
    B += BK * N;
    for (int D = 0; D < BK; ++D) {
      for (int I = 0; I < TM; ++I)
        RegM[I] = As[(ThreadRow * TM + I) * BK + D];
      for (int I = 0; I < TN; ++I)
        RegN[I] = Bs[D * BN + ThreadCol * TN + I];
      for (int Y = 0; Y < TM; ++Y)
        for (int X = 0; X < TN; ++X)
          Acc[Y * TN + X] += RegM[Y] * RegN[X];
    }
    __syncthreads();
  }
  for (int Y = 0; Y < TM; ++Y)
    for (int X = 0; X < TN; ++X) {
      float &Out = C[(ThreadRow * TM + Y) * N + ThreadCol * TN + X];
      Out = alpha * Acc[Y * TN + X] + beta * Out;
    }
}

template <int BM, int BN, int BK, int TM, int TN>
__global__ void gemmVectorized(int M, int N, int K, float alpha, float *A, float *B,
                               float beta, float *C) {
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  const int ThreadCol = threadIdx.x % (BN / TN), ThreadRow = threadIdx.x / (BN / TN);
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  const int RowA = threadIdx.x / (BK / 4), ColA = threadIdx.x % (BK / 4);
  const int RowB = threadIdx.x / (BN / 4), ColB = threadIdx.x % (BN / 4);
  float Acc[TM * TN] = {0.0f};
  float RegM[TM], RegN[TN];
  for (int Base = 0; Base < K; Base += BK) {
    float4 T = reinterpret_cast<float4 *>(&A[RowA * K + ColA * 4])[0];
    As[(ColA * 4 + 0) * BM + RowA] = T.x;
    As[(ColA * 4 + 1) * BM + RowA] = T.y;
    As[(ColA * 4 + 2) * BM + RowA] = T.z;
    As[(ColA * 4 + 3) * BM + RowA] = T.w;
    reinterpret_cast<float4 *>(&Bs[RowB * BN + ColB * 4])[0] =
        reinterpret_cast<float4 *>(&B[RowB * N + ColB * 4])[0];
    __syncthreads();
    A += BK;
    B += BK * N;
    for (int D = 0; D < BK; ++D) {
      for (int I = 0; I < TM; ++I)
        RegM[I] = As[D * BM + ThreadRow * TM + I];
      for (int I = 0; I < TN; ++I)
        RegN[I] = Bs[D * BN + ThreadCol * TN + I];
      for (int Y = 0; Y < TM; ++Y)
        for (int X = 0; X < TN; ++X)
          Acc[Y * TN + X] += RegM[Y] * RegN[X];
    }
    __syncthreads();
  }
  for (int Y = 0; Y < TM; ++Y)
    for (int X = 0; X < TN; X += 4) {
      float4 V = reinterpret_cast<float4 *>(&C[(ThreadRow * TM + Y) * N + ThreadCol * TN + X])[0];
      V.x = alpha * Acc[Y * TN + X + 0] + beta * V.x;
      V.y = alpha * Acc[Y * TN + X + 1] + beta * V.y;
      V.z = alpha * Acc[Y * TN + X + 2] + beta * V.z;
      V.w = alpha * Acc[Y * TN + X + 3] + beta * V.w;
      reinterpret_cast<float4 *>(&C[(ThreadRow * TM + Y) * N + ThreadCol * TN + X])[0] = V;
    }
}
