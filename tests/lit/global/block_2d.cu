// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// 2-D blocks with blockDim.x = 16: a warp is two rows of 16 threads
// (threadIdx.y = 2w and 2w + 1). Row-major reads touch two aligned 64-byte
// pieces (4 sectors, ideal); a transposed read puts the two rows' elements
// of one column in one sector (16 sectors, not 32).

#define W 1024

__global__ void tile16(const float *in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  float v = in[y * W + x];
  float t = in[x * W + y];
  // CHECK: :[[@LINE-1]]:13: warning: global load from 'in' uses 16 sectors per request (ideal 4): the lanes' addresses are not evenly spaced [coalesce-uncoalesced-global]
  // CHECK: note: assuming blockDim = (16, 16, 1) from the launch at block_2d.cu:[[#@LINE+11]]
  out[y * W + 2 * x] = v + t;
  // CHECK: :[[@LINE-1]]:3: warning: global store to 'out' uses 8 sectors per request (ideal 4): the lanes' addresses are not evenly spaced [coalesce-uncoalesced-global]
  double *d = (double *)out;
  d[y * W + x] = v;
}

int main() {
  float *a, *b;
  dim3 grid(W / 16, W / 16);
  dim3 block(16, 16);
  tile16<<<grid, block>>>(a, b);
}
