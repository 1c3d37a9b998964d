// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// s[stride * t] on 32-bit words for one warp: ways = gcd(stride, 32) for a
// stride up to 32 (odd strides, and 33, are conflict-free); non-powers of two
// count exactly (6 -> 2-way, 12 -> 4-way).

__global__ void sweep(float *out) {
  __shared__ float s[32 * 33 + 32];
  int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  float v = s[t];
  v += s[2 * t];
  // CHECK: :[[@LINE-1]]:8: warning: shared load from 's' has a 2-way bank conflict: 2 wavefronts per request (ideal 1)
  v += s[3 * t];
  v += s[4 * t];
  // CHECK: :[[@LINE-1]]:8: warning: shared load from 's' has a 4-way bank conflict: 4 wavefronts per request (ideal 1)
  v += s[6 * t];
  // CHECK: :[[@LINE-1]]:8: warning: shared load from 's' has a 2-way bank conflict: 2 wavefronts per request (ideal 1)
  v += s[8 * t];
  // CHECK: :[[@LINE-1]]:8: warning: shared load from 's' has an 8-way bank conflict: 8 wavefronts per request (ideal 1)
  v += s[12 * t];
  // CHECK: :[[@LINE-1]]:8: warning: shared load from 's' has a 4-way bank conflict: 4 wavefronts per request (ideal 1)
  v += s[16 * t];
  // CHECK: :[[@LINE-1]]:8: warning: shared load from 's' has a 16-way bank conflict: 16 wavefronts per request (ideal 1)
  v += s[32 * t];
  // CHECK: :[[@LINE-1]]:8: warning: shared load from 's' has a 32-way bank conflict: 32 wavefronts per request (ideal 1)
  v += s[33 * t];
  out[t] = v;
}

int main() {
  float *o;
  sweep<<<1, 32>>>(o);
}
