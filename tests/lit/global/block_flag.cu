// RUN: %lint --block=16,16 %s | FileCheck %s --check-prefix=B16 --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint --block=32,8 %s | FileCheck %s --check-prefix=B32 --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint --block=8,4,8 %s | FileCheck %s --check-prefix=B8 --implicit-check-not=warning: --implicit-check-not=remark:
// --block= gives the shape of kernels that are not launched in the file. With
// (8, 4, 8) a warp is 4 rows of 8 threads at one threadIdx.z.

__global__ void transposed_read(const float *in, float *out) {
  float v = in[threadIdx.x * 1024 + threadIdx.y];
  // B16: :[[@LINE-1]]:13: warning: global load from 'in' uses 16 sectors per request (ideal 4)
  // B16: note: assuming blockDim = (16, 16, 1) from {{--block|the check option Block}}
  // B32: :[[@LINE-3]]:13: warning: global load from 'in' uses 32 sectors per request (ideal 4): lanes are 4096 bytes apart
  // B32: note: assuming blockDim = (32, 8, 1) from {{--block|the check option Block}}
  // B8: :[[@LINE-5]]:13: warning: global load from 'in' uses 8 sectors per request (ideal 4)
  // B8: note: assuming blockDim = (8, 4, 8) from {{--block|the check option Block}}
  out[(threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x] = v;
}
