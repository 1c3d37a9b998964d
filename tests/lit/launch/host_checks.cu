// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// What the host code checks on the way to a launch is a fact about the
// launch's arguments: `assert(s == 1)` and `if (s != 1) abort();` make s
// known, `if (s < 64) abort();` bounds it below (as --assume s >= 64
// would). A cost that depends on a size the program does not fix is a
// warning only if it holds for every size the program can have; where some
// size is fine it is a remark, with that case (issue 37).
#include <assert.h>
#include <stdlib.h>

__global__ void asserted(const float *in, float *out, int stride) {
  out[threadIdx.x] = in[threadIdx.x * stride];
}
__global__ void checked_equal(const float *in, float *out, int stride) {
  out[threadIdx.x] = in[threadIdx.x * stride];
}
__global__ void bounded(const float *in, float *out, int stride) {
  out[threadIdx.x] = in[threadIdx.x * stride];
  // CHECK: :[[@LINE-1]]:22: warning: global load from 'in' uses 32 sectors per request (ideal 4) [coalesce-uncoalesced-global]
  // CHECK: note: {{.*}}the cost is the same for every stride >= 64; with the check at host_checks.cu:57 before the launch at host_checks.cu:58
}
__global__ void unchecked(const float *in, float *out, int stride) {
  out[threadIdx.x] = in[threadIdx.x * stride];
  // CHECK: :[[@LINE-1]]:22: remark: global load from 'in' uses 32 sectors per request (ideal 4) for every stride >= 8 [coalesce-uncoalesced-global]
  // CHECK: note: for other values of 'stride'
  // CHECK: note: not a warning: the cost is 4 sectors (ideal 4) when stride == 1, and the values 'stride' takes decide which case holds; state them with --assume stride=VALUE (or stride >= VALUE), or check them in the host code before the launch
}

// A byte stride (ggml's nb0) over 4-byte elements: 4 is contiguous; 1 to 3
// would misalign the loads, which no program can have.
__global__ void byte_stride(const char *src, float *dst, int nb0) {
  const float *x = (const float *)(src + threadIdx.x * nb0);
  dst[threadIdx.x] = *x;
  // CHECK: :[[@LINE-1]]:22: remark: global load from 'src' uses 32 sectors per request (ideal 4) when nb0 is a multiple of 4 and nb0 >= 32 [coalesce-uncoalesced-global]
  // CHECK: note: for other values of 'nb0'
  // CHECK: note: not a warning: the cost is 4 sectors (ideal 4) when nb0 == 4, and
}

// Shared memory: a remark of this kind offers no padding fix-it.
__global__ void shared_rows(float *out, int n) {
  __shared__ float tile[32 * 64];
  tile[threadIdx.x * n] = 1.0f;
  // CHECK: :[[@LINE-1]]:3: remark: shared store to 'tile' has a 32-way bank conflict: 32 wavefronts per request (ideal 1) when n is a multiple of 32 and n >= 32 [coalesce-shared-bank-conflict]
  // CHECK-NOT: fix-it
  // CHECK: note: not a warning: the cost is 1 wavefront (ideal 1) when n
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x];
}

#define CHECK_OR_DIE(c) do { if (!(c)) abort(); } while (0)
void run(const float *in, float *out, const char *bytes, int a, int b, int c, int d, int e,
         int f) {
  assert(a == 1);
  asserted<<<1, 32>>>(in, out, a);
  CHECK_OR_DIE(b == 1);
  checked_equal<<<1, 32>>>(in, out, b);
  if (c < 64) abort();
  bounded<<<1, 32>>>(in, out, c);
  // Only one side of || is certain: no fact.
  assert(d == 1 || e == 1);
  unchecked<<<1, 32>>>(in, out, d);
  byte_stride<<<1, 32>>>(bytes, out, e);
  shared_rows<<<1, 32>>>(out, f);
}
