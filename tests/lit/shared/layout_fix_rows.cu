// RUN: %lint %s | FileCheck %s %if tidy %{ %} %else %{--check-prefixes=CHECK,CLI%}
// One-dimensional shared arrays indexed `row * K + column` (as SGEMM_CUDA's
// kernels write their tiles): the layout search sees rows of K, and a
// padding rewrites K in the size and in every index.
#define TILE 32

// Positive: a transposing tile written by hand; the size is a literal.
__global__ void flat_transpose(const float *in, float *out) {
  __shared__ float tile[1024];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty * 32 + tx] = in[(blockIdx.x * 32 + ty) * 32 + tx];
  __syncthreads();
  out[(blockIdx.x * 32 + ty) * 32 + tx] = tile[tx * 32 + ty];
  // CHECK: layout_fix_rows.cu:[[@LINE-1]]:43: warning: shared load from 'tile' has a 32-way bank conflict
  // CHECK: layout_fix_rows.cu:[[@LINE-6]]:25: note: padding the rows of 32 elements of 'tile' by 1 element (tile[1056]) gives 1 wavefront per request (now 32) for blockDim (32, 32, 1); none of the 2 accesses of 'tile' gets dearer (33 -> 2 wavefronts per warp)
  // CLI: fix-it: {{.*}}layout_fix_rows.cu:[[@LINE-7]]:25: replace 4 characters with "1056"
  // CLI: fix-it: {{.*}}layout_fix_rows.cu:[[@LINE-6]]:13: replace 2 characters with "(32 + 1)"
  // CLI: fix-it: {{.*}}layout_fix_rows.cu:[[@LINE-5]]:53: replace 2 characters with "(32 + 1)"
}

// Positive: the size is the row length times the rows, with a macro name.
__global__ void named_rows(const float *in, float *out) {
  __shared__ float tile[TILE * TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty * TILE + tx] = in[(blockIdx.x * 32 + ty) * 32 + tx];
  __syncthreads();
  out[(blockIdx.x * 32 + ty) * 32 + tx] = tile[tx * TILE + ty];
  // CHECK: layout_fix_rows.cu:[[@LINE-1]]:43: warning: shared load from 'tile' has a 32-way bank conflict
  // CHECK: layout_fix_rows.cu:[[@LINE-6]]:{{[0-9]+}}: note: padding the rows of `TILE` elements of 'tile' by 1 element (tile[(TILE + 1) * TILE]) gives 1 wavefront per request (now 32)
}

// Negative: a buffer indexed by thread, with no rows: no layout note.
__global__ void no_rows(float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  out[t] = s[(t * 32) % 256];
  // CHECK: layout_fix_rows.cu:[[@LINE-1]]:12: warning: shared load from 's' has an 8-way bank conflict
  // CHECK-NOT: layout_fix_rows.cu:[[@LINE-2]]:12: note: {{padding|XOR|no layout|no padding}}
}

// Negative: rows in one access, none in the other: not re-costed.
__global__ void mixed_forms(float *out) {
  __shared__ float m[1024];
  int tx = threadIdx.x, ty = threadIdx.y;
  m[ty * 32 + tx] = tx;
  __syncthreads();
  out[ty * 32 + tx] = m[(tx << 5) | ty];
  // CHECK: layout_fix_rows.cu:[[@LINE-1]]:23: warning: shared load from 'm' has a 32-way bank conflict
  // CHECK: layout_fix_rows.cu:[[@LINE-2]]:23: note: no layout of 'm' is proposed: it has one dimension, and the load at line [[#@LINE-2]] is not written `row * K + column`
}

// Positive: the size is a product of literals: its factor K is rewritten
// (`32 * 32` -> `(32 + 1) * 32`), never the whole size in its place.
__global__ void literal_product(const float *in, float *out) {
  __shared__ float tile[32 * 32];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty * 32 + tx] = in[(blockIdx.x * 32 + ty) * 32 + tx];
  __syncthreads();
  out[(blockIdx.x * 32 + ty) * 32 + tx] = tile[tx * 32 + ty];
  // CHECK: layout_fix_rows.cu:[[@LINE-1]]:43: warning: shared load from 'tile' has a 32-way bank conflict
  // CHECK: layout_fix_rows.cu:[[@LINE-6]]:25: note: padding the rows of 32 elements of 'tile' by 1 element (tile[(32 + 1) * 32]) gives 1 wavefront per request (now 32)
  // CLI: fix-it: {{.*}}layout_fix_rows.cu:[[@LINE-7]]:25: replace 2 characters with "(32 + 1)"
  // CLI-NOT: replace 2 characters with "1056"
}

void go(const float *a, float *o) {
  literal_product<<<64, dim3(32, 32)>>>(a, o);
  flat_transpose<<<64, dim3(32, 32)>>>(a, o);
  named_rows<<<64, dim3(32, 32)>>>(a, o);
  no_rows<<<64, 256>>>(o);
  mixed_forms<<<64, dim3(32, 32)>>>(o);
}
