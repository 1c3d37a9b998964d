// RUN: %lint %s | FileCheck %s %if tidy %{ %} %else %{--check-prefixes=CHECK,CLI%}
// The layout search (rules/docs/layout-fixes.md): every access of a
// conflicted shared array re-costed under paddings and XOR swizzles, in
// every launch; a layout offered only when no access gets dearer, the best
// by wavefronts, with its condition and before/after numbers.
#define AT(r, c) m[r][c]

// Positive, swizzle: float4 stores, column reads four rows a thread.
// Padding that keeps the stores aligned leaves 4-way conflicts; XOR of the
// 16-byte chunks by (row / 4) % 8 removes them and keeps the stores whole.
__global__ void vec_col(const float4 *in, float *out) {
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  *reinterpret_cast<float4 *>(&tile[ty][4 * tx]) = in[(blockIdx.x * 32 + ty) * 8 + tx];
  __syncthreads();
  for (int j = 0; j < 4; ++j)
    out[(blockIdx.x * 4 + j) * 256 + ty * 8 + tx] = tile[4 * tx + j][ty];
  // CHECK: layout_fixes.cu:[[@LINE-1]]:53: warning: shared load from 'tile' has an 8-way bank conflict
  // CHECK: layout_fixes.cu:[[@LINE-5]]:41: note: XOR-swizzling the 16-byte chunks of 'tile' by row (tile[r][c ^ (((r >> 2) & 7) << 2)]) gives 1 wavefront per request (now 8) for blockDim (8, 32, 1); none of the 2 accesses of 'tile' gets dearer (36 -> 8 wavefronts per warp){{$}}
  // CLI: fix-it: {{.*}}layout_fixes.cu:[[@LINE-6]]:41: replace 6 characters with "(4 * tx) ^ (((ty >> 2) & 7) << 2)"
  // CLI: fix-it: {{.*}}layout_fixes.cu:[[@LINE-4]]:70: replace 2 characters with "ty ^ ((((4 * tx + j) >> 2) & 7) << 2)"
}

// Positive, swizzle: a 48 KiB tile has no room for padding.
__global__ void full_tile(const float *in, float *out) {
  __shared__ float tile[96][128];
  int tx = threadIdx.x, ty = threadIdx.y;
  for (int i = 0; i < 96; i += 8)
    tile[ty + i][tx] = in[(blockIdx.x * 96 + ty + i) * 128 + tx];
  __syncthreads();
  out[(blockIdx.x * 32 + ty) * 32 + tx] = tile[tx][ty];
  // CHECK: layout_fixes.cu:[[@LINE-1]]:43: warning: shared load from 'tile' has a 32-way bank conflict
  // CHECK: layout_fixes.cu:[[@LINE-4]]:18: note: XOR-swizzling the 4-byte elements of 'tile' by row (tile[r][c ^ (r & 31)]) gives 1 wavefront per request (now 32) for blockDim (32, 8, 1); none of the 2 accesses of 'tile' gets dearer (44 -> 13 wavefronts per warp){{$}}
  // CLI: fix-it: {{.*}}layout_fixes.cu:[[@LINE-5]]:18: replace 2 characters with "tx ^ ((ty + i) & 31)"
  // CLI: fix-it: {{.*}}layout_fixes.cu:[[@LINE-4]]:52: replace 2 characters with "ty ^ (tx & 31)"
}

// Positive, padding, under two launch configurations: the condition lists
// both; the store, 2-way with a 16 x 16 block whatever the layout, is told
// the layout does not help it, with no fix-it.
__global__ void two_shapes(float *out) {
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = tx;
  __syncthreads();
  out[ty * 32 + tx] = tile[tx][ty];
  // CHECK-DAG: layout_fixes.cu:[[@LINE-1]]:23: warning: shared load from 'tile' has a 32-way bank conflict
  // CHECK-DAG: layout_fixes.cu:[[@LINE-6]]:29: note: padding the innermost dimension by 1 element (tile[32][33]) gives 1 wavefront per request (now 32) for blockDim (32, 32, 1) and (16, 16, 1); none of the 2 accesses of 'tile' gets dearer
  // CLI-DAG: fix-it: {{.*}}layout_fixes.cu:[[@LINE-7]]:29: replace 2 characters with "33"
  // CHECK-DAG: layout_fixes.cu:[[@LINE-6]]:3: warning: shared store to 'tile' has a 2-way bank conflict
  // CHECK-DAG: layout_fixes.cu:[[@LINE-7]]:3: note: the layout proposed for the other accesses of 'tile' (padding the innermost dimension by 1 element (tile[32][33])) leaves this one at 2 wavefronts per request
}

