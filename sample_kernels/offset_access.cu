// Seed 001 "offset but coalesced": in[idx + offset] shifts the warp's 128 bytes
// off the 32-byte sector grid, costing one extra sector unless the offset is a
// multiple of 8 floats.
#include "harness.cuh"

template <int OFFSET>
__global__ void offset_read(const float *input, float *output, int n) {
  int idx = threadIdx.x + blockIdx.x * blockDim.x;
  if (idx + OFFSET < n) {
    output[idx] = input[idx + OFFSET];
    // expect: store output 4/4
    // expect(offset_read<0>): load input 4/4
    // expect(offset_read<1>): load input 5/4
    // expect(offset_read<4>): load input 5/4
    // expect(offset_read<7>): load input 5/4
    // expect(offset_read<8>): load input 4/4
    // expect(offset_read<32>): load input 4/4
  }
}

// A pointer argument that is an allocation plus one element: the base itself
// is misaligned, the kernel code looks perfectly coalesced.
__global__ void shifted_base(const float *input, float *output) {
  int idx = threadIdx.x + blockIdx.x * blockDim.x;
  output[idx] = input[idx]; // expect: store output 4/4; load input 5/4
}

int main() {
  const int n = 1 << 22;
  float *in = sample::alloc<float>(n + 64);
  float *out = sample::alloc<float>(n);
  const double B = 2.0 * n * sizeof(float);
  sample::run("offset_read<0>", B, [&] { offset_read<0><<<n / 256, 256>>>(in, out, n); });
  sample::run("offset_read<1>", B, [&] { offset_read<1><<<n / 256, 256>>>(in, out, n); });
  sample::run("offset_read<4>", B, [&] { offset_read<4><<<n / 256, 256>>>(in, out, n); });
  sample::run("offset_read<7>", B, [&] { offset_read<7><<<n / 256, 256>>>(in, out, n); });
  sample::run("offset_read<8>", B, [&] { offset_read<8><<<n / 256, 256>>>(in, out, n); });
  sample::run("offset_read<32>", B, [&] { offset_read<32><<<n / 256, 256>>>(in, out, n); });
  sample::run("shifted_base", B, [&] { shifted_base<<<n / 256, 256>>>(in + 1, out); });
  cudaFree(in);
  cudaFree(out);
  return 0;
}
