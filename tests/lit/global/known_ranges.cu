// A quotient or remainder by a constant of a value whose symbols take
// values in a known range (model/IntOps.cpp): exact where the value stays
// within one multiple of the divisor over the whole range, a symbol of its
// own (with the assumption stated) where it does not.
// RUN: %lint --format=json %s | FileCheck %s --check-prefix=JSON
// RUN: %lint %s | FileCheck %s
// UNSUPPORTED: tidy

// blockIdx.x % 4 over a grid of 4 blocks is blockIdx.x: the four blocks
// start 0, 4, 8 and 12 bytes past a sector, 4, 5, 5 and 5 sectors.
// CHECK: known_ranges.cu:[[@LINE+4]]:{{[0-9]+}}: remark: global load from 'x' uses 4.75 sectors per request (ideal 4)
// JSON: "sectors_per_request": 4.75
__global__ void rem_tiles(const float *x, float *o) {
  int tile = blockIdx.x % 4;
  o[blockIdx.x * 32 + threadIdx.x] = x[tile * 33 + threadIdx.x];
}

// Over 16 blocks blockIdx.x % 5 wraps: a symbol of its own, its alignment
// assumed and said.
// JSON: "assuming '(blockIdx.x%5)/1' keeps the 32-byte alignment of the address; otherwise 4 to 5 sectors"
__global__ void rem_wraps(const float *x, float *o) {
  int tile = blockIdx.x % 5;
  o[blockIdx.x * 32 + threadIdx.x] = x[tile * 33 + threadIdx.x];
}

// A thread layout of 32 x 8 over a block of 256 (CuTe's local_partition):
// the warp's row is (tid / 32) % 8, its column tid % 32. The warps are
// walked as one (threadIdx.x = 32 w + lane, w over 0-7), where the row is w.
// CHECK-NOT: known_ranges.cu:[[@LINE+6]]:{{[0-9]+}}: {{warning|remark}}
__global__ void thread_layout(const float *x, float *o, int ld) {
  int t = threadIdx.x;
  int row = (t / 32) % 8;
  int col = t % 32;
  o[(blockIdx.x * 8 + row) * ld + col] = x[(blockIdx.x * 8 + row) * ld + col];
}

void launch(const float *x, float *o) {
  rem_tiles<<<4, 32>>>(x, o);
  rem_wraps<<<16, 32>>>(x, o);
  thread_layout<<<64, 256>>>(x, o, 1024);
}
