// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// Padding depends on the block shape. With a (16, 16) block a warp is two rows
// of 16 threads; in c[16][17] row ty starts at word 17 * ty, so the two rows
// of a row-major store cover words 34w .. 34w + 15 and 34w + 17 .. 34w + 32:
// the first and the last fall in the same bank (2-way). The column read
// c[tx][ty] has one such collision too (banks 17 * tx + ty, tx = 0 and 15).
// Unpadded rows of 32 words are worse: the column read d[tx][ty] puts 16
// words in each of banks ty (16-way), and the store is 2-way as well.

__global__ void padded(float *out) {
  __shared__ float c[16][17];
  int tx = threadIdx.x, ty = threadIdx.y;
  c[ty][tx] = tx;
  // CHECK: :[[@LINE-1]]:3: warning: shared store to 'c' has a 2-way bank conflict: 2 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
  __syncthreads();
  out[ty * 16 + tx] = c[tx][ty];
  // CHECK: :[[@LINE-1]]:23: warning: shared load from 'c' has a 2-way bank conflict: 2 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
}

__global__ void wide_rows(float *out) {
  __shared__ float d[16][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  d[ty][tx] = tx;
  // CHECK: :[[@LINE-1]]:3: warning: shared store to 'd' has a 2-way bank conflict: 2 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
  __syncthreads();
  out[ty * 16 + tx] = d[tx][ty];
  // CHECK: :[[@LINE-1]]:23: warning: shared load from 'd' has a 16-way bank conflict: 16 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
}

int main() {
  float *o;
  padded<<<1, dim3(16, 16)>>>(o);
  wide_rows<<<1, dim3(16, 16)>>>(o);
}
