// RUN: %lint %s %S/Inputs/split_host.cpp | FileCheck %s --check-prefix=SPLIT --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint --block=scale=128 %s %S/Inputs/split_host.cpp | FileCheck %s --check-prefix=GIVEN --implicit-check-not=warning: --implicit-check-not=remark:
// A kernel file whose launcher is called from the host code of another file
// (Inputs/split_host.cpp, as cuda-samples' reduction splits reduction.cpp and
// reduction_kernel.cu). Each file is its own translation unit: the walk of
// the host code does not follow calls across files, so the launcher's
// `threads` is not known, and the note says so and how to give the shape.
// A launcher no file can call (static) is only "not called".

__global__ void scale(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i * 2] *= 2.0f;
}
// SPLIT: :[[@LINE-2]]:5: warning: global load and store of 'p' each use 8 sectors per request (ideal 4)
// SPLIT: note: blockDim unknown: the launch at split_host_kernel.cu:[[#@LINE+12]] has a block shape that is not known statically (it depends on the parameter 'threads' of 'launch_scale', which no code in this file calls (calls from other files are not followed)); assuming blockDim.x is a multiple of 32; set {{--block=scale=X,Y,Z|the check option Block=scale=X,Y,Z}} to be exact
//
// GIVEN: :[[@LINE-5]]:5: warning: global load and store of 'p' each use 8 sectors per request (ideal 4)
// GIVEN: note: assuming blockDim = (128, 1, 1) from {{--block=scale=128|the check option Block=scale=128}}: the launch at split_host_kernel.cu:[[#@LINE+9]] has a block shape that is not known statically (it depends on the parameter 'threads' of 'launch_scale', which no code in this file calls (calls from other files are not followed))
//

__global__ void shift(float *p) { p[threadIdx.x + 1] = 0; }
// SPLIT: :[[@LINE-1]]:35: remark: global store to 'p' uses 5 sectors per request (ideal 4)
// SPLIT: note: blockDim unknown: the launch at split_host_kernel.cu:[[#@LINE+8]] has a block shape that is not known statically (it depends on the parameter 'threads' of 'launch_shift', which no code in this file calls); assuming
// GIVEN: :[[@LINE-3]]:35: remark: global store to 'p' uses 5 sectors per request (ideal 4)

void launch_scale(float *d, int n, int threads) {
  scale<<<(n + threads - 1) / threads, threads>>>(d, n);
}

static void launch_shift(float *d, int threads) {
  shift<<<1, threads>>>(d);
}
