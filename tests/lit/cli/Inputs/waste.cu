// Two findings whose order by wasted traffic is not their order by sectors
// per request (docs/ranking.md).
__global__ void small_transpose(const float *in, float *out) {
  int i = threadIdx.x;
  out[i] = in[i * 1024]; // 32 sectors per request, but one block of 8 warps
}

__global__ void big_stride(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[2 * i]; // 8 sectors per request, over 524,288 warps
}

// No launch: its excess is per warp.
__global__ void unlaunched(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[4 * i];
}

int main() {
  float *a, *b;
  small_transpose<<<1, 256>>>(a, b);
  big_stride<<<65536, 256>>>(a, b);
}
