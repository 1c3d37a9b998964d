// Global accesses nvcc merges into wider instructions, and the ones it
// cannot (docs/witness.md; interp/models/SharedMerges.cpp and
// EmittedCode.cpp). nvcc merges adjacent loads (stores) of one pointer into
// LDG.64/LDG.128 (STG) where the alignment it can prove allows: that of the
// element type (fields of a float2, a float4, an alignas(16) struct) or one
// stated with __builtin_assume_aligned; never the alignment cudaMalloc gives
// at run time. Without the compiler witness the tool says such accesses
// may be merged (unknown); with it, the widths nvcc emitted decide, and
// where nvcc could not merge bytes that are aligned at run time, the first
// access says what one wider instruction would cost (the "after" numbers
// are measured here by the kernel written that way).
//
// The expectations without a filter hold both ways; those marked source
// hold for the source alone, those marked witness with the compiler witness.
#include "harness.cuh"

constexpr int N = 1 << 20;

struct alignas(16) Body {
  float x, y, z, m;
};
struct Pair { // 4-byte aligned: nvcc cannot merge its fields
  float a, b;
};

__global__ void float2_fields(const float2 *p, float *out) {
  int i = blockIdx.x * 256 + threadIdx.x;
  float a = p[i].x; // measured: one LDG.E.64 for lines 28-29 // expect(source): load p unknown // expect(witness): load p 8/8
  float b = p[i].y; // measured: no instruction of its own // expect(source): load p unknown // expect(witness): load p none
  out[i] = a * b; // expect: store out 4/4
}

__global__ void float4_fields(const float4 *p, float *out) {
  int i = blockIdx.x * 256 + threadIdx.x;
  out[i] = p[i].x * p[i].y + p[i].z; // measured: one LDG.E.128 for the three fields // expect: store out 4/4 // expect(source): load p unknown; load p unknown; load p unknown // expect(witness): load p 16/16; load p none; load p none
}

__global__ void aligned_struct(const Body *p, float *out) {
  int i = blockIdx.x * 256 + threadIdx.x;
  const Body &b = p[i];
  out[i] = b.x * b.m + b.y * b.z; // measured: one LDG.E.128 // expect: store out 4/4 // expect(source): load p unknown; load p unknown; load p unknown; load p unknown // expect(witness): load p 16/16; load p none; load p none; load p none
}

__global__ void pair_fields(const Pair *p, float *out) {
  int i = blockIdx.x * 256 + threadIdx.x;
  out[i] = p[i].a - p[i].b; // measured: two LDG.E // expect: load p 8/4; load p 8/4; store out 4/4
}

// Four floats of a `const float *`: four LDG.E (the witness adds: one
// LDG.E.128 would take 16 sectors instead of 64).
__global__ void four_floats(const float *p, float *out) {
  int i = blockIdx.x * 256 + threadIdx.x;
  float a = p[4 * i + 0]; // expect: load p 16/4
  float b = p[4 * i + 1]; // expect: load p 16/4
  float c = p[4 * i + 2]; // expect: load p 16/4
  float d = p[4 * i + 3]; // expect: load p 16/4
  out[i] = a + b + c + d; // expect: store out 4/4
}

// The same with the alignment stated: one LDG.E.128, 16 sectors.
__global__ void four_floats_assumed(const float *p, float *out) {
  p = static_cast<const float *>(__builtin_assume_aligned(p, 16));
  int i = blockIdx.x * 256 + threadIdx.x;
  float a = p[4 * i + 0]; // measured: one LDG.E.128 for lines 65-68 // expect(source): load p unknown // expect(witness): load p 16/16
  float b = p[4 * i + 1]; // expect(source): load p unknown // expect(witness): load p none
  float c = p[4 * i + 2]; // expect(source): load p unknown // expect(witness): load p none
  float d = p[4 * i + 3]; // expect(source): load p unknown // expect(witness): load p none
  out[i] = a + b + c + d; // expect: store out 4/4
}

// Two doubles written per thread: two STG.E.64 (one STG.E.128 would do).
__global__ void two_doubles(double *out) {
  int i = blockIdx.x * 256 + threadIdx.x;
  out[2 * i] = i; // expect: store out 16/8
  out[2 * i + 1] = 2.0 * i; // expect: store out 16/8
}

// The same through double2: one STG.E.128.
__global__ void two_doubles_vector(double2 *out) {
  int i = blockIdx.x * 256 + threadIdx.x;
  out[i] = make_double2(i, 2.0 * i); // expect: store out 16/16
}

int main() {
  const int blocks = N / 256;
  float *in = sample::alloc<float>(4 * size_t(N));
  float *out = sample::alloc<float>(size_t(N));
  double *d = sample::alloc<double>(2 * size_t(N));
  const double B = double(N) * 4;
  sample::run("float2_fields", 3 * B, [&] { float2_fields<<<blocks, 256>>>(reinterpret_cast<const float2 *>(in), out); });
  sample::run("float4_fields", 5 * B, [&] { float4_fields<<<blocks, 256>>>(reinterpret_cast<const float4 *>(in), out); });
  sample::run("aligned_struct", 5 * B, [&] { aligned_struct<<<blocks, 256>>>(reinterpret_cast<const Body *>(in), out); });
  sample::run("pair_fields", 3 * B, [&] { pair_fields<<<blocks, 256>>>(reinterpret_cast<const Pair *>(in), out); });
  sample::run("four_floats", 5 * B, [&] { four_floats<<<blocks, 256>>>(in, out); });
  sample::run("four_floats_assumed", 5 * B, [&] { four_floats_assumed<<<blocks, 256>>>(in, out); });
  sample::run("two_doubles", 4 * B, [&] { two_doubles<<<blocks, 256>>>(d); });
  sample::run("two_doubles_vector", 4 * B, [&] { two_doubles_vector<<<blocks, 256>>>(reinterpret_cast<double2 *>(d)); });
  return 0;
}
