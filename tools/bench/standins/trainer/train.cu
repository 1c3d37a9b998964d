// Stand-in for a small GPT trainer (benchmark input, tools/bench): the
// forward and backward kernels of a transformer block and the optimizer,
// each launched from a host function with the model's run-time sizes.
#include "common.cuh"
#include <cmath>

__global__ void encoderForward(float *Out, const int *Tokens, const float *Wte,
                               const float *Wpe, int B, int T, int C) {
  int Idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (Idx >= B * T * C)
    return;
  int BT = Idx / C, Col = Idx % C, Pos = BT % T;
  Out[Idx] = Wte[Tokens[BT] * C + Col] + Wpe[Pos * C + Col];
}

__global__ void layernormForward(float *Out, float *Mean, float *Rstd, const float *In,
                                 const float *Weight, const float *Bias, int N, int C) {
  cg::thread_block Block = cg::this_thread_block();
  cg::thread_block_tile<32> Warp = cg::tiled_partition<32>(Block);
  int Row = blockIdx.x * Warp.meta_group_size() + Warp.meta_group_rank();
  if (Row >= N)
    return;
  const float *X = In + Row * C;
  float Sum = 0.0f;
  for (int I = Warp.thread_rank(); I < C; I += Warp.size())
    Sum += X[I];
  float M = warpSum(Warp, Sum) / C;
  float Var = 0.0f;
  for (int I = Warp.thread_rank(); I < C; I += Warp.size()) {
    float D = X[I] - M;
    Var += D * D;
  }
  float S = rsqrtf(warpSum(Warp, Var) / C + 1e-5f);
  if (Warp.thread_rank() == 0) {
    Mean[Row] = M;
    Rstd[Row] = S;
  }
  float *Y = Out + Row * C;
  for (int I = Warp.thread_rank(); I < C; I += Warp.size())
    Y[I] = (X[I] - M) * S * Weight[I] + Bias[I];
}

template <int Tile>
__global__ void matmulForward(float *Out, const float *In, const float *W, const float *Bias,
                              int BT, int C, int OC) {
  __shared__ float As[Tile][Tile];
  __shared__ float Ws[Tile][Tile + 1];
  int Row = blockIdx.y * Tile + threadIdx.y, Col = blockIdx.x * Tile + threadIdx.x;
  float Acc = 0.0f;
  for (int K = 0; K < C; K += Tile) {
    As[threadIdx.y][threadIdx.x] = In[Row * C + K + threadIdx.x];
    Ws[threadIdx.y][threadIdx.x] = W[Col * C + K + threadIdx.y];
    __syncthreads();
    for (int I = 0; I < Tile; ++I)
      Acc += As[threadIdx.y][I] * Ws[I][threadIdx.x];
    __syncthreads();
  }
  if (Row < BT && Col < OC)
    Out[Row * OC + Col] = Acc + (Bias ? Bias[Col] : 0.0f);
}

__global__ void softmaxForward(float *Out, const float *In, int N, int T) {
  cg::thread_block Block = cg::this_thread_block();
  cg::thread_block_tile<32> Warp = cg::tiled_partition<32>(Block);
  int Row = blockIdx.x * Warp.meta_group_size() + Warp.meta_group_rank();
  if (Row >= N)
    return;
  const float4 *X = reinterpret_cast<const float4 *>(In + Row * T);
  float Max = -INFINITY;
  for (int I = Warp.thread_rank(); I < T / 4; I += 32) {
    float4 V = X[I];
    Max = fmaxf(Max, fmaxf(fmaxf(V.x, V.y), fmaxf(V.z, V.w)));
  }
  Max = cg::reduce(Warp, Max, cg::greater<float>());
  float Sum = 0.0f;
  for (int I = Warp.thread_rank(); I < T / 4; I += 32) {
    float4 V = X[I];
    Sum += expf(V.x - Max) + expf(V.y - Max) + expf(V.z - Max) + expf(V.w - Max);
  }
  Sum = warpSum(Warp, Sum);
  float4 *Y = reinterpret_cast<float4 *>(Out + Row * T);
  for (int I = Warp.thread_rank(); I < T / 4; I += 32) {
    float4 V = X[I];
    Y[I] = make_float4(expf(V.x - Max) / Sum, expf(V.y - Max) / Sum, expf(V.z - Max) / Sum,
                       expf(V.w - Max) / Sum);
  }
}

