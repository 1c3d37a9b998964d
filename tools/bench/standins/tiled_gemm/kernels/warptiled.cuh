// Stand-in (benchmark input): a warp-tiled GEMM with double-buffered shared
// tiles; each warp owns a WM x WN patch in WNITER sub-tiles, and the dot
// products run in a device function over register arrays passed by pointer.
#pragma once

namespace warptile {

template <int BM, int BN, int BK, int Threads>
__device__ void loadTiles(int N, int K, const float *A, const float *B, float *As,
                          float *Bs) {
  const int RowA = threadIdx.x / (BK / 4), ColA = threadIdx.x % (BK / 4);
  const int RowB = threadIdx.x / (BN / 4), ColB = threadIdx.x % (BN / 4);
  for (int Off = 0; Off + Threads * 4 / BK <= BM; Off += Threads * 4 / BK) {
    const float4 T = reinterpret_cast<const float4 *>(&A[(RowA + Off) * K + ColA * 4])[0];
    As[(ColA * 4 + 0) * BM + RowA + Off] = T.x;
    As[(ColA * 4 + 1) * BM + RowA + Off] = T.y;
    As[(ColA * 4 + 2) * BM + RowA + Off] = T.z;
    As[(ColA * 4 + 3) * BM + RowA + Off] = T.w;
  }
  for (int Off = 0; Off + Threads * 4 / BN <= BK; Off += Threads * 4 / BN)
    reinterpret_cast<float4 *>(&Bs[(RowB + Off) * BN + ColB * 4])[0] =
        reinterpret_cast<const float4 *>(&B[(RowB + Off) * N + ColB * 4])[0];
}

template <int BM, int BN, int BK, int WM, int WN, int WMITER, int WNITER, int TM, int TN>
__device__ void dotTiles(float *RegM, float *RegN, float *Acc, const float *As,
                         const float *Bs, int WarpRow, int WarpCol, int LaneRow,
                         int LaneCol) {
  for (int D = 0; D < BK; ++D) {
    for (int Sub = 0; Sub < WMITER; ++Sub)
      for (int I = 0; I < TM; ++I)
        RegM[Sub * TM + I] =
            As[D * BM + WarpRow * WM + Sub * (WM / WMITER) + LaneRow * TM + I];
    for (int Sub = 0; Sub < WNITER; ++Sub)
      for (int I = 0; I < TN; ++I)
        RegN[Sub * TN + I] =
            Bs[D * BN + WarpCol * WN + Sub * (WN / WNITER) + LaneCol * TN + I];
    for (int SubM = 0; SubM < WMITER; ++SubM)
      for (int SubN = 0; SubN < WNITER; ++SubN)
        for (int Y = 0; Y < TM; ++Y)
          for (int X = 0; X < TN; ++X)
            Acc[(SubM * TM + Y) * (WNITER * TN) + SubN * TN + X] +=
                RegM[SubM * TM + Y] * RegN[SubN * TN + X];
  }
}

} // namespace warptile

template <int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN, int Threads>
__global__ void __launch_bounds__(Threads)
    gemmWarptiled(int M, int N, int K, float alpha, const float *A, const float *B,
                  float beta, float *C) {
  constexpr int WMITER = (WM * WN) / (32 * TM * TN * WNITER);
  const int Warp = threadIdx.x / 32;
  const int WarpCol = Warp % (BN / WN), WarpRow = Warp / (BN / WN);
  const int Lane = threadIdx.x % 32;
  const int LaneCol = Lane % ((WN / WNITER) / TN), LaneRow = Lane / ((WN / WNITER) / TN);
  __shared__ float As[2][BM * BK];
  __shared__ float Bs[2][BK * BN];
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += (blockIdx.y * BM + WarpRow * WM) * N + blockIdx.x * BN + WarpCol * WN;
  float Acc[WMITER * TM * WNITER * TN] = {0.0f};
  float RegM[WMITER * TM] = {0.0f};
  float RegN[WNITER * TN] = {0.0f};
  int Buf = 0;
  warptile::loadTiles<BM, BN, BK, Threads>(N, K, A, B, As[0], Bs[0]);
  __syncthreads();
  for (int Base = 0; Base < K; Base += BK) {
    if (Base + BK < K)
      warptile::loadTiles<BM, BN, BK, Threads>(N, K, A + BK, B + BK * N, As[1 - Buf],
                                                Bs[1 - Buf]);
    warptile::dotTiles<BM, BN, BK, WM, WN, WMITER, WNITER, TM, TN>(
        RegM, RegN, Acc, As[Buf], Bs[Buf], WarpRow, WarpCol, LaneRow, LaneCol);
    A += BK;
    B += BK * N;
    Buf = 1 - Buf;
    __syncthreads();
  }
  for (int SubM = 0; SubM < WMITER; ++SubM)
    for (int SubN = 0; SubN < WNITER; ++SubN) {
      float *Out = C + SubM * (WM / WMITER) * N + SubN * (WN / WNITER);
      for (int Y = 0; Y < TM; ++Y)
        for (int X = 0; X < TN; X += 4) {
          float4 T = reinterpret_cast<float4 *>(&Out[(LaneRow * TM + Y) * N + LaneCol * TN + X])[0];
          const int I = (SubM * TM + Y) * (WNITER * TN) + SubN * TN + X;
          T.x = alpha * Acc[I + 0] + beta * T.x;
          T.y = alpha * Acc[I + 1] + beta * T.y;
          T.z = alpha * Acc[I + 2] + beta * T.z;
          T.w = alpha * Acc[I + 3] + beta * T.w;
          reinterpret_cast<float4 *>(&Out[(LaneRow * TM + Y) * N + LaneCol * TN + X])[0] = T;
        }
    }
}
