// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// `return` retires lanes: after `if (threadIdx.x % 4 != 0) return;` 8 lanes
// remain, 16 bytes apart (4 sectors for 32 bytes: ideal 1); their store to
// out[i / 4] is one contiguous sector. A tail guard keeps whole warps.

__global__ void quarter(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x % 4 != 0)
    return;
  out[i / 4] = in[i];
  // CHECK: :[[@LINE-1]]:16: warning: global load from 'in' uses 4 sectors per request (ideal 1): 8 of 32 lanes are active, 16 bytes apart
}

__global__ void tail(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] = in[i];
}

int main(int argc, char **argv) {
  float *a, *b;
  quarter<<<64, 256>>>(a, b);
  tail<<<64, 256>>>(a, b, argc);
}
