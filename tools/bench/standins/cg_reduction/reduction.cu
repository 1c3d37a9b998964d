// Stand-in for a CUDA sample's reductions (benchmark input, tools/bench):
// seven kernels of growing refinement, templated on the block size and on
// whether the element count is a power of two, written with cooperative
// groups, and a host function that launches each for every block size
// a tuner may pick. Most of the parse is the cooperative-groups headers.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

template <class T> struct SharedMemory {
  __device__ T *get() {
    extern __shared__ int Storage[];
    return reinterpret_cast<T *>(Storage);
  }
};

template <class T> __global__ void reduceInterleaved(const T *In, T *Out, unsigned N) {
  cg::thread_block Block = cg::this_thread_block();
  T *S = SharedMemory<T>().get();
  unsigned Tid = threadIdx.x, I = blockIdx.x * blockDim.x + threadIdx.x;
  S[Tid] = I < N ? In[I] : 0;
  cg::sync(Block);
  for (unsigned Step = 1; Step < blockDim.x; Step *= 2) {
    if (Tid % (2 * Step) == 0)
      S[Tid] += S[Tid + Step];
    cg::sync(Block);
  }
  if (Tid == 0)
    Out[blockIdx.x] = S[0];
}

template <class T> __global__ void reduceStrided(const T *In, T *Out, unsigned N) {
  cg::thread_block Block = cg::this_thread_block();
  T *S = SharedMemory<T>().get();
  unsigned Tid = threadIdx.x, I = blockIdx.x * blockDim.x + threadIdx.x;
  S[Tid] = I < N ? In[I] : 0;
  cg::sync(Block);
  for (unsigned Step = 1; Step < blockDim.x; Step *= 2) {
    unsigned Index = 2 * Step * Tid;
    if (Index < blockDim.x)
      S[Index] += S[Index + Step];
    cg::sync(Block);
  }
  if (Tid == 0)
    Out[blockIdx.x] = S[0];
}

template <class T> __global__ void reduceSequential(const T *In, T *Out, unsigned N) {
  cg::thread_block Block = cg::this_thread_block();
  T *S = SharedMemory<T>().get();
  unsigned Tid = threadIdx.x, I = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  T Sum = I < N ? In[I] : 0;
  if (I + blockDim.x < N)
    Sum += In[I + blockDim.x];
  S[Tid] = Sum;
  cg::sync(Block);
  for (unsigned Half = blockDim.x / 2; Half > 0; Half >>= 1) {
    if (Tid < Half)
      S[Tid] = Sum = Sum + S[Tid + Half];
    cg::sync(Block);
  }
  if (Tid == 0)
    Out[blockIdx.x] = Sum;
}

template <class T, unsigned BlockSize>
__global__ void reduceUnrolled(const T *In, T *Out, unsigned N) {
  cg::thread_block Block = cg::this_thread_block();
  T *S = SharedMemory<T>().get();
  unsigned Tid = threadIdx.x, I = blockIdx.x * (BlockSize * 2) + threadIdx.x;
  T Sum = I < N ? In[I] : 0;
  if (I + BlockSize < N)
    Sum += In[I + BlockSize];
  S[Tid] = Sum;
  cg::sync(Block);
  for (unsigned Half = blockDim.x / 2; Half > 32; Half >>= 1) {
    if (Tid < Half)
      S[Tid] = Sum = Sum + S[Tid + Half];
    cg::sync(Block);
  }
  cg::thread_block_tile<32> Warp = cg::tiled_partition<32>(Block);
  if (Block.thread_rank() < 32) {
    if (BlockSize >= 64)
      Sum += S[Tid + 32];
    for (int Offset = Warp.size() / 2; Offset > 0; Offset /= 2)
      Sum += Warp.shfl_down(Sum, Offset);
  }
  if (Block.thread_rank() == 0)
    Out[blockIdx.x] = Sum;
}

template <class T, unsigned BlockSize, bool Pow2>
__global__ void reduceGridStride(const T *In, T *Out, unsigned N) {
  cg::thread_block Block = cg::this_thread_block();
  T *S = SharedMemory<T>().get();
  unsigned Tid = threadIdx.x, GridSize = BlockSize * gridDim.x;
  T Sum = 0;
  if (Pow2) {
    unsigned I = blockIdx.x * BlockSize * 2 + threadIdx.x;
    GridSize = GridSize << 1;
    while (I < N) {
      Sum += In[I];
      if (I + BlockSize < N)
        Sum += In[I + BlockSize];
      I += GridSize;
    }
  } else {
    unsigned I = blockIdx.x * BlockSize + threadIdx.x;
    while (I < N) {
      Sum += In[I];
      I += GridSize;
    }
  }
  cg::thread_block_tile<32> Warp = cg::tiled_partition<32>(Block);
  Sum = cg::reduce(Warp, Sum, cg::plus<T>());
  if (Warp.thread_rank() == 0)
    S[Tid / 32] = Sum;
  cg::sync(Block);
  if (Block.thread_rank() < 32) {
    Sum = Block.thread_rank() < BlockSize / 32 ? S[Block.thread_rank()] : 0;
    Sum = cg::reduce(Warp, Sum, cg::plus<T>());
    if (Warp.thread_rank() == 0)
      Out[blockIdx.x] = Sum;
  }
}

template <class T, unsigned BlockSize>
void launchFor(int Which, int Blocks, const T *In, T *Out, unsigned N) {
  const int Shared = BlockSize * sizeof(T);
  switch (Which) {
  case 0:
    reduceInterleaved<T><<<Blocks, BlockSize, Shared>>>(In, Out, N);
    break;
  case 1:
    reduceStrided<T><<<Blocks, BlockSize, Shared>>>(In, Out, N);
    break;
  case 2:
    reduceSequential<T><<<Blocks, BlockSize, Shared>>>(In, Out, N);
    break;
  case 3:
    reduceUnrolled<T, BlockSize><<<Blocks, BlockSize, Shared>>>(In, Out, N);
    break;
  default:
    if ((N & (N - 1)) == 0)
      reduceGridStride<T, BlockSize, true><<<Blocks, BlockSize, Shared>>>(In, Out, N);
    else
      reduceGridStride<T, BlockSize, false><<<Blocks, BlockSize, Shared>>>(In, Out, N);
    break;
  }
}

template <class T>
void reduce(int Which, int Threads, int Blocks, const T *In, T *Out, unsigned N) {
  switch (Threads) {
  case 1024:
    launchFor<T, 1024>(Which, Blocks, In, Out, N);
    break;
  case 512:
    launchFor<T, 512>(Which, Blocks, In, Out, N);
    break;
  case 256:
    launchFor<T, 256>(Which, Blocks, In, Out, N);
    break;
  case 128:
    launchFor<T, 128>(Which, Blocks, In, Out, N);
    break;
  default:
    launchFor<T, 64>(Which, Blocks, In, Out, N);
    break;
  }
}

template void reduce<int>(int, int, int, const int *, int *, unsigned);
template void reduce<float>(int, int, int, const float *, float *, unsigned);
template void reduce<double>(int, int, int, const double *, double *, unsigned);
