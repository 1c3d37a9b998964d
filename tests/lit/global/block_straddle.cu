// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// Block widths that do not divide 32: warps straddle rows at different places.
// (24, 4): every warp holds all 24 columns tx (rows ty and ty + 1 share each
// column's sector), so in[tx * 1024 + ty] is 24 sectors in every warp.
// (48, 2) with rows 1001 floats apart (4004 bytes: row 1 starts 4 bytes into
// a sector): warp 0 is row 0 only (4 sectors), warp 1 is 16 floats of row 0
// (2) and 16 of row 1 (3), warp 2 is 32 floats of row 1 (5):
// (4 + 5 + 5) / 3 = 4.667 per request.

__global__ void w24(const float *in, float *out) {
  out[threadIdx.y * 24 + threadIdx.x] = in[threadIdx.x * 1024 + threadIdx.y];
  // CHECK: :[[@LINE-1]]:41: warning: global load from 'in' uses 24 sectors per request (ideal 4)
}

__global__ void w48(const float *in, float *out) {
  out[threadIdx.y * 48 + threadIdx.x] = in[threadIdx.y * 1001 + threadIdx.x];
  // CHECK: :[[@LINE-1]]:41: remark: global load from 'in' uses 4.667 sectors per request (ideal 4)
}

int main() {
  float *a, *b;
  w24<<<1, dim3(24, 4)>>>(a, b);
  w48<<<1, dim3(48, 2)>>>(a, b);
}
