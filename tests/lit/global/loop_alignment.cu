// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// A loop with a known trip count is averaged over its iterations: in[i + k]
// for k = 0..3 is aligned once and 4, 8, 12 bytes off three times:
// (4 + 5 + 5 + 5) / 4 = 4.75 sectors. A while loop over in[2 * i + j]:
// j = 0, 1 -> 8 sectors, j = 2, 3 -> 9: 8.5. Stepping by 8 floats (32 bytes)
// keeps every iteration aligned and silent.

__global__ void loops(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < 4; ++k)
    s += in[i + k];
  // CHECK: :[[@LINE-1]]:10: remark: global load from 'in' uses 4.75 sectors per request (ideal 4)
  int j = 0;
  while (j < 4) {
    s += in[2 * i + j];
    // CHECK: :[[@LINE-1]]:10: warning: global load from 'in' uses 8.5 sectors per request (ideal 4): lanes are 8 bytes apart
    ++j;
  }
  for (int k = 0; k < 64; k += 8)
    s += in[i + k];
  out[i] = s;
}

int main() {
  float *a, *b;
  loops<<<64, 256>>>(a, b);
}
