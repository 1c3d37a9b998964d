// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// A launcher called through a function pointer the walk cannot resolve
// (chosen at run time): its launch is evaluated from the launcher alone,
// and the note says the walk did not follow its calls.

int atoi(const char *);

__global__ void picked(float *p) { p[threadIdx.x * 2] = 0; }
// CHECK: :[[@LINE-1]]:36: warning: global store to 'p' uses 8 sectors per request (ideal 4)
// CHECK: note: blockDim unknown: the launch at unfollowed_call.cu:[[#@LINE+2]] has a block shape that is not known statically (it depends on the parameter 'threads' of 'run_picked', whose calls the walk of the host code did not follow); assuming blockDim.x is a multiple of 32;

void run_picked(float *p, int threads) { picked<<<64, threads>>>(p); }
void run_nothing(float *, int) {}

int main(int argc, char **argv) {
  float *p;
  cudaMalloc((void **)&p, 1 << 22);
  void (*run)(float *, int) = atoi(argv[1]) ? run_picked : run_nothing;
  run(p, 128);
  return 0;
}
