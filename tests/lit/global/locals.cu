// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// Local variables and reassignment in straight-line code: each access sees
// the value the index has at that point.

__global__ void locals(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = i;
  j = j * 2;
  out[i] = in[j];
  // CHECK: :[[@LINE-1]]:12: warning: global load from 'in' uses 8 sectors per request (ideal 4): lanes are 8 bytes apart [coalesce-uncoalesced-global]
  j = i;
  out[i] = in[j];
  int k = 4 * i;
  k -= 3 * i;
  out[k] = in[k];
  int m = i;
  m += m;
  m += m;
  out[i] = in[m];
  // CHECK: :[[@LINE-1]]:12: warning: global load from 'in' uses 16 sectors per request (ideal 4): lanes are 16 bytes apart [coalesce-uncoalesced-global]
  // Swap: afterwards t is blockIdx.x and b is threadIdx.x.
  int t = threadIdx.x, b = blockIdx.x;
  int tmp = t;
  t = b;
  b = tmp;
  out[i] = in[t * 256 + b];
  out[i] = in[b * 256 + t];
  // CHECK: :[[@LINE-1]]:12: warning: global load from 'in' uses 32 sectors per request (ideal 4): lanes are 1024 bytes apart [coalesce-uncoalesced-global]
}

int main() {
  float *a, *b;
  locals<<<64, 256>>>(a, b);
}
