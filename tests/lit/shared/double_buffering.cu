// RUN: %lint --format=json %s | %records | FileCheck %s
// A variable toggled each iteration (`buf = 1 - buf`, double buffering) is
// its start value in even iterations and 1 - start in odd ones: the
// accesses through it keep their numbers in a loop with a run-time trip
// count (sample_kernels/double_buffering.cu, measured on an H200).

__global__ void ping_pong(const float *in, float *out, int steps) {
  __shared__ float tile[2][256];
  int t = threadIdx.x;
  int buf = 0;
  tile[0][t] = in[t];
  __syncthreads();
  float acc = 0.0f;
  for (int k = 1; k < steps; ++k) {
    tile[1 - buf][t] = in[k * 256 + t];
    acc += tile[buf][(t * 2) % 256];
    __syncthreads();
    buf = 1 - buf;
  }
  out[t] = acc;
}
// CHECK: double_buffering.cu:15:5: ping_pong store shared 'tile' `tile[1 - buf][t]` 1/1 ok
// CHECK: double_buffering.cu:16:12: ping_pong load shared 'tile' `tile[buf][(t * 2) % 256]` 2/1 bank-conflict

// After a loop with a known trip count the variable has its last value.
// 2001 iterations (too many to run one by one: the loop is followed with a
// symbolic iteration) leave buf = 1: the row read after it is row 1, whose
// lanes, 8 bytes apart from byte 1024, meet pairwise in the banks of row 0:
// 2 wavefronts. With buf not known the load would be unknown.
__global__ void after_loop(float *out) {
  __shared__ float tile[2][256];
  int buf = 0;
  for (int k = 0; k < 2001; ++k) {
    tile[buf][threadIdx.x] = k;
    buf = 1 - buf;
  }
  out[threadIdx.x] = tile[buf][threadIdx.x * 2 % 256];
  out[buf + threadIdx.x] = 0.0f; // buf = 1: a float off the sectors, 5 of them
}
// CHECK: double_buffering.cu:[[@LINE-3]]:22: after_loop load shared 'tile' `tile[buf][threadIdx.x * 2 % 256]` 2/1 bank-conflict
// CHECK: double_buffering.cu:[[@LINE-3]]:3: after_loop store global 'out' `out[buf + threadIdx.x]` 5/4 uncoalesced

// A toggle written `x ^= 1` (or `x = !x`): the update reads only the
// variable, so the loop applies it twice to the start value, and back at
// the start it toggles; `x ^ 1` is then the other tile. A variable that
// cycles through three values is not followed as a toggle, but it is the
// same on every lane in every iteration: the tile it picks is a uniform
// unknown, and since every tile starts on a 128-byte boundary the store's
// cost is exact.
__global__ void cycles(const float *in, float *out, int steps) {
  __shared__ float tile[3][256];
  int b = 0, x = 0;
  float acc = 0.0f;
  for (int k = 0; k < steps; ++k) {
    tile[b][threadIdx.x] = in[threadIdx.x];
    acc += tile[x][threadIdx.x * 2 % 256] + tile[x ^ 1][threadIdx.x * 4 % 256];
    b = (b + 1) % 3;
    x ^= 1;
  }
  out[threadIdx.x] = acc;
}
// CHECK: double_buffering.cu:[[@LINE-7]]:5: cycles store shared 'tile' `tile[b][threadIdx.x]` 1/1 ok
// CHECK: double_buffering.cu:[[@LINE-7]]:12: cycles load shared 'tile' `tile[x][threadIdx.x * 2 % 256]` 2/1 bank-conflict
// CHECK: double_buffering.cu:[[@LINE-8]]:45: cycles load shared 'tile' `tile[x ^ 1][threadIdx.x * 4 % 256]` 4/1 bank-conflict

void launch(const float *i, float *o, int n) {
  ping_pong<<<64, 256>>>(i, o, n);
  after_loop<<<64, 256>>>(o);
  cycles<<<64, 256>>>(i, o, n);
}
