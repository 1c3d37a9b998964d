// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// A static 1-D __shared__ float array: bank = word % 32, ways = the most
// distinct words in one bank. Stride 1, odd strides and pairs of lanes
// sharing a word are conflict-free; stride 2 is 2-way, stride 4 is 4-way.

__global__ void one_d(float *out) {
  __shared__ float s[1024];
  int t = threadIdx.x;
  s[t] = t;
  s[t + 512] = t;
  __syncthreads();
  float v = s[t];
  v += s[t / 2];
  v += s[2 * t];
  // CHECK: :[[@LINE-1]]:8: warning: shared load from 's' has a 2-way bank conflict: 2 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
  v += s[3 * t];
  v += s[4 * t];
  // CHECK: :[[@LINE-1]]:8: warning: shared load from 's' has a 4-way bank conflict: 4 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
  s[2 * t + 1] = v;
  // CHECK: :[[@LINE-1]]:3: warning: shared store to 's' has a 2-way bank conflict: 2 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
  out[blockIdx.x * blockDim.x + t] = v;
}

int main() {
  float *o;
  one_d<<<64, 256>>>(o);
}
