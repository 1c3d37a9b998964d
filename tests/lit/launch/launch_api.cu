// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint --format=json %s | FileCheck %s --check-prefix=JSON
// Launches through the runtime API instead of <<<...>>>: cudaLaunchKernel
// (the C form with `(void *)kernel`, and the C++ template),
// cudaLaunchCooperativeKernel, and cudaLaunchKernelEx / cudaLaunchKernelExC
// with a cudaLaunchConfig_t. Arguments passed through `void *args[]` are
// known when the array holds the addresses of known variables.

__global__ void c_form(float *p, int stride) { p[threadIdx.x * stride] = 0; }
// CHECK: :[[@LINE-1]]:48: warning: global store to 'p' uses 8 sectors per request (ideal 4)
// CHECK: note: assuming blockDim = (128, 1, 1) from the launch at launch_api.cu:[[#@LINE+28]];
// JSON: "kernel": "c_form"
// JSON: "args": {
// JSON-NEXT: "stride": 2
// JSON: "block": [
// JSON-NEXT: 128,
// JSON: "grid": [
// JSON-NEXT: 8,
// JSON: "pointer_offsets": {
// JSON-NEXT: "p": 64
__global__ void template_form(float *p) { p[threadIdx.x * 3] = 0; }
// CHECK: :[[@LINE-1]]:43: warning: global store to 'p' uses 12 sectors per request (ideal 4)
// CHECK: note: assuming blockDim = (64, 1, 1) from the launch at launch_api.cu:[[#@LINE+21]];
__global__ void cooperative(float *p) { p[threadIdx.x * 4] = 0; }
// CHECK: :[[@LINE-1]]:41: warning: global store to 'p' uses 16 sectors per request (ideal 4)
// CHECK: note: assuming blockDim = (256, 1, 1) from the launch at launch_api.cu:[[#@LINE+19]];
__global__ void extended(float *p, int stride) { p[threadIdx.x * stride] = 0; }
// CHECK: :[[@LINE-1]]:50: warning: global store to 'p' uses 24 sectors per request (ideal 4)
// CHECK: note: assuming blockDim = (32, 4, 1) from the launch at launch_api.cu:[[#@LINE+24]];
// CHECK: note: one finding for the 2 launch configurations or calls of this kernel that reach it; their costs: 20 sectors per request (ideal 4) for stride=5; 24 sectors per request (ideal 4) for stride=6.
//

int main() {
  float *d;
  cudaMalloc(&d, 1 << 20);
  float *p = d + 16;
  int stride = 2;
  void *args[] = {&p, &stride};
  cudaLaunchKernel((void *)c_form, dim3(8), dim3(128), args, 0, 0);

  int threads;
  threads = 64;
  void *one[] = {&d};
  cudaLaunchKernel(template_form, dim3(1), dim3(threads), one);
  cudaLaunchCooperativeKernel((const void *)&cooperative, 1, 256, one, 0, 0);

  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(16);
  cfg.blockDim = dim3(32, 4);
  cudaLaunchKernelEx(&cfg, extended, d, 5);
  int six = 6;
  void *more[] = {&d, &six};
  cudaLaunchKernelExC(&cfg, (void *)extended, more);
  return 0;
}
