// Coalesced when compiled for sm_80 or newer, strided before (config.test).
__global__ void k(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#if __CUDA_ARCH__ >= 800
  out[i] = in[i];
#else
  out[i] = in[i * 32];
#endif
}
