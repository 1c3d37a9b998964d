// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// Lanes that read the same word are served together (broadcast/multicast):
// one address, a warp-uniform address, or a few distinct words in distinct
// banks cost 1 wavefront. Two distinct words in one bank still cost 2.

__global__ void bcast(float *out) {
  __shared__ float s[512];
  int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  float v = s[0];
  v += s[t / 32];
  v += s[t % 4];
  v += s[(t % 8) * 4];
  v += s[(t % 2) * 32];
  // CHECK: :[[@LINE-1]]:8: warning: shared load from 's' has a 2-way bank conflict: 2 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
  v += s[(t / 16) * 32];
  // CHECK: :[[@LINE-1]]:8: warning: shared load from 's' has a 2-way bank conflict: 2 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
  out[blockIdx.x * blockDim.x + t] = v;
}

int main() {
  float *o;
  bcast<<<64, 256>>>(o);
}
