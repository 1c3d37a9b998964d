// A kernel that calls device functions from three kinds of header: its
// project's own (inc/), a third-party one outside the project (-I), and a
// system header (-isystem). Each access is uncoalesced. See header-filter.test.
#include "inc/own.cuh"
#include "tp.cuh"
#include <sysh.cuh>

__global__ void k(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 32] + own_load(in, i) + tp_load(in, i) + sys_load(in, i);
}

int main() {
  float *a, *b;
  k<<<64, 256>>>(a, b);
}
