// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint --format=json %s | FileCheck %s --check-prefix=JSON
// Helpers that only dereference the pointer or reference they are given (as
// llm.c's load128/store128 and __ldcs wrappers): the caller's argument chose
// the address, so findings are shown there, in the kernel, with a note at the
// helper's line; the record itself stays at the access (the line Nsight
// Compute attributes it to). A helper that computes its own index keeps the
// finding (negative case).

struct alignas(16) f4 { float v[4]; };
__device__ f4 load4(const float *address) { return *reinterpret_cast<const f4 *>(address); }
__device__ void store4(float *target, f4 value) { *reinterpret_cast<f4 *>(target) = value; }
__device__ int4 load4cs(const float *address) { return __ldcs(reinterpret_cast<const int4 *>(address)); }
__device__ f4 load4_via(const float *q) { return load4(q); }
__device__ float at(const float *p, int i) { return p[i * 32]; }
// CHECK: :[[@LINE-1]]:53: warning: global load from 'in' uses 32 sectors per request (ideal 4): lanes are 128 bytes apart
// CHECK-NOT: the access is in 'at'

__global__ void k(float *out, const float *in) {
  float c = at(in, threadIdx.x);
  f4 a = load4(in + threadIdx.x * 8);
  // CHECK: :[[@LINE-1]]:16: warning: global load from 'in' uses 32 sectors per request (ideal 16): lanes are 32 bytes apart
  // CHECK: helper_blame.cu:11:52: note: the access is in 'load4', which only dereferences what it is given; shown at the argument that chooses the address
  // JSON: "column": 52,
  // JSON: "line": 11,
  // JSON: "shown_at": {
  // JSON-NEXT: "column": 16,
  // JSON-NEXT: "file": "{{.*}}helper_blame.cu",
  // JSON-NEXT: "helper": "load4",
  // JSON-NEXT: "line": 21
  store4(out + threadIdx.x * 8, a);
  // CHECK: :[[@LINE-1]]:10: warning: global store to 'out' uses 32 sectors per request (ideal 16): lanes are 32 bytes apart
  // CHECK: helper_blame.cu:12:51: note: the access is in 'store4'
  int4 b = load4cs(in + threadIdx.x * 16);
  // CHECK: :[[@LINE-1]]:20: warning: global load from 'in' uses 32 sectors per request (ideal 16): lanes are 64 bytes apart
  // CHECK: helper_blame.cu:13:56: note: the access is in 'load4cs'
  // Through two helpers: shown at the outermost argument that computes it.
  f4 d = load4_via(in + threadIdx.x * 12);
  // CHECK: :[[@LINE-1]]:20: warning: global load from 'in' uses 32 sectors per request (ideal 16): lanes are 48 bytes apart
  // CHECK: helper_blame.cu:11:52: note: the access is in 'load4', which
  out[threadIdx.x] = b.x + c + d.v[0];
}

int main() {
  float *o, *i;
  cudaMalloc(&o, 1 << 24);
  cudaMalloc(&i, 1 << 24);
  k<<<1, 32>>>(o, i);
}
