// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// Pointers into a shared tile keep the tile's layout: a pointer to lane t's
// row (tile[t]) makes every lane use the same bank (32-way); a pointer to
// lane t's column (&tile[0][t]) and a warp-uniform row pointer are ideal.

__global__ void rows(float *out) {
  __shared__ float tile[32][32];
  int t = threadIdx.x;
  float *mine = tile[t];
  float *col = &tile[0][t];
  mine[0] = t;
  // CHECK: :[[@LINE-1]]:3: warning: shared store to 'tile' has a 32-way bank conflict: 32 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
  col[0] = t;
  __syncthreads();
  float v = col[5 * 32];
  v += mine[7];
  // CHECK: :[[@LINE-1]]:8: warning: shared load from 'tile' has a 32-way bank conflict: 32 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
  float *p = &tile[blockIdx.x % 32][0];
  v += p[t];
  out[blockIdx.x * 32 + t] = v;
}

int main() {
  float *o;
  rows<<<32, 32>>>(o);
}
