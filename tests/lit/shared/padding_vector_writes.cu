// RUN: %lint %s | FileCheck %s %if tidy %{ %} %else %{--check-prefixes=CHECK,CLI%}
// The layout note says by how much, keeps the 16-byte stores aligned, and
// says why no fix-it is offered. A tile written with 16-byte stores and read
// by column (issue 39: the note read "padding the innermost dimension (tile)
// gives 1 wavefront per request", with no amount, though +1 breaks the
// 16-byte stores). A column of 32 rows read with 4-byte loads cannot be
// conflict-free in any layout that keeps the stores' 16-byte chunks whole
// (the loads' banks keep their low two bits): 4-way at best, from 32. The
// stores index a pointer to a row, which a layout change would not move.
__global__ void t(const float4 *in, float *out) {
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  if (tx < 8)
    reinterpret_cast<float4 *>(&tile[ty][0])[tx] = in[(blockIdx.x * 32 + ty) * 8 + tx];
  __syncthreads();
  out[(blockIdx.x * 32 + ty) * 32 + tx] = tile[tx][ty];
  // CHECK: padding_vector_writes.cu:[[@LINE-1]]:43: warning: shared load from 'tile' has a 32-way bank conflict
  // CHECK: padding_vector_writes.cu:[[@LINE-2]]:43: note: XOR-swizzling the 16-byte chunks of 'tile' by row (tile[r][c ^ ((r & 7) << 2)]) gives 4 wavefronts per request (now 32) for blockDim (32, 32, 1); none of the 2 accesses of 'tile' gets dearer (33 -> 5 wavefronts per warp); padding the innermost dimension by 4 elements (tile[32][36]) gives the same with 512 more bytes of shared memory; no fix-it is offered: line [[#@LINE-4]] uses the address of an element of 'tile' as a pointer (`reinterpret_cast<float4 *>(&tile[ty][0])[tx]`), which a new layout would not move: subscript the element it reaches instead (`&tile[...][...]`, dereferenced)
}

// The same stores written at the element they reach: the swizzle is
// offered as edits of both subscripts.
__global__ void u(const float4 *in, float *out) {
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  if (tx < 8)
    *reinterpret_cast<float4 *>(&tile[ty][4 * tx]) = in[(blockIdx.x * 32 + ty) * 8 + tx];
  __syncthreads();
  out[(blockIdx.x * 32 + ty) * 32 + tx] = tile[tx][ty];
  // CHECK: padding_vector_writes.cu:[[@LINE-1]]:43: warning: shared load from 'tile' has a 32-way bank conflict
  // CHECK: padding_vector_writes.cu:[[@LINE-4]]:43: note: XOR-swizzling the 16-byte chunks of 'tile' by row (tile[r][c ^ ((r & 7) << 2)]) gives 4 wavefronts per request (now 32)
  // CLI: fix-it: {{.*}}padding_vector_writes.cu:[[@LINE-5]]:43: replace 6 characters with "(4 * tx) ^ ((ty & 7) << 2)"
  // CLI: fix-it: {{.*}}padding_vector_writes.cu:[[@LINE-4]]:52: replace 2 characters with "ty ^ ((tx & 7) << 2)"
}

// Scalar stores only: padding by one element, with the fix-it; the swizzle
// of single elements is named as the alternative.
__global__ void s(const float *in, float *out) {
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = in[(blockIdx.x * 32 + ty) * 32 + tx];
  __syncthreads();
  out[(blockIdx.x * 32 + ty) * 32 + tx] = tile[tx][ty];
  // CHECK: padding_vector_writes.cu:[[#@LINE-5]]:29: note: padding the innermost dimension by 1 element (tile[32][33]) gives 1 wavefront per request (now 32) for blockDim (32, 32, 1); none of the 2 accesses of 'tile' gets dearer (33 -> 2 wavefronts per warp); XOR-swizzling the 4-byte elements of 'tile' by row (tile[r][c ^ (r & 31)]) gives the same with no extra memory, rewriting the subscripts of every access{{$}}
}

void go(const float4 *a, const float *b, float *o) {
  t<<<64, dim3(32, 32)>>>(a, o);
  u<<<64, dim3(32, 32)>>>(a, o);
  s<<<64, dim3(32, 32)>>>(b, o);
}
