// Coalesced itself; only the third-party header's function is not. See
// header-filter.test.
#include "tp.cuh"

__global__ void h(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = tp_load(in, i);
}

int main() {
  float *a, *b;
  h<<<64, 256>>>(a, b);
}
