// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// __ldg(p) is a global load of *p: same sectors as the plain load.

__global__ void ldg(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = __ldg(&in[i]);
  float b = __ldg(in + 2 * i);
  // CHECK: :[[@LINE-1]]:13: warning: global load from 'in' uses 8 sectors per request (ideal 4): lanes are 8 bytes apart [coalesce-uncoalesced-global]
  float4 c = __ldg(reinterpret_cast<const float4 *>(in) + i);
  float d = __ldg(&in[i * 32]);
  // CHECK: :[[@LINE-1]]:13: warning: global load from 'in' uses 32 sectors per request (ideal 4): lanes are 128 bytes apart [coalesce-uncoalesced-global]
  out[i] = a + b + c.x + d;
}

int main() {
  float *a, *b;
  ldg<<<64, 256>>>(a, b);
}
