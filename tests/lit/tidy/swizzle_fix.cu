// Applying a swizzle through clang-tidy --fix-notes: every edit of the fix
// sits on the one note (the subscripts of the store and of the load), so the
// rewritten file is conflict-free and keeps its float4 stores.
// RUN: cp %s %t.cu
// RUN: %tidy --fix-notes %t.cu -- %cuda-flags
// RUN: FileCheck --check-prefix=FIXED %s < %t.cu
// RUN: %tidy %t.cu -- %cuda-flags | FileCheck --allow-empty --check-prefix=AFTER %s
// AFTER-NOT: warning:

__global__ void vec_col(const float4 *in, float *out) {
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  *reinterpret_cast<float4 *>(&tile[ty][4 * tx]) = in[(blockIdx.x * 32 + ty) * 8 + tx];
  // FIXED: {{^}}  *reinterpret_cast<float4 *>(&tile[ty][(4 * tx) ^ (((ty >> 2) & 7) << 2)]) = in[(blockIdx.x * 32 + ty) * 8 + tx];
  __syncthreads();
  for (int j = 0; j < 4; ++j)
    out[(blockIdx.x * 4 + j) * 256 + ty * 8 + tx] = tile[4 * tx + j][ty];
  // FIXED: {{^}}    out[(blockIdx.x * 4 + j) * 256 + ty * 8 + tx] = tile[4 * tx + j][ty ^ ((((4 * tx + j) >> 2) & 7) << 2)];
}

void go(const float4 *a, float *o) { vec_col<<<64, dim3(8, 32)>>>(a, o); }
