// Shared-memory accesses for the warp-map tests (explain.test, html).
__global__ void column(float *out) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void wide(double *out) {
  __shared__ double s[64];
  s[threadIdx.x] = 0;
  __syncthreads();
  out[threadIdx.x] = s[(threadIdx.x * 2) % 64];
}

__global__ void odd_lanes(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x % 2)
    out[i] = in[i * 8];
}

void launch(float *a, double *d, const float *in) {
  column<<<1, dim3(32, 32)>>>(a);
  wide<<<1, 64>>>(d);
  odd_lanes<<<4, 64>>>(in, a);
}
