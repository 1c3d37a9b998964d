// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint %s -- -fgpu-rdc | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// Launch configurations written in the common ways: a functional cast
// dim3(n), a namespace constant, and launches inside lambdas (as timing
// helpers take them). With -fgpu-rdc (CMake's CUDA_SEPARABLE_COMPILATION) a
// launch in a lambda is compiled for the device as
// cudaLaunchDevice(func, params, grid, block, ...): the block shape is still
// its fourth argument's, not the null parameter buffer's (it was read as 0).

namespace cfg {
constexpr int kThreads = 64;
}

template <class F> void timed(F f) { f(); }

__global__ void stride2(float *p) { p[2 * threadIdx.x] = 0; }
// CHECK: :[[@LINE-1]]:37: warning: global store to 'p' uses 8 sectors per request (ideal 4)
// CHECK: note: assuming blockDim = (64, 1, 1) from the launches at launch_forms.cu:22, launch_forms.cu:23, launch_forms.cu:24

void launch(float *p) {
  dim3 block(cfg::kThreads);
  stride2<<<1, dim3(cfg::kThreads)>>>(p);
  timed([&] { stride2<<<1, block>>>(p); });
  timed([&] { stride2<<<dim3(4), cfg::kThreads>>>(p); });
}
