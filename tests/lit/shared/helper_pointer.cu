// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// A __shared__ array passed to a __device__ helper as a plain pointer stays a
// shared access (banks, not sectors), reported at the helper's line with the
// call site.

__device__ void fill(float *s, int t) {
  s[2 * t] = 0.0f;
  // CHECK: :[[@LINE-1]]:3: warning: shared store to 's' has a 2-way bank conflict: 2 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
  // CHECK: note: in 'fill' called at helper_pointer.cu:[[#@LINE+8]];
  s[2 * t + 5] = 1.0f;
  // CHECK: :[[@LINE-1]]:3: warning: shared store to 's' has a 2-way bank conflict: 2 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
}

__global__ void pairs(float *out) {
  __shared__ float s[512];
  int t = threadIdx.x;
  fill(s, t);
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = s[t];
}

int main() {
  float *o;
  pairs<<<64, 256>>>(o);
}
