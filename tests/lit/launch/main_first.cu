// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// The walk of the host code starts at main before the other roots
// (functions that nothing in the file calls): helpers that spend their
// budgets on long loops cannot use up the file's before main runs.

#define FILL(N)                                                                                    \
  void fill##N(float *a, int n) {                                                                  \
    for (int i = 0; i < n; i++)                                                                    \
      a[i] = N;                                                                                    \
  }
FILL(0) FILL(1) FILL(2) FILL(3) FILL(4) FILL(5) FILL(6) FILL(7)
FILL(8) FILL(9) FILL(10) FILL(11) FILL(12) FILL(13) FILL(14) FILL(15)

__global__ void other(float *p) { p[threadIdx.x] = 0; }

#define HELPER(K)                                                                                  \
  void helper##K(float *p, float *h) {                                                             \
    const int n = 1 << 20;                                                                         \
    fill0(h, n); fill1(h, n); fill2(h, n); fill3(h, n); fill4(h, n); fill5(h, n);                  \
    fill6(h, n); fill7(h, n); fill8(h, n); fill9(h, n); fill10(h, n); fill11(h, n);                \
    fill12(h, n); fill13(h, n); fill14(h, n); fill15(h, n);                                        \
    other<<<1, 64>>>(p);                                                                           \
  }
HELPER(0) HELPER(1) HELPER(2) HELPER(3) HELPER(4) HELPER(5)

__global__ void swept(float *p) { p[threadIdx.x * (blockDim.x / 32)] = 0; }
// One finding for both launches (the dearer shown), which names the other's cost.
// CHECK-DAG: :[[@LINE-2]]:35: warning: global store to 'p' uses 32 sectors per request (ideal 4)
// CHECK-DAG: note: assuming blockDim = (256, 1, 1) from the launch at main_first.cu:[[#@LINE+8]];
// CHECK-DAG: note: one finding for the 2 launch configurations or calls of this kernel that reach it; their costs: 8 sectors per request (ideal 4) for blockDim (64, 1, 1); 32 sectors per request (ideal 4) for blockDim (256, 1, 1).

int main() {
  float *p;
  cudaMalloc((void **)&p, 1 << 22);
  int sizes[] = {64, 256};
  for (int j = 0; j < 2; j++)
    swept<<<1024, sizes[j]>>>(p);
  return 0;
}
