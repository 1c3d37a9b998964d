// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// Block shapes given by a dim3 variable, constexpr constants and #define
// macros are read from the launch. The read in[tx * 1024 + ty] depends on
// the shape: a warp holds 32 / blockDim.x rows whose elements of one column
// share a sector (blockDim.x = 32 -> 32 sectors, 16 -> 16, 8 -> 8).

#define TX 32
#define TY 8
constexpr int BX = 8, BY = 32;

__global__ void by_dim3(const float *in, float *out) {
  float v = in[threadIdx.x * 1024 + threadIdx.y];
  // CHECK: :[[@LINE-1]]:13: warning: global load from 'in' uses 16 sectors per request (ideal 4)
  // CHECK: note: assuming blockDim = (16, 16, 1) from the launch at launch_constants.cu:[[#@LINE+21]]
  out[threadIdx.y * blockDim.x + threadIdx.x] = v;
}

__global__ void by_constexpr(const float *in, float *out) {
  float v = in[threadIdx.x * 1024 + threadIdx.y];
  // CHECK: :[[@LINE-1]]:13: warning: global load from 'in' uses 8 sectors per request (ideal 4)
  // CHECK: note: assuming blockDim = (8, 32, 1) from the launch at launch_constants.cu:[[#@LINE+15]]
  out[threadIdx.y * blockDim.x + threadIdx.x] = v;
}

__global__ void by_define(const float *in, float *out) {
  float v = in[threadIdx.x * 1024 + threadIdx.y];
  // CHECK: :[[@LINE-1]]:13: warning: global load from 'in' uses 32 sectors per request (ideal 4): lanes are 4096 bytes apart
  // CHECK: note: assuming blockDim = (32, 8, 1) from the launch at launch_constants.cu:[[#@LINE+9]]
  out[threadIdx.y * blockDim.x + threadIdx.x] = v;
}

int main() {
  float *a, *b;
  dim3 block(16, 16);
  by_dim3<<<1, block>>>(a, b);
  by_constexpr<<<1, dim3(BX, BY)>>>(a, b);
  by_define<<<1, dim3(TX, TY)>>>(a, b);
}
