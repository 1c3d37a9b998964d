// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// + - * << >> and / % & by constants are exact per lane: (tid / 32) * 64 +
// tid % 32 is a contiguous 128-byte window per warp; swapping the roles of
// tid / 32 and tid % 32 makes lanes 128 bytes apart.

__global__ void ops(const float *in, float *out) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  out[tid] = in[(tid / 32) * 64 + tid % 32];
  out[tid] = in[tid << 1];
  // CHECK: :[[@LINE-1]]:14: warning: global load from 'in' uses 8 sectors per request (ideal 4): lanes are 8 bytes apart [coalesce-uncoalesced-global]
  out[tid] = in[tid >> 1];
  out[tid] = in[tid & 31];
  out[tid] = in[(tid % 32) * 32 + tid / 32];
  // CHECK: :[[@LINE-1]]:14: warning: global load from 'in' uses 32 sectors per request (ideal 4): lanes are 128 bytes apart [coalesce-uncoalesced-global]
  out[tid] = in[tid * 2 + 1];
  // CHECK: :[[@LINE-1]]:14: warning: global load from 'in' uses 8 sectors per request (ideal 4): lanes are 8 bytes apart [coalesce-uncoalesced-global]
  out[tid] = in[tid * 3 - 2 * tid];
}

int main() {
  float *a, *b;
  ops<<<64, 256>>>(a, b);
}
