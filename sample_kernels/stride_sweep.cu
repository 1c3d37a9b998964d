// Seed 001: sectors per request by stride, 1..32 floats. In sectors (what
// Nsight Compute counts) a stride of s floats costs the distinct 32-byte
// sectors of {4*s*lane}: 4*s for s < 8, 32 from s = 8 on. The seed's table
// counts 128-byte lines instead ("stride 2 = 2 transactions" is 8 sectors).
#include "harness.cuh"

template <int STRIDE>
__global__ void strided_read(const float *__restrict__ in, float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * STRIDE];
  // expect: store out 4/4
  // expect(strided_read<1>): load in 4/4
  // expect(strided_read<2>): load in 8/4
  // expect(strided_read<3>): load in 12/4
  // expect(strided_read<4>): load in 16/4
  // expect(strided_read<5>): load in 20/4
  // expect(strided_read<6>): load in 24/4
  // expect(strided_read<7>): load in 28/4
  // expect(strided_read<8>): load in 32/4
  // expect(strided_read<9>): load in 32/4
  // expect(strided_read<10>): load in 32/4
  // expect(strided_read<11>): load in 32/4
  // expect(strided_read<12>): load in 32/4
  // expect(strided_read<13>): load in 32/4
  // expect(strided_read<14>): load in 32/4
  // expect(strided_read<15>): load in 32/4
  // expect(strided_read<16>): load in 32/4
  // expect(strided_read<17>): load in 32/4
  // expect(strided_read<18>): load in 32/4
  // expect(strided_read<19>): load in 32/4
  // expect(strided_read<20>): load in 32/4
  // expect(strided_read<21>): load in 32/4
  // expect(strided_read<22>): load in 32/4
  // expect(strided_read<23>): load in 32/4
  // expect(strided_read<24>): load in 32/4
  // expect(strided_read<25>): load in 32/4
  // expect(strided_read<26>): load in 32/4
  // expect(strided_read<27>): load in 32/4
  // expect(strided_read<28>): load in 32/4
  // expect(strided_read<29>): load in 32/4
  // expect(strided_read<30>): load in 32/4
  // expect(strided_read<31>): load in 32/4
  // expect(strided_read<32>): load in 32/4
}

// The seed's benchmark kernel: a grid-stride loop whose source index
// (i % 32) * stride + (i / 32) * 32 * stride is i * stride.
__global__ void strided_copy(const float *__restrict__ input,
                             float *__restrict__ output, int n_elements,
                             int stride) {
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  int total_threads = blockDim.x * gridDim.x;
  for (int i = tid; i < n_elements; i += total_threads) {
    int src_idx = (i % 32) * stride + (i / 32) * 32 * stride;
    if (src_idx < n_elements * stride) {
      output[i] = input[src_idx]; // expect: store output 4/4; load input 16/4
    }
  }
}

__global__ void coalesced_copy(const float *__restrict__ input,
                               float *__restrict__ output, int n) {
  int idx = threadIdx.x + blockIdx.x * blockDim.x;
  int total = blockDim.x * gridDim.x;
  for (int i = idx; i < n; i += total) {
    output[i] = input[i]; // expect: store output 4/4; load input 4/4
  }
}

template <int S> void sweep(const float *in, float *out, int n) {
  char Label[32];
  std::snprintf(Label, sizeof Label, "strided_read<%d>", S);
  sample::run(Label, 2.0 * n * sizeof(float), [&] { strided_read<S><<<n / 256, 256>>>(in, out); });
}

template <int... S> void sweepAll(const float *in, float *out, int n) {
  (sweep<S>(in, out, n), ...);
}

int main() {
  const int n = 1 << 20;
  float *in = sample::alloc<float>(size_t(n) * 32);
  float *out = sample::alloc<float>(n);
  sweepAll<1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
           20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32>(in, out, n);
  const int block = 256;
  const int grid = 108 * 8;
  sample::run("strided_copy(4)", 2.0 * n * sizeof(float),
              [&] { strided_copy<<<grid, block>>>(in, out, n, 4); });
  sample::run("coalesced_copy", 2.0 * n * sizeof(float),
              [&] { coalesced_copy<<<grid, block>>>(in, out, n); });
  cudaFree(in);
  cudaFree(out);
  return 0;
}
