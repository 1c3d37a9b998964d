// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// Static 2-D __shared__ arrays read by a (16, 16) block, where a warp is two
// rows of 16 threads. a[16][16]: a[ty][tx] is one row of 32 words (ideal);
// a[tx][ty] puts 8 words in each of 4 banks (8-way). b[16][32]: b[ty][tx]
// puts the two rows' words in the same 16 banks (2-way).

__global__ void two_d(float *out) {
  __shared__ float a[16][16];
  __shared__ float b[16][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  a[ty][tx] = tx;
  b[ty][tx + 16] = ty;
  // CHECK: :[[@LINE-1]]:3: {{warning}}: shared store to 'b' has a 2-way bank conflict: 2 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
  __syncthreads();
  float v = a[ty][tx];
  v += a[tx][ty];
  // CHECK: :[[@LINE-1]]:8: {{warning}}: shared load from 'a' has an 8-way bank conflict: 8 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
  v += b[ty][tx];
  // CHECK: :[[@LINE-1]]:8: {{warning}}: shared load from 'b' has a 2-way bank conflict: 2 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
  out[(blockIdx.x * 16 + ty) * 16 + tx] = v;
}

int main() {
  float *o;
  two_d<<<64, dim3(16, 16)>>>(o);
}