// Negative: rows of 17 floats read by two rows a warp; every padding that
// helps the store breaks the loads, and no swizzle fits the row. The rows
// without their padding, swizzled, would help if nvcc kept its instructions
// (rows of 64 bytes may merge the row reads): left out without a compile,
// and the note says so.
__global__ void no_harmless_layout(float *out) {
  __shared__ float s[16][17];
  int tx = threadIdx.x, ty = threadIdx.y;
  s[ty][tx] = tx;
  // CHECK: layout_fixes.cu:[[@LINE-1]]:3: warning: shared store to 's' has a 2-way bank conflict
  // CHECK: layout_fixes.cu:[[@LINE-2]]:3: note: no padding or XOR swizzle of 's' (56 layouts tried) makes its accesses cheaper without making one of them dearer; XOR-swizzling the 4-byte elements of 's' by row without the padding of its rows (s[16][16], s[r][c ^ (r & 1)]) would give 17 wavefronts per warp if nvcc kept emitting the same shared-memory instructions for the edited code; not offered: no compile of the edited code confirms it
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < 16; ++k)
    acc += s[ty][k];
  out[ty * 16 + tx] = acc;
}

// Negative: an access whose address depends on data cannot be re-costed.
__global__ void data_dependent(const int *idx, float *out) {
  __shared__ float t[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  t[ty][tx] = tx;
  __syncthreads();
  out[ty * 32 + tx] = t[tx][ty] + t[idx[tx] & 31][0];
  // CHECK: layout_fixes.cu:[[@LINE-1]]:23: warning: shared load from 't' has a 32-way bank conflict
  // CHECK: layout_fixes.cu:[[@LINE-2]]:23: note: no layout of 't' is proposed: the load at line [[#@LINE-2]] has no known cost
}

// Subscripts written by a macro: padding is offered (an edit of the
// declaration); the swizzle could not be written.
__global__ void by_macro(float *out) {
  __shared__ float m[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  AT(ty, tx) = tx;
  __syncthreads();
  out[ty * 32 + tx] = AT(tx, ty);
  // CHECK: layout_fixes.cu:[[@LINE-1]]:23: warning: shared load from 'm' has a 32-way bank conflict
  // CHECK: layout_fixes.cu:[[@LINE-6]]:26: note: padding the innermost dimension by 1 element (m[32][33]) gives 1 wavefront per request (now 32)
  // CLI: fix-it: {{.*}}layout_fixes.cu:[[@LINE-7]]:26: replace 2 characters with "33"
}

// A launch where the array has no conflict (one thread) is re-costed too:
// the layout must not make it dearer there either; the condition lists it.
__global__ void quiet_launch(float *out) {
  __shared__ float q[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  q[ty][tx] = tx;
  __syncthreads();
  out[ty * 32 + tx] = q[tx][ty];
  // CHECK: layout_fixes.cu:[[@LINE-1]]:23: warning: shared load from 'q' has a 32-way bank conflict
  // CHECK: layout_fixes.cu:[[@LINE-6]]:26: note: padding the innermost dimension by 1 element (q[32][33]) gives 1 wavefront per request (now 32) for blockDim (32, 32, 1) and (1, 1, 1);
}

void go(const float4 *a, const float *b, float *o, const int *i) {
  quiet_launch<<<64, dim3(32, 32)>>>(o);
  quiet_launch<<<64, 1>>>(o);
  vec_col<<<64, dim3(8, 32)>>>(a, o);
  full_tile<<<64, dim3(32, 8)>>>(b, o);
  two_shapes<<<64, dim3(32, 32)>>>(o);
  two_shapes<<<64, dim3(16, 16)>>>(o);
  no_harmless_layout<<<64, dim3(16, 16)>>>(o);
  data_dependent<<<64, dim3(32, 32)>>>(i, o);
  by_macro<<<64, dim3(32, 32)>>>(o);
}
