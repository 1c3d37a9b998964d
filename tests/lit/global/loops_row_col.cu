// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// An access in a loop is one request per iteration; its lane pattern is what
// counts. Thread-per-row a[row * W + j] puts the lanes a row apart (32
// sectors every iteration); thread-per-column a[j * W + col] is coalesced.

#define W 1024

__global__ void row_sums(const float *a, float *out) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int j = 0; j < W; ++j)
    s += a[row * W + j];
  // CHECK: :[[@LINE-1]]:10: warning: global load from 'a' uses 32 sectors per request (ideal 4): lanes are 4096 bytes apart [coalesce-uncoalesced-global]
  out[row] = s;
}

__global__ void col_sums(const float *a, float *out) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int j = 0; j < W; ++j)
    s += a[j * W + col];
  out[col] = s;
}

int main() {
  float *a, *b;
  row_sums<<<W / 256, 256>>>(a, b);
  col_sums<<<W / 256, 256>>>(a, b);
}
