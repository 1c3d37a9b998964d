// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// A benchmark helper that forwards its arguments to the launcher
// (std::forward, std::move pass their argument through, the grid here as
// an lvalue to a forwarding reference), and a loop that
// reads or changes objects of a toolkit type in host memory (they are no
// variable of the walk): none of them loses the block size the sweep
// launches with.

#include <utility>
#include "Inputs/packed_half.h"

void *malloc(unsigned long);

__global__ void forwarded(float *p) { p[threadIdx.x * (blockDim.x / 32) * (gridDim.x / 1024)] = 0; }
// CHECK-DAG: :[[@LINE-1]]:39: warning: global store to 'p' uses 32 sectors per request (ideal 4)
// CHECK-DAG: note: assuming blockDim = (256, 1, 1) from the launch at forwarding.cu:[[#@LINE+4]];
// CHECK-DAG: note: one finding for the 2 launch configurations or calls of this kernel that reach it; their costs: 8 sectors per request (ideal 4) for blockDim (64, 1, 1); 32 sectors per request (ideal 4) for blockDim (256, 1, 1).

void run_forwarded(float *p, int threads, int grid) {
  forwarded<<<grid, threads>>>(p);
}

template <class F, class... A> void repeat(int n, F f, A &&...args) {
  for (int i = 0; i < n; i++)
    f(std::forward<A>(args)...);
}

float total(const packed_half *h, int n) {
  float s = 0;
  for (int i = 0; i < n; i++)
    s += (float)h[i];
  return s;
}

void clear_all(packed_half *h, int n) {
  for (int i = 0; i < n; i++)
    h[i].clear();
}

int main() {
  float *p;
  cudaMalloc((void **)&p, 1 << 24);
  packed_half *h = (packed_half *)malloc(2 << 20);
  int sizes[] = {64, 256};
  for (int j = 0; j < 2; j++) {
    int grid = 1024;
    repeat(3, run_forwarded, p, sizes[j], std::move(grid));
    if (total(h, 1 << 20) < 0)
      return 1;
    clear_all(h, 1 << 20);
  }
  return 0;
}
