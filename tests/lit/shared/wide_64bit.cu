// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// 64-bit (double) shared accesses are served per half-warp: conflict-free
// costs 2 wavefronts, ideal 2, and is silent. Stride 2 doubles puts two words
// per bank in each half (4 wavefronts: 2-way); stride 4 (8: 4-way). One
// address for the whole warp is a broadcast (1 wavefront). A half-warp with
// no active lane costs nothing and is not in the ideal.

__global__ void doubles(double *out) {
  __shared__ double s[1024];
  int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  double v = s[t];
  v += s[2 * t];
  // CHECK: :[[@LINE-1]]:8: warning: shared load from 's' has a 2-way bank conflict: 4 wavefronts per request (ideal 2) [coalesce-shared-bank-conflict]
  v += s[4 * t];
  // CHECK: :[[@LINE-1]]:8: warning: shared load from 's' has a 4-way bank conflict: 8 wavefronts per request (ideal 2) [coalesce-shared-bank-conflict]
  v += s[0];
  v += s[t / 2];
  v += s[t + 1];
  if (t % 32 < 16) {
    v += s[t];
    v += s[2 * t];
    // CHECK: :[[@LINE-1]]:10: warning: shared load from 's' has a 2-way bank conflict: 2 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
  }
  out[blockIdx.x * blockDim.x + t] = v;
}

int main() {
  double *o;
  doubles<<<64, 256>>>(o);
}
