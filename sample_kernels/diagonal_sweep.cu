// A wavefront (anti-diagonal) sweep over a shared tile, as in dynamic
// programming kernels (Needleman-Wunsch): in step m, lanes 0..m update the
// cell (m - t + 1, t + 1) of a [17][17] int tile. Lane t's word is
// 17(m + 1) + 1 - 16t, so lanes two apart share a bank: ceil((m + 1) / 2)
// ways in step m, 4.5 on average over the 16 steps. The cell's three
// neighbours are combined by a helper that returns under branches on the
// loaded values; the sweep is still counted step by step.
#include "harness.cuh"

constexpr int B = 16;

__device__ int best_of(int a, int b, int c) {
  int k;
  if (a <= b) k = b; else k = a;
  if (k <= c) return c; else return k;
}

__global__ void diagonal_sweep(const int *in, int *out, int penalty) {
  __shared__ int tile[B + 1][B + 1];
  int tx = threadIdx.x;
  const int *src = in + blockIdx.x * (B + 1) * 32; // rows of 32 ints
  for (int r = 0; r < B + 1; ++r)
    tile[r][tx] = src[r * 32 + tx]; // expect: load in 2/2; store tile 1/1
  if (tx == 0)
    for (int r = 0; r < B + 1; ++r)
      tile[r][B] = src[r * 32 + B]; // expect: load in 1/1; store tile 1/1
  __syncthreads();
  for (int m = 0; m < B; m++) {
    if (tx <= m) {
      int x = tx + 1;
      int y = m - tx + 1;
      int nw = tile[y - 1][x - 1], w = tile[y][x - 1], n = tile[y - 1][x];
      // expect: load tile 4.5/1; load tile 4.5/1; load tile 4.5/1
      tile[y][x] = best_of(nw + penalty, w - penalty, n - penalty); // expect: store tile 4.5/1
    }
    __syncthreads();
  }
  out[blockIdx.x * B + tx] = tile[B][tx + 1]; // expect: load tile 1/1; store out 2/2
}

int main() {
  const int blocks = 4096;
  int *in = sample::alloc<int>(size_t(blocks) * (B + 1) * 32);
  int *out = sample::alloc<int>(size_t(blocks) * B);
  const double Bytes = double(blocks) * (B + 1) * (B + 1) * sizeof(int);
  sample::run("diagonal_sweep", Bytes, [&] { diagonal_sweep<<<blocks, B>>>(in, out, 3); });
  cudaFree(in);
  cudaFree(out);
  return 0;
}
