// Loads nvcc does not repeat. A value loaded earlier in straight-line code,
// with no store, call or branch since, is reused (two_statements); a store
// that may alias forces a second load (store_between). A load that runs in
// every iteration of a loop at an address the loop does not change, when the
// loop stores nothing that may overwrite it, is hoisted: loaded once before
// the loop (search, shared_invariant, sum_scaled; with stores in the loop
// only through __restrict__ pointers, rows_restrict; not rows_may_alias).
// Nsight Compute shows a hoisted load on a line before the loop, not its
// own: coalesce-lint reports it at its own line, once per start of the loop,
// with the assumption `load-hoisted`, and verify mode matches it to that
// earlier line.
#include "harness.cuh"

constexpr int N = 1 << 20;

// A search over data: u[i] does not change inside the loop, which stores
// nothing.
__global__ void search(const float *cdf, const float *u, int *idx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int found = n - 1;
  for (int x = 0; x < n; ++x) {
    if (cdf[x] >= u[i]) { // expect: load cdf 1/1; load u 4/4
      found = x;
      break;
    }
  }
  idx[i] = found; // expect: store idx 4/4
}

// A store in the loop that may alias the load (no __restrict__).
__global__ void rows_may_alias(const float *in, float *out, int reps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < reps; ++k)
    out[k * N + i] = in[i] * k; // expect: load in 4/4; store out 4/4
}

// The same with __restrict__ pointers.
__global__ void rows_restrict(const float *__restrict__ in, float *__restrict__ out, int reps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; // expect(witness): load in 4/4
  for (int k = 0; k < reps; ++k)
    out[k * N + i] = in[i] * k; // expect: store out 4/4 // expect(source): load in 4/4
}

// The same address in two statements with no store between them.
__global__ void two_statements(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = in[i + 1]; // expect: load in 5/4
  float b = in[i + 1] * 2.0f; // expect: load in none
  out[i] = a + b; // expect: store out 4/4
}

// A store between them that may alias.
__global__ void store_between(const float *in, float *out, float *out2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = in[i + 1]; // expect: load in 5/4
  out[i] = a; // expect: store out 4/4
  float b = in[i + 1]; // expect: load in 5/4
  out2[i] = b; // expect: store out2 4/4
}

// A shared value read in a loop that stores nothing.
__global__ void shared_invariant(const float *in, float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = in[i]; // expect: load in 4/4; store s 1/1
  __syncthreads();
  float acc = 0.0f;
  for (int k = 0; k < 256; k += 4)
    acc += s[t] * s[k]; // expect: load s 1/1; load s 1/1
  out[i] = acc; // expect: store out 4/4
}

// A loop with a run-time trip count that stores nothing: in[i] is hoisted,
// w[k] (which moves with the loop) is not.
__global__ void sum_scaled(const float *in, const float *w, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < n; ++k)
    acc += w[k] * in[i]; // expect: load w 1/1; load in 4/4
  out[i] = acc; // expect: store out 4/4
}

// Stores to the other space do not overwrite the load: a global load is
// hoisted past shared stores, and a shared load past global ones.
__global__ void global_past_shared_stores(const float *in, float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  s[t] = 0.0f; // expect: store s 1/1 // expect(witness): load in 4/4
  for (int k = 0; k < 8; ++k) {
    acc += in[i] * s[(t + k) % 256]; // expect: load s 1/1 // expect(source): load in 4/4
    s[t] = acc; // expect: store s 1/1
  }
  out[i] = acc; // expect: store out 4/4
}

__global__ void shared_past_global_stores(const float *in, float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = in[i]; // expect: load in 4/4; store s 1/1
  __syncthreads(); // expect(witness): load s 1/1
  for (int k = 0; k < 4; ++k)
    out[k * N + i] = s[t] * k; // expect: store out 4/4 // expect(source): load s 1/1
}

// Negative: a load under a branch in the loop runs in some iterations only:
// not hoisted.
__global__ void conditional_in_loop(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < n; ++k)
    if (k % 3 == 1)
      acc += in[i]; // expect: load in 4/4
  out[i] = acc; // expect: store out 4/4
}

// Negative: a barrier in the loop (a call that may order memory): not
// hoisted.
__global__ void barrier_in_loop(const float *in, float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = in[i]; // expect: load in 4/4; store s 1/1
  __syncthreads();
  float acc = 0.0f;
  for (int k = 0; k < 8; ++k) {
    acc += s[t] * s[k * 32]; // expect: load s 1/1; load s 1/1
    __syncthreads();
  }
  out[i] = acc; // expect: store out 4/4
}

int main() {
  const int blocks = N / 256;
  float *cdf = sample::alloc<float>(4096);
  float *u = sample::alloc<float>(N);
  int *idx = sample::alloc<int>(N);
  float *in = sample::alloc<float>(N + 64);
  float *out = sample::alloc<float>(size_t(N) * 4);
  float *out2 = sample::alloc<float>(N);
  const double B = double(N) * 4;
  sample::run("search", B, [&] { search<<<blocks, 256>>>(cdf, u, idx, 64); });
  sample::run("rows_may_alias", B, [&] { rows_may_alias<<<blocks, 256>>>(in, out, 4); });
  sample::run("rows_restrict", B, [&] { rows_restrict<<<blocks, 256>>>(in, out, 4); });
  sample::run("two_statements", B, [&] { two_statements<<<blocks, 256>>>(in, out); });
  sample::run("store_between", B, [&] { store_between<<<blocks, 256>>>(in, out, out2); });
  sample::run("shared_invariant", B, [&] { shared_invariant<<<blocks, 256>>>(in, out); });
  sample::run("sum_scaled", B, [&] { sum_scaled<<<blocks, 256>>>(in, u, out, 16); });
  sample::run("global_past_shared_stores", B, [&] { global_past_shared_stores<<<blocks, 256>>>(in, out); });
  sample::run("shared_past_global_stores", B, [&] { shared_past_global_stores<<<blocks, 256>>>(in, out); });
  sample::run("conditional_in_loop", B, [&] { conditional_in_loop<<<blocks, 256>>>(in, out, 9); });
  sample::run("barrier_in_loop", B, [&] { barrier_in_loop<<<blocks, 256>>>(in, out); });
  return 0;
}
