__constant__ float4 vec[64];

__global__ void k(float4 *out) {
  out[blockIdx.x * 32 + threadIdx.x] = vec[threadIdx.x / 8];
}

int main() {
  float4 *o;
  k<<<64, 32>>>(o);
}
