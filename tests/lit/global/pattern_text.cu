// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// The lane pattern after the numbers must not contradict them.
// Known bug 1: when the excess comes from an average over blocks (or warps,
// or iterations), the pattern of one representative, aligned request is
// shown: "the warp's bytes start 0 bytes past a 32-byte sector boundary".
// Known bug 2: active lanes that are evenly spaced but not consecutive
// (every other lane) are said to "touch addresses that are not evenly
// spaced".

__global__ void three(const float *in, float *out) {
  out[blockIdx.x * 32 + threadIdx.x] = in[blockIdx.x * 3 + threadIdx.x];
  // CHECK: :[[@LINE-1]]:40: remark: global load from 'in' uses 4.875 sectors per request (ideal 4)
  // CHECK-NOT: start 0 bytes past
}

__global__ void even_lanes(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0;
  if (threadIdx.x % 2 == 0)
    v = in[i];
  // CHECK: :[[@LINE-1]]:9: warning: global load from 'in' uses 4 sectors per request (ideal 2)
  // CHECK-NOT: not evenly spaced
  out[i] = v;
}

int main() {
  float *a, *b;
  three<<<8, 32>>>(a, b);
  even_lanes<<<64, 256>>>(a, b);
}
