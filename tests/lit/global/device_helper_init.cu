// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// A local variable initialised by a call to a __device__ helper
// (`float a = load_at(...)`), twice in a row: the common way to use a helper.
// (This used to crash: a frame reference kept across the call.)

__device__ float load_at(const float *p, int k) {
  return p[k];
  // CHECK: :[[@LINE-1]]:10: warning: global load from 'in' uses 8 sectors per request (ideal 4): lanes are 8 bytes apart [coalesce-uncoalesced-global]
  // CHECK: note: in 'load_at' called at device_helper_init.cu:[[#@LINE+6]];
}

__global__ void helpers(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = load_at(in, i);
  float b = load_at(in, 2 * i);
  out[i] = a + b;
}

int main() {
  float *a, *b;
  helpers<<<64, 256>>>(a, b);
}
