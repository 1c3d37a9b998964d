// A bank conflict's excess is in wavefronts, not bytes (docs/ranking.md).
__global__ void column_read(float *out) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x * 1024 + threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

int main() {
  float *o;
  column_read<<<64, dim3(32, 32)>>>(o);
}
