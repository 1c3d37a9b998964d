// A float4-written tile read down its columns (layout-fix.test).
__global__ void vec_col(const float4 *in, float *out) {
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  *reinterpret_cast<float4 *>(&tile[ty][4 * tx]) = in[(blockIdx.x * 32 + ty) * 8 + tx];
  __syncthreads();
  for (int j = 0; j < 4; ++j)
    out[(blockIdx.x * 4 + j) * 256 + ty * 8 + tx] = tile[4 * tx + j][ty];
}

void go(const float4 *a, float *o) { vec_col<<<64, dim3(8, 32)>>>(a, o); }
