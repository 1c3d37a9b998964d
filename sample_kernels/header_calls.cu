// Two calls of one toolkit header function in one kernel: Nsight Compute
// shows the instructions of both on the header's one line (__ldcs in
// sm_32_intrinsics.hpp, atomicAdd in device_atomic_functions.hpp,
// __pipeline_memcpy_async in cuda_pipeline_helpers.h). Verify mode puts
// each on its call by the binary's inlining chains (nvdisasm -gi, kept
// beside the recording as header_calls.inlined.json.gz; docs/verify.md).
// Where nvcc's line table gives two calls one location (the loads and the
// atomics below), the tool reports both accesses there too
// (interp/models/EmittedCode.cpp, headerCallLine()).
#include <cuda_pipeline.h>
#include "harness.cuh"

__global__ void two_streaming_loads(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // nvcc's line table gives the second call the first one's location: both
  // LDG.E.EF are on this line, where the tool reports both accesses.
  float a = __ldcs(&in[i]);     // expect: load in 4/4 // expect(witness): load in 32/4
  float b = __ldcs(&in[8 * i]); // expect(source): load in 32/4
  __stcs(&out[i], a + b);       // expect: store out 4/4
}

__global__ void two_atomics(unsigned *counts, unsigned *wide) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&counts[i], 1u);   // expect: atomic counts 4/4 // expect(witness): atomic wide 16/4
  atomicAdd(&wide[4 * i], 1u); // expect(source): atomic wide 16/4
}

__global__ void two_copies(const float *in, float *out) {
  __shared__ float s[256], r[1024];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  __pipeline_memcpy_async(&s[t], &in[i], sizeof(float));                        // expect: load in 4/4; store s 1/1
  __pipeline_memcpy_async(&r[(t % 32) * 32 + t / 32], &in[8 * i], sizeof(float)); // expect: load in 32/4; store r 32/1
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[i] = s[255 - t] + r[t]; // expect: load s 1/1; load r 1/1; store out 4/4
}

int main() {
  const int blocks = 512, n = blocks * 256;
  float *in = sample::alloc<float>(n * 8), *out = sample::alloc<float>(n);
  unsigned *counts = sample::alloc<unsigned>(n), *wide = sample::alloc<unsigned>(n * 4);
  sample::run("two_streaming_loads", n * 12.0, [&] { two_streaming_loads<<<blocks, 256>>>(in, out); });
  sample::run("two_atomics", n * 8.0, [&] { two_atomics<<<blocks, 256>>>(counts, wide); });
  sample::run("two_copies", n * 12.0, [&] { two_copies<<<blocks, 256>>>(in, out); });
  return 0;
}
