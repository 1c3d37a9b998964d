// Seeds 001 and 003: indexed reads and writes. The index comes from memory,
// so the pattern cannot be known before the kernel runs: coalesce-lint says
// "unknown" (the index array itself is read coalesced). Seed 003 measured
// random indices at ~32 sectors per request and sorted ones at 4 (floats).
#include "harness.cuh"

__global__ void gather(const float *input, const int *indices, float *output, int n) {
  int idx = threadIdx.x + blockIdx.x * blockDim.x;
  if (idx < n) {
    output[idx] = input[indices[idx]]; // expect: store output 4/4; load input unknown; load indices 4/4
  }
}

__global__ void scatter(const float *values, const int *indices, float *output, int n) {
  int idx = threadIdx.x + blockIdx.x * blockDim.x;
  if (idx < n) {
    output[indices[idx]] = values[idx]; // expect: load values 4/4; store output unknown; load indices 4/4
  }
}

// Seed 003: `int idx = off[i]; float f = p[idx]; f += 1; p[idx] = f;`
template <class T> __global__ void offset_increment(T *p, const int *off, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int idx = off[i]; // expect: load off 4/4
    T f = p[idx];     // expect: load p unknown
    f += 1;
    p[idx] = f;       // expect: store p unknown
  }
}

int main() {
  const int n = 1 << 22;
  float *in = sample::alloc<float>(n);
  float *out = sample::alloc<float>(n);
  double *d = sample::alloc<double>(n);
  int *idx = sample::alloc<int>(n); // all zeros: every lane reads element 0
  const double B = 3.0 * n * sizeof(float);
  sample::run("gather", B, [&] { gather<<<n / 256, 256>>>(in, idx, out, n); });
  sample::run("scatter", B, [&] { scatter<<<n / 256, 256>>>(in, idx, out, n); });
  sample::run("offset_increment<float>", B, [&] { offset_increment<float><<<n / 256, 256>>>(in, idx, n); });
  sample::run("offset_increment<double>", B, [&] { offset_increment<double><<<n / 256, 256>>>(d, idx, n); });
  return 0;
}
