// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// A call that reaches no launch gets at most a quarter of what the walk of
// the host code has left (here: a function of 20 loops over a million
// elements each, run before the first launch, as CUTLASS's examples fill
// their host tensors): one that needs more is given up, its effects those
// of a call not entered, and the walk goes on to the launch, whose block
// shape is known. (The walk ran out of its budget in the fills before; the
// same loops in main itself still do: launch/budget_note.cu.)

#define FILL(N)                                                                                    \
  for (int i = 0; i < n; i++)                                                                      \
    h[i] = N;
void fill_all(float *h, int n) {
  FILL(0) FILL(1) FILL(2) FILL(3) FILL(4) FILL(5) FILL(6) FILL(7) FILL(8) FILL(9)
  FILL(10) FILL(11) FILL(12) FILL(13) FILL(14) FILL(15) FILL(16) FILL(17) FILL(18) FILL(19)
}

__global__ void late(float *p) { p[threadIdx.x * 2] = 0; }
// CHECK: :[[@LINE-1]]:34: warning: global store to 'p' uses 8 sectors per request (ideal 4)
// CHECK: note: assuming blockDim = (128, 1, 1) from the launch at call_share.cu:[[#@LINE+2]];

void run_late(float *p, int threads) { late<<<64, threads>>>(p); }

int main() {
  float *p;
  cudaMalloc((void **)&p, 1 << 22);
  float *h = new float[1 << 20];
  fill_all(h, 1 << 20);
  run_late(p, 128);
  return 0;
}
