// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// The evidence note names the index term that spreads the lanes. For a 2-D
// array read down a column, table[c][r] with c = threadIdx.x, that is `c`.
// (It used to consider only the innermost subscript, which said
// "spread by `r`", although r = blockIdx.x is the same for every lane.)

__device__ float table[64][64];

__global__ void column(float *out) {
  int r = blockIdx.x, c = threadIdx.x;
  out[r * 64 + c] = table[c][r];
  // CHECK: :[[@LINE-1]]:21: warning: global load from 'table' uses 32 sectors per request (ideal 4): lanes are 256 bytes apart [coalesce-uncoalesced-global]
  // CHECK-NEXT: {{ *}}[[#@LINE-2]] | {{.*}}
  // CHECK-NEXT: {{.*}}|{{.*}}^
  // CHECK-NEXT: note: lane 0 -> byte +0, lane 1 -> byte +256, lane 2 -> byte +512, ..., lane 31 -> byte +7936 (relative to lane 0); the lanes are spread by `c` (`c = threadIdx.x`){{$}}
}

int main() {
  float *o;
  column<<<64, 64>>>(o);
}
