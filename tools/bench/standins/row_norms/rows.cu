// Stand-in for a trainer's row-wise kernels (benchmark input, tools/bench,
// issue 35): normalisations and softmaxes of an (N, C) matrix written three
// ways (a row per thread with loops over every column, a warp per row with
// cooperative groups striding by the warp, a block per row with a shared
// reduction), each launched by its correctness check for every block size
// from 32 to 1024. The loops over columns are what made such files cost
// many times clang's parse: 768 and 50,257 iterations per thread, run
// again for every warp and block size.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <math.h>

namespace cg = cooperative_groups;

// A row per thread: three passes over the row.
__global__ void normRowPerThread(float *Out, float *Mean, float *Rstd, const float *In,
                                 const float *Weight, const float *Bias, int N, int C) {
  int Row = blockIdx.x * blockDim.x + threadIdx.x;
  if (Row >= N)
    return;
  const float *X = In + Row * C;
  float M = 0.0f;
  for (int I = 0; I < C; I++)
    M += X[I];
  M = M / C;
  float V = 0.0f;
  for (int I = 0; I < C; I++) {
    float D = X[I] - M;
    V += D * D;
  }
  float S = rsqrtf(V / C + 1e-5f);
  float *Y = Out + Row * C;
  for (int I = 0; I < C; I++)
    Y[I] = S * (X[I] - M) * Weight[I] + Bias[I];
  Mean[Row] = M;
  Rstd[Row] = S;
}

// A warp per row, striding by the warp's size.
__global__ void normWarpPerRow(float *Out, const float *In, const float *Weight,
                               const float *Bias, int N, int C) {
  cg::thread_block Block = cg::this_thread_block();
  cg::thread_block_tile<32> Warp = cg::tiled_partition<32>(Block);
  int Row = blockIdx.x * Warp.meta_group_size() + Warp.meta_group_rank();
  if (Row >= N)
    return;
  const float *X = In + Row * C;
  float Sum = 0.0f;
  for (int I = Warp.thread_rank(); I < C; I += Warp.size())
    Sum += X[I];
  float M = cg::reduce(Warp, Sum, cg::plus<float>{}) / C;
  float *Y = Out + Row * C;
  for (int I = Warp.thread_rank(); I < C; I += Warp.size())
    Y[I] = (X[I] - M) * Weight[I] + Bias[I];
}

// Softmax over a long row, a row per thread (online: one pass for the
// maximum and the sum).
__global__ void softmaxRowPerThread(float *Out, const float *In, int N, int C) {
  int Row = blockIdx.x * blockDim.x + threadIdx.x;
  if (Row >= N)
    return;
  const float *X = In + Row * C;
  float Max = -INFINITY, Sum = 0.0f;
  for (int J = 0; J < C; J++) {
    float Prev = Max;
    Max = fmaxf(Max, X[J]);
    Sum = Sum * expf(Prev - Max) + expf(X[J] - Max);
  }
  for (int J = 0; J < C; J++)
    Out[Row * C + J] = expf(X[J] - Max) / Sum;
}

// Softmax, a block per row: strided loads, a shared tree reduction.
__global__ void softmaxBlockPerRow(float *Out, const float *In, int N, int C) {
  extern __shared__ float Part[];
  int Row = blockIdx.x, Tid = threadIdx.x;
  const float *X = In + Row * C;
  float Max = -INFINITY;
  for (int I = Tid; I < C; I += blockDim.x)
    Max = fmaxf(Max, X[I]);
  Part[Tid] = Max;
  __syncthreads();
  for (int Stride = blockDim.x / 2; Stride >= 1; Stride /= 2) {
    if (Tid < Stride)
      Part[Tid] = fmaxf(Part[Tid], Part[Tid + Stride]);
    __syncthreads();
  }
  Max = Part[0];
  for (int I = Tid; I < C; I += blockDim.x)
    Out[Row * C + I] = expf(X[I] - Max);
}

void checkAll(float *Out, float *Mean, float *Rstd, const float *In, const float *W,
              const float *B, const float *Logits, float *Probs) {
  const int N = 8 * 1024, C = 768, V = 50257, Rows = 8 * 64;
  int BlockSizes[] = {32, 64, 128, 256, 512, 1024};
  for (int J = 0; J < 6; J++) {
    int Bs = BlockSizes[J];
    normRowPerThread<<<(N + Bs - 1) / Bs, Bs>>>(Out, Mean, Rstd, In, W, B, N, C);
    normWarpPerRow<<<(N * 32 + Bs - 1) / Bs, Bs>>>(Out, In, W, B, N, C);
    softmaxRowPerThread<<<(Rows + Bs - 1) / Bs, Bs>>>(Probs, Logits, Rows, V);
    softmaxBlockPerRow<<<Rows, Bs, Bs * sizeof(float)>>>(Probs, Logits, Rows, V);
  }
}
