// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// The global thread index written the wrong way round,
// blockIdx.x + blockDim.x * threadIdx.x, spreads the lanes blockDim.x
// elements apart; threadIdx.x + blockIdx.x * blockDim.x is coalesced.

__global__ void swapped(const float *in, float *out) {
  int i = blockIdx.x + blockDim.x * threadIdx.x;
  float v = in[i];
  // CHECK: :[[@LINE-1]]:13: warning: global load from 'in' uses 32 sectors per request (ideal 4): lanes are 1024 bytes apart [coalesce-uncoalesced-global]
  out[i] = v;
  // CHECK: :[[@LINE-1]]:3: warning: global store to 'out' uses 32 sectors per request (ideal 4): lanes are 1024 bytes apart [coalesce-uncoalesced-global]
  int k = blockIdx.x + gridDim.x * threadIdx.x;
  float w = in[k];
  // CHECK: :[[@LINE-1]]:13: warning: global load from 'in' uses 32 sectors per request (ideal 4): lanes are 256 bytes apart [coalesce-uncoalesced-global]
  int j = threadIdx.x + blockIdx.x * blockDim.x;
  out[j] = in[j] + w;
}

int main() {
  float *a, *b;
  swapped<<<64, 256>>>(a, b);
}
