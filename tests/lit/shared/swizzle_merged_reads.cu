// RUN: %lint %s | FileCheck %s
// A register tile read from a one-dimensional shared array, each thread's
// row read element by element (nvcc merges the reads into LDS.128), the tile
// written transposed from float4 loads: SGEMM-style kernels. A swizzle keeps
// the merged reads only if nvcc still merges them in the edited code, which
// ptxas decides (it must prove the alignment through the XOR): such a
// swizzle is offered only once a compile of the edited code says so
// (tests/lit/witness/layout_compile.cu). Here, without the compiler witness,
// only paddings that keep the reads aligned are offered.
#define BM 128

// BK = 16, so a warp's stores touch four column groups (4-way); no padding
// that keeps the reads 16-byte aligned separates them: the best halves the
// conflict. (With the compiler, a swizzle of 32-byte chunks removes it.)
__global__ void four_groups(const float4 *in, float *out) {
  __shared__ float As[BM * 16];
  int t = threadIdx.x, r = t / 4, c = t % 4;
  float4 v = in[blockIdx.x * 256 + t];
  As[(c * 4 + 0) * BM + r] = v.x;
  As[(c * 4 + 1) * BM + r] = v.y;
  As[(c * 4 + 2) * BM + r] = v.z;
  As[(c * 4 + 3) * BM + r] = v.w;
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < 16; ++k)
    for (int i = 0; i < 8; ++i)
      acc += As[k * BM + (t / 16) * 8 + i];
  out[blockIdx.x * 256 + t] = acc;
  // CHECK: swizzle_merged_reads.cu:[[@LINE-10]]:3: warning: shared store to 'As' has a 4-way bank conflict: 4 wavefronts per request (ideal 1)
  // CHECK-NOT: XOR-swizzling
  // CHECK: swizzle_merged_reads.cu:[[@LINE-15]]:23: note: padding the rows of `BM` elements of 'As' by 4 elements (As[(BM + 4) * 16]) gives 2 wavefronts per request (now 4) for blockDim (256, 1, 1); none of the 5 accesses of 'As' gets dearer (80 -> 72 wavefronts per warp)
}

// Each thread reads 16 adjacent floats (i < 16, four LDS.128): no unit of a
// swizzle holds them all, so no swizzle keeps them adjacent (with or
// without the compiler); the padding that halves the conflict is offered.
__global__ void wide_rows(const float4 *in, float *out) {
  __shared__ float As[BM * 16];
  int t = threadIdx.x, r = t / 4, c = t % 4;
  float4 v = in[blockIdx.x * 256 + t];
  As[(c * 4 + 0) * BM + r] = v.x;
  As[(c * 4 + 1) * BM + r] = v.y;
  As[(c * 4 + 2) * BM + r] = v.z;
  As[(c * 4 + 3) * BM + r] = v.w;
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < 16; ++k)
    for (int i = 0; i < 16; ++i)
      acc += As[k * BM + (t / 8) * 16 + i];
  out[blockIdx.x * 256 + t] = acc;
  // CHECK: swizzle_merged_reads.cu:[[@LINE-10]]:3: warning: shared store to 'As' has a 4-way bank conflict: 4 wavefronts per request (ideal 1)
  // CHECK-NOT: XOR-swizzling
  // CHECK: swizzle_merged_reads.cu:[[@LINE-15]]:23: note: padding the rows of `BM` elements of 'As' by 4 elements (As[(BM + 4) * 16]) gives 2 wavefronts per request (now 4)
}

// The read's base is a multiple of 4 floats only ((t / 16) * 4, i < 8): no
// unit holds i's values above a multiple of it, so no swizzle is tried.
__global__ void unaligned_base(const float4 *in, float *out) {
  __shared__ float As[BM * 16];
  int t = threadIdx.x, r = t / 4, c = t % 4;
  float4 v = in[blockIdx.x * 256 + t];
  As[(c * 4 + 0) * BM + r] = v.x;
  As[(c * 4 + 1) * BM + r] = v.y;
  As[(c * 4 + 2) * BM + r] = v.z;
  As[(c * 4 + 3) * BM + r] = v.w;
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < 16; ++k)
    for (int i = 0; i < 8; ++i)
      acc += As[k * BM + (t / 16) * 4 + i];
  out[blockIdx.x * 256 + t] = acc;
  // CHECK: swizzle_merged_reads.cu:[[@LINE-10]]:3: warning: shared store to 'As' has a 4-way bank conflict
  // CHECK-NOT: XOR-swizzling
  // CHECK: swizzle_merged_reads.cu:[[@LINE-15]]:23: note: padding the rows
}

// A tile padded by hand ([16][17]) under a 16 x 16 block: the rows without
// their padding, swizzled, would remove the conflicts, but rows of 64 bytes
// may let nvcc merge accesses differently, so without the compiler witness
// the padding that halves them is offered, and the note says what was left
// out and why.
__global__ void hand_padded(float *out) {
  __shared__ float t[16][17];
  int tx = threadIdx.x, ty = threadIdx.y;
  t[ty][tx] = tx;
  __syncthreads();
  out[(blockIdx.x * 16 + ty) * 16 + tx] = t[tx][ty];
  // CHECK: swizzle_merged_reads.cu:[[@LINE-3]]:3: warning: shared store to 't' has a 2-way bank conflict
  // CHECK: swizzle_merged_reads.cu:[[@LINE-6]]:26: note: padding the innermost dimension by 1 element (t[16][18]) gives 1 wavefront per request (now 2) for blockDim (16, 16, 1); none of the 2 accesses of 't' gets dearer (4 -> 3 wavefronts per warp); XOR-swizzling the 4-byte elements of 't' by row without the padding of its rows (t[16][16], t[r][c ^ (r & 15)]) would give 2 wavefronts per warp if nvcc kept emitting the same shared-memory instructions for the edited code; not offered: no compile of the edited code confirms it
}

void launch(const float4 *in, float *out) {
  four_groups<<<64, 256>>>(in, out);
  wide_rows<<<64, 256>>>(in, out);
  unaligned_base<<<64, 256>>>(in, out);
  hand_padded<<<64, dim3(16, 16)>>>(out);
}
