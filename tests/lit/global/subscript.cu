// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// Array subscripts on pointer parameters: lane L's byte offset is its index
// times the element size. Contiguous, broadcast and reversed reads are ideal
// and silent; strided ones cost one sector per 32 bytes spanned, counted
// exactly for strides that are not powers of two.

__global__ void subscripts(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
  out[i] = in[blockIdx.x];
  out[i] = in[255 - threadIdx.x];
  out[i] = in[i * 5];
  // CHECK: :[[@LINE-1]]:12: warning: global load from 'in' uses 20 sectors per request (ideal 4): lanes are 20 bytes apart [coalesce-uncoalesced-global]
  out[i] = in[i * 1024];
  // CHECK: :[[@LINE-1]]:12: warning: global load from 'in' uses 32 sectors per request (ideal 4): lanes are 4096 bytes apart [coalesce-uncoalesced-global]
  out[2 * i] = in[i];
  // CHECK: :[[@LINE-1]]:3: warning: global store to 'out' uses 8 sectors per request (ideal 4): lanes are 8 bytes apart [coalesce-uncoalesced-global]
}

int main() {
  float *a, *b;
  subscripts<<<64, 256>>>(a, b);
}
