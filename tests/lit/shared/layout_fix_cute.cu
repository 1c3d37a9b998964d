// RUN: %lint %s | FileCheck %s
// In a translation unit that uses CuTe, a swizzle is also named as CuTe's
// Swizzle<B, M, S> on element offsets: float rows of 32 (5 bits), 16-byte
// chunks (M = 2), rows shifted by 2: S = 5 + 2 - 2.
namespace cute {
template <int B, int M, int S> struct Swizzle {};
} // namespace cute

__global__ void vec_col(const float4 *in, float *out) {
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  *reinterpret_cast<float4 *>(&tile[ty][4 * tx]) = in[(blockIdx.x * 32 + ty) * 8 + tx];
  __syncthreads();
  for (int j = 0; j < 4; ++j)
    out[(blockIdx.x * 4 + j) * 256 + ty * 8 + tx] = tile[4 * tx + j][ty];
  // CHECK: note: XOR-swizzling the 16-byte chunks of 'tile' by row (tile[r][c ^ (((r >> 2) & 7) << 2)]; CuTe Swizzle<3, 2, 5> on element offsets) gives 1 wavefront per request
}

void go(const float4 *a, float *o) { vec_col<<<64, dim3(8, 32)>>>(a, o); }
