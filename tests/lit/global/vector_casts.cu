// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// reinterpret_cast and C casts to vector types: one wide access per lane
// (float2 8 bytes, float4/int4/double2 16 bytes). Contiguous wide accesses
// are ideal (8 and 16 sectors); strided ones are not.

__global__ void casts(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float2 a = reinterpret_cast<const float2 *>(in)[i];
  float4 b = ((const float4 *)in)[i];
  double2 d = ((const double2 *)in)[i];
  const int4 *in4 = reinterpret_cast<const int4 *>(in);
  int4 c = in4[2 * i];
  // CHECK: :[[@LINE-1]]:12: warning: global load from 'in' uses 32 sectors per request (ideal 16): lanes are 32 bytes apart [coalesce-uncoalesced-global]
  float2 e = reinterpret_cast<const float2 *>(in)[2 * i];
  // CHECK: :[[@LINE-1]]:14: warning: global load from 'in' uses 16 sectors per request (ideal 8): lanes are 16 bytes apart [coalesce-uncoalesced-global]
  reinterpret_cast<float4 *>(out)[i] = make_float4(a.x + c.x, a.y + e.x, b.z, d.x);
  ((double2 *)out)[2 * i] = d;
  // CHECK: :[[@LINE-1]]:3: warning: global store to 'out' uses 32 sectors per request (ideal 16): lanes are 32 bytes apart [coalesce-uncoalesced-global]
}

int main() {
  float *a, *b;
  casts<<<64, 256>>>(a, b);
}
