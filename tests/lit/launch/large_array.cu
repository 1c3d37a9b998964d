// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// A local array too large to track element by element (a histogram of 256
// bins) is still one variable: writing into it, at a known or unknown
// index, changes only that array, not every
// variable whose address escaped (the block sizes of the sweep among them).

__global__ void binned(float *p) { p[threadIdx.x * (blockDim.x / 32)] = 0; }
// CHECK-DAG: :[[@LINE-1]]:36: warning: global store to 'p' uses 32 sectors per request (ideal 4)
// CHECK-DAG: note: assuming blockDim = (256, 1, 1) from the launch at large_array.cu:[[#@LINE+13]];
// CHECK-DAG: note: one finding for the 2 launch configurations or calls of this kernel that reach it; their costs: 8 sectors per request (ideal 4) for blockDim (64, 1, 1); 32 sectors per request (ideal 4) for blockDim (256, 1, 1).

int main() {
  float *p;
  cudaMalloc((void **)&p, 1 << 22);
  int sizes[] = {64, 256};
  int bins[256];
  for (int j = 0; j < 2; j++) {
    for (int b = 0; b < 256; b++)
      bins[b] = 0;
    int k = bins[3];
    bins[k] = 2;
    binned<<<1024, sizes[j]>>>(p);
  }
  return 0;
}