__global__ void residualForward(float *Out, const float *A, const float *B, int N) {
  for (int I = blockIdx.x * blockDim.x + threadIdx.x; I < N; I += gridDim.x * blockDim.x)
    Out[I] = A[I] + B[I];
}

__global__ void geluForward(float *Out, const float *In, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N) {
    float X = In[I];
    Out[I] = 0.5f * X * (1.0f + tanhf(0.7978845f * (X + 0.044715f * X * X * X)));
  }
}

__global__ void crossEntropy(float *Losses, const float *Probs, const int *Targets, int BT,
                             int V) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < BT)
    Losses[I] = -logf(Probs[I * V + Targets[I]]);
}

__global__ void adamw(float *Params, const float *Grads, float *M, float *V, long N, float Lr,
                      float B1, float B2, float Eps, float Decay, int Step) {
  long I = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  float G = Grads[I];
  float Mi = B1 * M[I] + (1.0f - B1) * G;
  float Vi = B2 * V[I] + (1.0f - B2) * G * G;
  M[I] = Mi;
  V[I] = Vi;
  float MHat = Mi / (1.0f - powf(B1, Step)), VHat = Vi / (1.0f - powf(B2, Step));
  Params[I] -= Lr * (MHat / (sqrtf(VHat) + Eps) + Decay * Params[I]);
}

struct Model {
  int B, T, C, V;
  float *Act, *Ln, *Mean, *Rstd, *Wte, *Wpe, *W, *Bias, *Logits, *Probs, *Losses, *Params,
      *Grads, *M, *Vel;
  int *Tokens, *Targets;
  long NumParams;
};

void forward(Model &Md) {
  const int BT = Md.B * Md.T, C = Md.C;
  encoderForward<<<CEIL_DIV(BT * C, 256), 256>>>(Md.Act, Md.Tokens, Md.Wte, Md.Wpe, Md.B,
                                                 Md.T, C);
  layernormForward<<<CEIL_DIV(BT, 8), 256>>>(Md.Ln, Md.Mean, Md.Rstd, Md.Act, Md.W, Md.Bias,
                                             BT, C);
  matmulForward<16><<<dim3(CEIL_DIV(3 * C, 16), CEIL_DIV(BT, 16)), dim3(16, 16)>>>(
      Md.Logits, Md.Ln, Md.W, Md.Bias, BT, C, 3 * C);
  softmaxForward<<<CEIL_DIV(BT * Md.T, 8), 256>>>(Md.Probs, Md.Logits, BT * Md.T, Md.T);
  residualForward<<<CEIL_DIV(BT * C, 512), 512>>>(Md.Act, Md.Act, Md.Ln, BT * C);
  geluForward<<<CEIL_DIV(BT * 4 * C, 128), 128>>>(Md.Ln, Md.Act, BT * 4 * C);
  matmulForward<32><<<dim3(CEIL_DIV(Md.V, 32), CEIL_DIV(BT, 32)), dim3(32, 32)>>>(
      Md.Logits, Md.Ln, Md.Wte, nullptr, BT, C, Md.V);
  crossEntropy<<<CEIL_DIV(BT, 128), 128>>>(Md.Losses, Md.Probs, Md.Targets, BT, Md.V);
  CHECK(cudaGetLastError());
}

void update(Model &Md, float Lr, int Step) {
  adamw<<<CEIL_DIV(Md.NumParams, 512), 512>>>(Md.Params, Md.Grads, Md.M, Md.Vel, Md.NumParams,
                                              Lr, 0.9f, 0.999f, 1e-8f, 0.0f, Step);
  CHECK(cudaGetLastError());
}

int main(int Argc, char **Argv) {
  Model Md{};
  Md.B = Argc > 1 ? std::atoi(Argv[1]) : 4;
  Md.T = Argc > 2 ? std::atoi(Argv[2]) : 1024;
  Md.C = 768;
  Md.V = 50304;
  for (int Step = 1; Step <= 10; ++Step) {
    forward(Md);
    update(Md, 3e-4f, Step);
  }
  return 0;
}
