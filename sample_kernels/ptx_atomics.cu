// Atomics and reductions written in inline PTX cost what atomicAdd costs:
// nvcc emits the same REDG (no result used) or ATOMG (result used), one
// atomic access of the width of the PTX type at the address operand.
#include "harness.cuh"

__global__ void ptx_reductions(float *sums, float *spread) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  asm volatile("red.global.add.f32 [%0], %1;" ::"l"(&sums[i]), "f"(1.0f)); // expect: atomic sums 4/4
  asm volatile("red.global.add.f32 [%0], %1;" ::"l"(&spread[8 * i]), "f"(1.0f)); // expect: atomic spread 32/4
}

__global__ void ptx_fetch_add(unsigned *counts, unsigned *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned old;
  asm volatile("atom.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(&counts[2 * i]), "r"(1u)); // expect: atomic counts 8/4
  out[i] = old; // expect: store out 4/4
}

__global__ void cxx_fetch_add(unsigned *counts, unsigned *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = atomicAdd(&counts[2 * i], 1u); // expect: atomic counts 8/4; store out 4/4
}

int main() {
  const int n = 1 << 20;
  float *sums = sample::alloc<float>(n);
  float *spread = sample::alloc<float>(8 * n);
  unsigned *counts = sample::alloc<unsigned>(2 * n);
  unsigned *out = sample::alloc<unsigned>(n);
  sample::run("ptx_reductions", 9.0 * n * sizeof(float), [&] { ptx_reductions<<<n / 256, 256>>>(sums, spread); });
  sample::run("ptx_fetch_add", 3.0 * n * sizeof(unsigned), [&] { ptx_fetch_add<<<n / 256, 256>>>(counts, out); });
  sample::run("cxx_fetch_add", 3.0 * n * sizeof(unsigned), [&] { cxx_fetch_add<<<n / 256, 256>>>(counts, out); });
  return 0;
}
