// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// Pointer dereference: `*p` and `*(in + k)` are accesses like `in[k]`.

__global__ void deref(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float *p = in + i;
  *(out + i) = *p;
  *(out + i) = *(in + 2 * i);
  // CHECK: :[[@LINE-1]]:16: warning: global load from 'in' uses 8 sectors per request (ideal 4): lanes are 8 bytes apart [coalesce-uncoalesced-global]
  const float *q = in + 32 * i;
  *(out + i) = *q;
  // CHECK: :[[@LINE-1]]:16: warning: global load from 'in' uses 32 sectors per request (ideal 4): lanes are 128 bytes apart [coalesce-uncoalesced-global]
  *(out + 4 * i) = *p;
  // CHECK: :[[@LINE-1]]:3: warning: global store to 'out' uses 16 sectors per request (ideal 4): lanes are 16 bytes apart [coalesce-uncoalesced-global]
}

int main() {
  float *a, *b;
  deref<<<64, 256>>>(a, b);
}
