// Vector and packed atomics (sm_90): atomicAdd on float2, float4 and
// __half2, and the inline PTX that spells the same reductions
// (`red.global.add.noftz.f16x2`, `.bf16x2`, `red.global.add.v2.f32`,
// `.v4.f32`, `red.global.add.noftz.v2.bf16x2`). nvcc emits one REDG (ATOM
// when the result is used) of the vector's width per lane: an atomic
// access of that width at the address operand.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include "harness.cuh"

__global__ void cxx_vector_adds(float4 *q, float4 *q_spread, float2 *p, __half2 *h) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&q[i], make_float4(1, 1, 1, 1)); // expect: atomic q 16/16 // expect(witness): atomic q_spread 32/16
  atomicAdd(&q_spread[2 * i], make_float4(1, 1, 1, 1)); // expect(source): atomic q_spread 32/16
  atomicAdd(&p[i], make_float2(1, 1)); // expect: atomic p 8/8
  atomicAdd(&h[i], __floats2half2_rn(1, 1)); // expect: atomic h 4/4
}

__global__ void ptx_packed_adds(__half2 *h, __nv_bfloat162 *b, __nv_bfloat162 *b_spread) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned one = 0x3c003c00u, bone = 0x3f803f80u; // (1, 1) in f16x2, bf16x2
  asm volatile("red.global.add.noftz.f16x2 [%0], %1;" ::"l"(&h[i]), "r"(one)); // expect: atomic h 4/4
  asm volatile("red.global.add.noftz.bf16x2 [%0], %1;" ::"l"(&b[i]), "r"(bone)); // expect: atomic b 4/4
  asm volatile("red.global.add.noftz.bf16x2 [%0], %1;" ::"l"(&b_spread[4 * i]), "r"(bone)); // expect: atomic b_spread 16/4
}

__global__ void ptx_vector_adds(float *f, float *f_spread, __nv_bfloat162 *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  asm volatile("red.global.add.v2.f32 [%0], {%1, %2};" ::"l"(&f[2 * i]), "f"(1.f), "f"(1.f)); // expect: atomic f 8/8
  asm volatile("red.global.add.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(&f_spread[8 * i]), "f"(1.f), "f"(1.f), "f"(1.f), "f"(1.f)); // expect: atomic f_spread 32/16
  asm volatile("red.global.add.noftz.v2.bf16x2 [%0], {%1, %2};" ::"l"(&b[2 * i]), "r"(0x3f803f80u), "r"(0x3f803f80u)); // expect: atomic b 8/8
}

int main() {
  const int n = 1 << 20;
  float4 *q = sample::alloc<float4>(n), *q_spread = sample::alloc<float4>(2 * n);
  float2 *p = sample::alloc<float2>(n);
  __half2 *h = sample::alloc<__half2>(n);
  __nv_bfloat162 *b = sample::alloc<__nv_bfloat162>(2 * n), *b_spread = sample::alloc<__nv_bfloat162>(4 * n);
  float *f = sample::alloc<float>(2 * n), *f_spread = sample::alloc<float>(8 * n);
  sample::run("cxx_vector_adds", n * (16.0 + 32.0 + 8.0 + 4.0),
              [&] { cxx_vector_adds<<<n / 256, 256>>>(q, q_spread, p, h); });
  sample::run("ptx_packed_adds", n * (4.0 + 4.0 + 16.0),
              [&] { ptx_packed_adds<<<n / 256, 256>>>(h, b, b_spread); });
  sample::run("ptx_vector_adds", n * (8.0 + 32.0 + 8.0),
              [&] { ptx_vector_adds<<<n / 256, 256>>>(f, f_spread, b); });
  return 0;
}
