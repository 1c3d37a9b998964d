// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// A host loop whose body makes a temporary object (a constructor call) or
// declares locals allocates them anew in each round of the walk's
// fixpoint: those cells are not part of the loop's state, and the fixpoint
// settles (it never did: the walk gave up after 16 rounds and the launch
// after the loop lost its block shape).

struct Acc {
  int v;
  Acc(int x) : v(x) {}
};

__global__ void late(float *p) { p[threadIdx.x * 2] = 0; }
// CHECK: :[[@LINE-1]]:34: warning: global store to 'p' uses 8 sectors per request (ideal 4)
// CHECK: note: assuming blockDim = (128, 1, 1) from the launch at loop_temporaries.cu:[[#@LINE+2]];

void run_late(float *p, int threads) { late<<<64, threads>>>(p); }

int main(int argc, char **) {
  float *p;
  cudaMalloc((void **)&p, 1 << 22);
  float *h = new float[1 << 20];
  for (int i = 0; i < argc; i++)
    h[i] = Acc(i).v;
  run_late(p, 128);
  return 0;
}
