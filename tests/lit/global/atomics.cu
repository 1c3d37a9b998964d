// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// atomicAdd is a global access too: one address for the whole warp is one
// sector; consecutive counters are coalesced; counters 32 bytes apart take a
// sector each. (A data-dependent bin: atomic_data_dependent.cu.)

__global__ void atomics(const float *in, float *sum, int *hist) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(sum, in[i]);
  atomicAdd(&hist[i], 1);
  atomicAdd(&hist[i * 8], 1);
  // CHECK: :[[@LINE-1]]:3: warning: global atomic on 'hist' uses 32 sectors per request (ideal 4): lanes are 32 bytes apart [coalesce-uncoalesced-global]
}

int main() {
  float *a, *s;
  int *h;
  atomics<<<64, 256>>>(a, s, h);
}
