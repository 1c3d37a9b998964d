// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// Branches on threadIdx mask lanes: only active lanes count, for the sectors
// and for the ideal. Even lanes of a contiguous read cover 4 sectors for 64
// bytes (ideal 2); a contiguous half-warp or a few lanes are still ideal.

__global__ void masks(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0;
  if (threadIdx.x % 2 == 0)
    v = in[i];
  // CHECK: :[[@LINE-1]]:9: warning: global load from 'in' uses 4 sectors per request (ideal 2): 16 of 32 lanes are active, 8 bytes apart
  // CHECK: note: {{.*}}; 16 of 32 lanes active
  if (threadIdx.x % 32 < 16)
    v += in[i];
  if (threadIdx.x < 8)
    v += in[i];
  if (threadIdx.x & 1)
    v += in[2 * i];
  // CHECK: :[[@LINE-1]]:10: warning: global load from 'in' uses 8 sectors per request (ideal 2): 16 of 32 lanes are active, 16 bytes apart
  else
    v += in[i / 2];
  out[i] = v;
}

int main() {
  float *a, *b;
  masks<<<64, 256>>>(a, b);
}
