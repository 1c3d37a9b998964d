__global__ void broken(const float *in, float *out) {
  out[threadIdx.x] = in[threadIdx.x]
}
