// RUN: %lint %s --block=64 | FileCheck %s --check-prefixes=CHECK,PLAIN --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint %s --block=64 --block=by_input=16,16 '--block=tiled<2>=8,4' --block=tiled=32,2 --block=launched=32 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,NAMED --implicit-check-not=warning: --implicit-check-not=remark:
// --block gives the block shape of every kernel whose shape is not known:
// one with no launch in the file, or one whose launch takes its shape from
// run-time input. --block=KERNEL=X,Y,Z gives it for the kernels of that
// name, with or without template arguments (the more specific wins). A
// launch whose shape is known always wins. Each note says which shape was
// used and why.

__global__ void by_input(float *p) { p[threadIdx.x * 1024 + threadIdx.y] = 0; }
// PLAIN: :[[@LINE-1]]:38: warning: {{(.*: )?}}global store to 'p' uses 32 sectors per request (ideal 4)
// PLAIN: note: {{(in [^:]*: )?}}assuming blockDim = (64, 1, 1) from {{--block=64|the check option Block=64}}: the launch at block_option.cu:[[#@LINE+22]] has a block shape that is not known statically (it depends on the value returned by 'atoi' at block_option.cu:[[#@LINE+21]]);
// NAMED: :[[@LINE-3]]:38: warning: {{(.*: )?}}global store to 'p' uses 16 sectors per request (ideal 4)
// NAMED: note: {{(in [^:]*: )?}}assuming blockDim = (16, 16, 1) from {{--block=by_input=16,16|the check option Block=by_input=16,16}}: the launch at block_option.cu:[[#@LINE+20]] has a block shape that is not known statically (it depends on the value returned by 'atoi' at block_option.cu:[[#@LINE+19]]);

template <int N> __global__ void tiled(float *p) { p[threadIdx.x * 1024 + threadIdx.y + N] = 0; }
// CHECK-DAG: :[[@LINE-1]]:52: warning: {{(.*: )?}}global store to 'p' uses 32 sectors per request (ideal 4)
// PLAIN-DAG: note: {{(in [^:]*: )?}}assuming blockDim = (64, 1, 1) from {{--block=64|the check option Block=64}} (no launch in this file);
// NAMED-DAG: note: {{(in [^:]*: )?}}assuming blockDim = (32, 2, 1) from {{--block=tiled=32,2|the check option Block=tiled=32,2}} (no launch in this file);
// NAMED-DAG: :[[@LINE-4]]:52: warning: {{(.*: )?}}global store to 'p' uses 8 sectors per request (ideal 4)
// NAMED-DAG: note: {{(in [^:]*: )?}}assuming blockDim = (8, 4, 1) from {{'--block=tiled<2>=8,4'|--block=tiled<2>=8,4|the check option Block=tiled<2>=8,4}} (no launch in this file);
template __global__ void tiled<1>(float *p);
template __global__ void tiled<2>(float *p);

__global__ void launched(float *p) { p[threadIdx.x * 1024 + threadIdx.y] = 0; }
// CHECK: :[[@LINE-1]]:38: warning: {{(.*: )?}}global store to 'p' uses 16 sectors per request (ideal 4)
// CHECK: note: {{(in [^:]*: )?}}assuming blockDim = (16, 16, 1) from the launch at block_option.cu:[[#@LINE+8]];

int atoi(const char *);

int main(int argc, char **argv) {
  float *p;
  int threads = atoi(argv[1]);
  by_input<<<1, threads>>>(p);
  launched<<<1, dim3(16, 16)>>>(p);
  return 0;
}
