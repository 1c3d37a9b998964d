__constant__ float table[64];

__global__ void k(float *out) {
  out[blockIdx.x * 256 + threadIdx.x] = table[threadIdx.x / 8];
}

int main() {
  float *o;
  k<<<64, 256>>>(o);
}
