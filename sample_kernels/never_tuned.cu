// Constructs of code this project was not tuned on (ggml's CUDA backend,
// CUB, flash-attention-minimal), written as our own kernels: a store in a
// loop nest with run-time trip counts (the pointer stored through does not
// change), compile-time constants read through objects, struct values
// returned by helpers, fast division by magic numbers (__umulhi), a value
// stream-K resets after its first tile (the same on every lane), a table
// declared `static const __device__` (global memory, though clang marks it
// __constant__), nvcc's built-in atomic load and store, and tiles of
// extern shared memory at a run-time offset, which ptxas cannot prove 8-byte
// aligned and so does not merge.
#include "harness.cuh"

constexpr int N = 1 << 20;

// A store through `out` in a nest whose inner trip count is a run-time value.
__global__ void nest_store(const float *a, float *out, int n) {
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++)
      out[blockIdx.x * 256 + threadIdx.x] = a[blockIdx.x * 256 + threadIdx.x]; // expect: load a 4/4; store out 4/4
}

template <int N_> struct tile {
  static constexpr int I = N_;
  static constexpr int ne = N_ * 2;
};
struct cfg {
  int rows, stride;
};
constexpr cfg kCfg = {4, 8};

// Static members read through an object, fields of a constexpr object.
__global__ void constants(const float *in, float *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile<8> t;
  out[i] = in[i % t.I] + in[i * kCfg.rows + t.ne]; // expect: load in 1/1; load in 16/4; store out 4/4
}

// A quotient and remainder returned together (ggml's fast_div_modulo).
__device__ uint2 divmod(unsigned n, unsigned d) { return make_uint2(n / d, n % d); }

__global__ void struct_values(const float *in, float *out) {
  const uint2 t = divmod(threadIdx.x, 4);
  out[blockIdx.x * 256 + t.y * 64 + t.x] = in[blockIdx.x * 256 + threadIdx.x]; // expect: store out 4/4; load in 4/4
}

// n / 3 by magic numbers: (umulhi(n, mp) + n) >> L with L = 2,
// mp = 2^32 * (2^2 - 3) / 3 + 1. Blocks of 96 threads: i / 3 is
// 32 * blockIdx.x + threadIdx.x / 3.
__device__ unsigned fastdiv3(unsigned n) { return (__umulhi(n, 1431655766u) + n) >> 2; }

__global__ void magic_division(const float *in, float *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[fastdiv3(i)]; // expect: load in 2/2; store out 4/4
}

// Tiles of a row, the first starting at `start`, the others at 0: `start`
// is the same on every lane.
__global__ void stream_k(const float *in, float *out, int iters) {
  int kbc = blockIdx.x * iters;
  const int stop = kbc + iters;
  int start = kbc % 3;
  while (kbc < stop) {
    out[kbc * 32 + threadIdx.x] += in[start * 32 + threadIdx.x]; // expect: load out 4/4; load in 4/4; store out 4/4
    kbc += 3 - start;
    start = 0;
  }
}

static const __device__ signed char tbl[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

// A const __device__ table: global memory, 16 bytes in one sector.
__global__ void device_table(float *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = tbl[threadIdx.x % 16]; // expect: load tbl 1/1; store out 4/4
}

// nvcc's built-in atomic load and store: a load and a store of the address.
__global__ void nv_atomics(unsigned *p, unsigned *q) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned v = __nv_atomic_load_n(p + i, __NV_ATOMIC_RELAXED); // expect: load p 4/4
  __nv_atomic_store_n(q + 2 * i, v, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE); // expect: store q 8/4
}

// Rows of d floats per thread in tiles of dynamic shared memory at a
// run-time offset (flash-attention-minimal): d = 64 puts every lane in bank
// 0; consecutive iterations write adjacent words, but ptxas cannot prove
// the pair 8-byte aligned (the tile starts `off` floats in), so each is its own
// STS.
__global__ void shared_tiles(const float *k, float *out, int off, int d) {
  extern __shared__ float sram[];
  float *Kj = &sram[off];
  for (int x = 0; x < d; x++)
    Kj[threadIdx.x * d + x] = k[blockIdx.x * 32 * d + threadIdx.x * d + x];
  // expect: store sram 32/1; load k 32/4
  __syncthreads();
  float acc = 0.0f;
  for (int x = 0; x < d; x++)
    for (int y = 0; y < 32; y++)
      acc += Kj[y * d + x]; // expect: load sram 1/1
  out[blockIdx.x * 32 + threadIdx.x] = acc; // expect: store out 4/4
}

int main(int argc, char **argv) {
  const int blocks = N / 256;
  const int n = sample::runtime_size("n", argc, argv, 1, 3);
  const int d = sample::runtime_size("d", argc, argv, 2, 64);
  const int off = sample::runtime_size("off", argc, argv, 3, 32);
  float *a = sample::alloc<float>(N + 64);
  float *out = sample::alloc<float>(N + 64);
  unsigned *p = sample::alloc<unsigned>(N);
  unsigned *q = sample::alloc<unsigned>(2 * N);
  const double B = double(N) * 4;
  sample::run("nest_store", B, [&] { nest_store<<<blocks, 256>>>(a, out, n); });
  sample::run("constants", B, [&] { constants<<<blocks / 8, 256>>>(a, out); });
  sample::run("struct_values", B, [&] { struct_values<<<blocks, 256>>>(a, out); });
  sample::run("magic_division", B, [&] { magic_division<<<N / 96, 96>>>(a, out); });
  sample::run("stream_k", B, [&] { stream_k<<<1024, 32>>>(a, out, n); });
  sample::run("device_table", B, [&] { device_table<<<blocks, 256>>>(out); });
  sample::run("nv_atomics", B, [&] { nv_atomics<<<blocks, 256>>>(p, q); });
  sample::run("shared_tiles", B, [&] {
    shared_tiles<<<128, 32, (off + 32 * d) * sizeof(float)>>>(a, out, off, d);
  });
  return 0;
}
