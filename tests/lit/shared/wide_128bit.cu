// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// 128-bit (float4) shared accesses are served per quarter-warp: conflict-free
// costs 4 wavefronts, ideal 4, and is silent. Stride 2 float4s: 8 (2-way);
// stride 4: 16 (4-way). One address for the warp: each half-warp is one
// broadcast (2 wavefronts); eight lanes per address (t / 8): 4, ideal.

__global__ void vec4(float4 *out) {
  __shared__ float4 s[1024];
  int t = threadIdx.x;
  s[t] = make_float4(t, t, t, t);
  __syncthreads();
  float4 a = s[t];
  float4 b = s[2 * t];
  // CHECK: :[[@LINE-1]]:14: warning: shared load from 's' has a 2-way bank conflict: 8 wavefronts per request (ideal 4) [coalesce-shared-bank-conflict]
  float4 c = s[4 * t];
  // CHECK: :[[@LINE-1]]:14: warning: shared load from 's' has a 4-way bank conflict: 16 wavefronts per request (ideal 4) [coalesce-shared-bank-conflict]
  float4 d = s[0];
  float4 e = s[t / 8];
  out[blockIdx.x * blockDim.x + t] =
      make_float4(a.x + b.x, c.y + d.y, e.z, a.w);
}

int main() {
  float4 *o;
  vec4<<<64, 256>>>(o);
}
