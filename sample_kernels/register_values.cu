// Values nvcc keeps in registers instead of memory.
//
// A load of the lvalue a store has just written, with no other store, call
// or branch in between, uses the stored value and issues no instruction
// (forward_shared, forward_global): coalesce-lint reports it with the reason
// `load-forwarded`. A store that may alias it in between (an index loaded
// from memory) forces the load (store_between_data).
//
// A value read and written back in a loop, at an address the loop does not
// change, with no other store in the loop that may overwrite it, stays in a
// register between iterations (rmw_with_reads, rmw_alone): nvcc loads and
// stores it only where its unrolled copy of the loop starts or ends, so the
// requests per warp are not known (`kept-in-register`); each request still
// costs what the lanes' addresses make it (32 lanes 128 bytes apart in one
// bank: 32 wavefronts). In rmw_alone it even takes the value the store
// before the loop wrote: no load at all on the loop's line. A store of
// another lvalue that may alias it keeps the load in every iteration
// (rmw_other_store).
#include "harness.cuh"

constexpr int N = 1 << 20;

// (The barrier and the neighbour's read keep the store: a shared store that
// no thread can read before the kernel ends is not an instruction at all.)
__global__ void forward_shared(const float *in, float *out, float *out2) {
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = in[i] * 2.0f; // expect: load in 4/4; store s 1/1
  out[i] = s[t] + 1.0f; // expect: load s none; store out 4/4
  __syncthreads();
  out2[i] = s[(t + 1) % 256]; // expect: load s 1/1; store out2 4/4
}

__global__ void forward_global(const float *in, float *out, float *out2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] + 1.0f; // expect: load in 4/4; store out 4/4
  out2[i] = out[i] * 3.0f; // expect: load out none; store out2 4/4
}

// Negative: a store at an index loaded from memory may overwrite s[t].
__global__ void store_between_data(const float *in, const int *idx, float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = in[i]; // expect: load in 4/4; store s 1/1
  s[idx[i] & 255] = 0.0f; // expect: load idx 4/4; store s unknown
  out[i] = s[t]; // expect: load s 1/1; store out 4/4
}

// The loop's other loads may read a[t][5] (j == t): the stores stay, the
// load is done where the unrolled loop starts over.
__global__ void rmw_with_reads(float *m, int n) {
  __shared__ float a[32][32];
  int t = threadIdx.x;
  for (int r = 0; r < 32; ++r)
    a[r][t] = m[blockIdx.x * 1024 + r * 32 + t]; // expect: load m 4/4; store a 1/1
  __syncthreads();
  for (int j = 0; j < n; ++j) {
    float p = a[j][5] * a[j][t]; // expect: load a 1/1; load a 1/1
    a[t][5] -= p; // expect: load a 32/1; store a 32/1
  }
  __syncthreads();
  m[blockIdx.x * 1024 + t] = a[5][t]; // expect: load a 1/1; store m 4/4
}

// Nothing else in the loop touches shared memory.
__global__ void rmw_alone(const float *w, float *m, int n) {
  __shared__ float a[32][32];
  int t = threadIdx.x;
  a[t][1] = 0.0f; // expect: store a 32/1
  for (int j = 0; j < n; ++j)
    a[t][1] += w[j]; // expect: load w 1/1; store a 32/1 // expect(source): load a 32/1 // expect(witness): load a none
  __syncthreads();
  m[blockIdx.x * 1024 + t] = a[t][1]; // expect: load a 32/1; store m 4/4
}

// Negative: the loop also stores a[j][t], which may be a[t][5].
__global__ void rmw_other_store(float *m, int n) {
  __shared__ float a[32][32];
  int t = threadIdx.x;
  for (int r = 0; r < 32; ++r)
    a[r][t] = m[blockIdx.x * 1024 + r * 32 + t]; // expect: load m 4/4; store a 1/1
  __syncthreads();
  for (int j = 0; j < n; ++j) {
    a[t][5] -= 1.0f; // expect: load a 32/1; store a 32/1
    a[j][t] = 2.0f; // expect: store a 1/1
  }
  __syncthreads();
  m[blockIdx.x * 1024 + t] = a[5][t]; // expect: load a 1/1; store m 4/4
}

int main() {
  const int blocks = N / 256;
  float *in = sample::alloc<float>(N);
  float *out = sample::alloc<float>(N);
  float *out2 = sample::alloc<float>(N);
  int *idx = sample::alloc<int>(N);
  float *m = sample::alloc<float>(N);
  const double B = double(N) * 4;
  sample::run("forward_shared", B, [&] { forward_shared<<<blocks, 256>>>(in, out, out2); });
  sample::run("forward_global", B, [&] { forward_global<<<blocks, 256>>>(in, out, out2); });
  sample::run("store_between_data", B, [&] { store_between_data<<<blocks, 256>>>(in, idx, out); });
  sample::run("rmw_with_reads", B, [&] { rmw_with_reads<<<N / 1024, 32>>>(m, 12); });
  sample::run("rmw_alone", B, [&] { rmw_alone<<<N / 1024, 32>>>(in, m, 12); });
  sample::run("rmw_other_store", B, [&] { rmw_other_store<<<N / 1024, 32>>>(m, 12); });
  return 0;
}
