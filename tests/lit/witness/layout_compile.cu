// REQUIRES: witness
// RUN: %witness-lint %s | FileCheck %s
// A swizzle over shared reads that nvcc merges into LDS.128 (a register
// tile's row read element by element) holds only if nvcc still merges them
// in the edited code: ptxas must prove the alignment through the XOR, and
// does in some forms, not in others. The choice compiles the edited code
// (driver/FixCompile.h) and offers such a swizzle only when nvcc emits the
// same shared-memory instructions on the array's lines; otherwise it
// chooses among the other layouts. Each "after" below was read in SASS
// (sm_90, nvcc 13); sample_kernels/register_tiles.cu measures the first.
#define BM 128

// Offered: BK = 16, a warp's stores touch four column groups (4-way); the
// 32-byte chunks swizzled by (row >> 2) & 3 remove it, and with the read
// written `(b ^ bits) + i` nvcc keeps its 32 LDS.128. No padding that keeps
// the reads aligned does better than 2-way.
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
  // CHECK: layout_compile.cu:[[@LINE-10]]:3: warning: shared store to 'As' has a 4-way bank conflict: 4 wavefronts per request (ideal 1)
  // CHECK: layout_compile.cu:[[@LINE-11]]:6: note: XOR-swizzling the 32-byte chunks of 'As' by row (rows of `BM` elements: As[r * BM + (c ^ (((r >> 2) & 3) << 3))]) gives 1 wavefront per request (now 4) for blockDim (256, 1, 1); nvcc, compiling the edited code, emits the same shared-memory instructions on the array's lines; none of the 5 accesses of 'As' gets dearer (80 -> 68 wavefronts per warp)
  // CHECK: fix-it: {{.*}}layout_compile.cu:[[@LINE-12]]:6: replace 20 characters with "(c * 4 + 0) * BM + (r ^ ((((c * 4 + 0) >> 2) & 3) << 3))"
  // CHECK: fix-it: {{.*}}layout_compile.cu:[[@LINE-5]]:17: replace 25 characters with "k * BM + ((((t / 16) * 8) ^ (((k >> 2) & 3) << 3)) + i)"
}

// Not offered: the column groups are rows c + 4q, so the swizzle XORs by
// row & 3; with the read loop unrolled by 4 nvcc emits 24 LDS and 2 LDS.128
// for `(((t / 16) * 8) ^ ((k & 3) << 3)) + i` (8 LDS.128 as written): the
// compile says so, and the padding by 8 floats, as good and keeping the
// reads, is offered instead.
__global__ void unrolled_by_four(const float *in, float *out) {
  __shared__ float As[BM * 16];
  int t = threadIdx.x, r = t / 4, c = t % 4;
  for (int q = 0; q < 4; ++q)
    As[(c + 4 * q) * BM + r] = in[t * 4 + q];
  __syncthreads();
  float acc = 0;
#pragma unroll 4
  for (int k = 0; k < 16; ++k)
    for (int i = 0; i < 8; ++i)
      acc += As[k * BM + (t / 16) * 8 + i];
  out[t] = acc;
  // CHECK: layout_compile.cu:[[@LINE-8]]:5: warning: shared store to 'As' has a 4-way bank conflict: 4 wavefronts per request (ideal 1)
  // CHECK-NOT: XOR-swizzling
  // CHECK: layout_compile.cu:[[@LINE-13]]:23: note: padding the rows of `BM` elements of 'As' by 8 elements (As[(BM + 8) * 16]) gives 1 wavefront per request (now 4)
}

// Offered: a tile padded by hand ([16][17]) under a 16 x 16 block, whose
// warps cover two rows: no padding removes both conflicts (the store needs a
// pitch of 16 banks mod 32, the column read an odd one); the rows without
// their padding, swizzled by element, do. Rows of 64 bytes may let nvcc
// merge accesses it emits one by one at a pitch of 68, so this too is
// compiled first: the same scalar LDS and STS.
__global__ void hand_padded(float *out) {
  __shared__ float t[16][17];
  int tx = threadIdx.x, ty = threadIdx.y;
  t[ty][tx] = tx;
  __syncthreads();
  out[(blockIdx.x * 16 + ty) * 16 + tx] = t[tx][ty];
  // CHECK: layout_compile.cu:[[@LINE-3]]:3: warning: shared store to 't' has a 2-way bank conflict
  // CHECK: layout_compile.cu:[[@LINE-6]]:26: note: XOR-swizzling the 4-byte elements of 't' by row without the padding of its rows (t[16][16], t[r][c ^ (r & 15)]) gives 1 wavefront per request (now 2) for blockDim (16, 16, 1); nvcc, compiling the edited code, emits the same shared-memory instructions on the array's lines; none of the 2 accesses of 't' gets dearer (4 -> 2 wavefronts per warp)
  // CHECK: fix-it: {{.*}}layout_compile.cu:[[@LINE-7]]:26: replace 2 characters with "16"
  // CHECK: fix-it: {{.*}}layout_compile.cu:[[@LINE-6]]:9: replace 2 characters with "tx ^ (ty & 15)"
}

void launch(const float4 *in4, const float *in, float *out) {
  four_groups<<<64, 256>>>(in4, out);
  unrolled_by_four<<<64, 256>>>(in, out);
  hand_padded<<<64, dim3(16, 16)>>>(out);
}
