// Coalesced itself; only the headers' functions are not. See header-filter.test.
#include "tp.cuh"
#include <sysh.cuh>

__global__ void h(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = tp_load(in, i) + sys_load(in, i);
}

int main() {
  float *a, *b;
  h<<<64, 256>>>(a, b);
}
