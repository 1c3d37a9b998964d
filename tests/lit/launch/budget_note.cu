// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// When the walk of the host code runs out of its budget before it reaches
// a launch (here: 20 loops over a million elements each, in main itself,
// before the first launch), the launch's function is walked by itself, and
// the note says why its parameters are not known: not "no code in this file
// calls" it. (The same loops in functions that reach no launch are each
// given up within their share: launch/call_share.cu.)

#define FILL(N)                                                                                    \
  for (int i = 0; i < n; i++)                                                                      \
    h[i] = N;

__global__ void late(float *p) { p[threadIdx.x * 2] = 0; }
// CHECK: :[[@LINE-1]]:34: warning: global store to 'p' uses 8 sectors per request (ideal 4)
// CHECK: note: blockDim unknown: the launch at budget_note.cu:[[#@LINE+2]] has a block shape that is not known statically (it depends on the parameter 'threads' of 'run_late', whose calls the walks of the host code did not reach (one of them ran out of its budget)); assuming blockDim.x is a multiple of 32; set {{--block=late=X,Y,Z|the check option Block=late=X,Y,Z}} to be exact;

void run_late(float *p, int threads) { late<<<64, threads>>>(p); }

int main() {
  float *p;
  cudaMalloc((void **)&p, 1 << 22);
  float *h = new float[1 << 20];
  const int n = 1 << 20;
  FILL(0) FILL(1) FILL(2) FILL(3) FILL(4) FILL(5) FILL(6) FILL(7) FILL(8) FILL(9)
  FILL(10) FILL(11) FILL(12) FILL(13) FILL(14) FILL(15) FILL(16) FILL(17) FILL(18) FILL(19)
  run_late(p, 128);
  return 0;
}
