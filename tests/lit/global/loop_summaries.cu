// Loop summaries (interp/LoopSummary.cpp): a counted loop whose iterations
// are alike is run for a few iterations and the rest are issued without
// being run; a loop longer than the walk's limit goes to the symbolic walk
// at once. Either way the records are those of the walk of every
// iteration, byte for byte: each kernel below is a shape where a shortcut
// could go wrong (a condition on the counter, a value not affine in it, a
// sum that grows quadratically, accesses that meet across iterations,
// lanes that leave at different iterations, a barrier, shared memory).
// RUN: %lint --format=json --loop-summaries=off %s > %t.off.json
// RUN: %lint --format=json %s > %t.on.json
// RUN: diff %t.off.json %t.on.json
// RUN: %lint --loop-summaries=off %s > %t.off.txt
// RUN: %lint %s > %t.on.txt
// RUN: diff %t.off.txt %t.on.txt
// RUN: %lint %s | FileCheck %s
// RUN: not %lint --loop-summaries=maybe %s 2>&1 | FileCheck %s --check-prefix=BAD
// UNSUPPORTED: tidy
// BAD: --loop-summaries needs on or off

// One row per thread, 768 iterations: the summary's case.
// CHECK-DAG: loop_summaries.cu:[[@LINE+4]]:{{[0-9]+}}: warning: global load from 'x' uses 32 sectors per request (ideal 4)
__global__ void rows(const float *x, float *o, int C) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float m = 0;
  for (int i = 0; i < C; i++) m += x[r * C + i];
  o[r] = m;
}

// A condition on the counter: not alike, walked.
__global__ void at_one(const float *x, float *o, int C) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < C; i++)
    if (i == 500)
      o[r * C + i] = x[i * 33 + r];
}

// Not affine in the counter.
__global__ void folded(const float *x, float *o, int C) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < C; i++)
    o[r + 32 * (i % 7)] = x[r * (i / 3)];
}

// A quadratic walk: the step grows each iteration.
__global__ void quadratic(const float *x, float *o, int C) {
  int r = threadIdx.x;
  int at = 0;
  for (int i = 0; i < C; i++) {
    at += i;
    o[r] += x[at + r * 3];
  }
}

// Two accesses that meet across iterations (x[i] and x[i + 3] as the
// compiler's merge window sees them), and a store beside them.
__global__ void meet(const char *x, char *o, int C) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < C; i++)
    o[r * C + i] = x[r * C + i] + x[r * C + i + 3];
}

// Lanes that leave at different iterations: a strided loop over a length
// that is not a multiple of the warp.
__global__ void strided(const float *x, float *o, int C) {
  float s = 0;
  for (int i = threadIdx.x; i < C; i += 32)
    s += x[blockIdx.x * C + i];
  o[blockIdx.x * 32 + threadIdx.x] = s;
}

// A pointer stepped with the counter, and a helper that dereferences.
__device__ float get(const float *p) { return *p; }
__global__ void stepped(const float *x, float *o, int C) {
  const float *p = x + threadIdx.x * 2;
  float s = 0;
  for (int i = 0; i < C; i++) {
    s += get(p);
    p += 64;
  }
  o[threadIdx.x] = s;
}

// Shared memory, with and without a barrier in the loop.
__global__ void tiles(const float *x, float *o, int C) {
  __shared__ float t[64 * 33];
  for (int i = 0; i < C; i++)
    t[(threadIdx.x * 33 + i) % (64 * 33)] = x[i * 64 + threadIdx.x];
  for (int i = 0; i < C; i++) {
    t[threadIdx.x * 2] = x[i * 64 + threadIdx.x];
    __syncthreads();
    o[i * 64 + threadIdx.x] = t[threadIdx.x * 32 % 64];
  }
  for (int i = 0; i < 600; i++)
    o[threadIdx.x] += t[(threadIdx.x + i) * 2];
}

// Longer than the walk's limit: symbolic at once.
__global__ void long_rows(const float *x, float *o, int C) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float m = 0;
  for (int i = 0; i < C; i++) m += x[r * C + i];
  o[r] = m;
}

void launch(const float *x, float *o, const char *cx, char *co) {
  rows<<<4, 64>>>(x, o, 768);
  at_one<<<4, 64>>>(x, o, 768);
  folded<<<4, 64>>>(x, o, 300);
  quadratic<<<1, 64>>>(x, o, 200);
  meet<<<2, 64>>>(cx, co, 400);
  strided<<<4, 32>>>(x, o, 1000);
  stepped<<<1, 64>>>(x, o, 500);
  tiles<<<1, 64>>>(x, o, 300);
  long_rows<<<4, 64>>>(x, o, 50257);
}
