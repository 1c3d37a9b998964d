// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// An XOR swizzle on a [32][32] tile: storing row ty at column tx ^ ty and
// reading column tx back at ty ^ tx spreads a column over all 32 banks
// (conflict-free, no padding). The plain column read is 32-way; swizzling
// with only 3 bits (tx % 8) leaves 4 words per bank (4-way).

__global__ void swizzle(const float *in, float *out) {
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx ^ ty] = in[ty * 32 + tx];
  __syncthreads();
  float v = tile[tx][ty ^ tx];
  v += tile[tx][ty];
  // CHECK: :[[@LINE-1]]:8: warning: shared load from 'tile' has a 32-way bank conflict: 32 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
  v += tile[tx][ty ^ (tx % 8)];
  // CHECK: :[[@LINE-1]]:8: warning: shared load from 'tile' has a 4-way bank conflict: 4 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
  out[ty * 32 + tx] = v;
}

int main() {
  float *a, *b;
  swizzle<<<1, dim3(32, 32)>>>(a, b);
}
