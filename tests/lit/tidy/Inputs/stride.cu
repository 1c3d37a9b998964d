#ifndef STRIDE
#define STRIDE 2
#endif
__global__ void strided(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[STRIDE * i];
}
int main() {
  float *a, *b;
  strided<<<64, 256>>>(a, b);
}
