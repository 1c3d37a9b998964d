// RUN: %lint %s | FileCheck %s --implicit-check-not="spread by `this`"
// The evidence names what the user wrote: inside a member function the
// object it is called on (never `this`), inside a helper the argument the
// caller gave a parameter (issue 39: llm.c matmul.cuh, a bf16 conversion
// operator, said "the lanes are spread by `this`").

struct half2ish {
  unsigned short bits;
  __device__ operator float() const { return float(bits); }
  __device__ float get() const { return float(bits); }
};
struct Vec {
  const float *p;
  __device__ float operator[](int i) const { return p[i]; }
};
__device__ float load(const float *p, int i) { return p[i]; }
__global__ void k(const half2ish *h, const float *f, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = h[4 * i];
  // CHECK-DAG: evidence_helpers.cu:9:52: note: {{.*}}; the lanes are spread by `h[4 * i]`, the object `operator float` is called on at line [[#@LINE-1]]
  float b = h[4 * i].get();
  // CHECK-DAG: evidence_helpers.cu:10:47: note: {{.*}}; the lanes are spread by `h[4 * i]`, the object `get` is called on at line [[#@LINE-1]]
  Vec v{f};
  float c = v[4 * i];
  // CHECK-DAG: evidence_helpers.cu:14:53: note: {{.*}}; the lanes are spread by `i` (the argument `4 * i` at line [[#@LINE-1]])
  float d = load(f, 8 * i);
  // CHECK-DAG: evidence_helpers.cu:16:55: note: {{.*}}; the lanes are spread by `i` (the argument `8 * i` at line [[#@LINE-1]])
  out[i] = a + b + c + d;
}
void go(half2ish *h, float *f, float *o) { k<<<64, 256>>>(h, f, o); }
