// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// Without a launch in the file or --block, the tool assumes blockDim.x is a
// multiple of 32 (a warp is 32 consecutive threadIdx.x of one row) and says so.

__global__ void k(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  float w = in[2 * i];
  // CHECK: :[[@LINE-1]]:13: warning: global load from 'in' uses 8 sectors per request (ideal 4): lanes are 8 bytes apart [coalesce-uncoalesced-global]
  // CHECK: note: blockDim unknown (no launch in this file): assuming blockDim.x is a multiple of 32; set {{--block=X,Y,Z|the check option Block=X,Y,Z}} to be exact
  float r = in[threadIdx.y * 4096 + threadIdx.x];
  out[i] = v + w + r;
}
