// The JSON records of constant reads: space "constant", the cost in
// constant-cache requests per instruction (ideal 1), verdict "serialised"
// when it is more; a read wider than 8 bytes is two LDC.64, two requests per
// warp; warp-uniform reads, compile-time constant or not, cost the ideal.
// RUN: %lint --format=json %s | %records | FileCheck %s
// UNSUPPORTED: tidy

__constant__ float cst[1024];
__constant__ float4 vec[64];
__constant__ double dbl[64];

__global__ void k(float *out, float4 *out4, double *outd, int n) {
  int l = threadIdx.x;
  float s = cst[2] + cst[n];
  // CHECK: records.cu:[[@LINE-1]]:13: k load constant 'cst' `cst[2]` 1/1 ok
  // CHECK-NEXT: records.cu:[[@LINE-2]]:22: k load constant 'cst' `cst[n]` 1/1 ok
  for (int j = 0; j < 4; ++j)
    s += cst[j * 32 + l];
  // CHECK-NEXT: records.cu:[[@LINE-1]]:10: k load constant 'cst' `cst[j * 32 + l]` 32/1 serialised
  out[blockIdx.x * 32 + l] = s;
  // CHECK-NEXT: records.cu:[[@LINE-1]]:3: k store global 'out'
  out4[blockIdx.x * 32 + l] = vec[l / 8];
  // CHECK-NEXT: records.cu:[[@LINE-1]]:31: k load constant 'vec' `vec[l / 8]` 4/1 serialised
  // CHECK-NEXT: records.cu:[[@LINE-2]]:3: k store global 'out4'
  outd[blockIdx.x * 32 + l] = dbl[l / 4];
  // CHECK-NEXT: records.cu:[[@LINE-1]]:31: k load constant 'dbl' `dbl[l / 4]` 8/1 serialised
}

int main() {
  float *o;
  float4 *o4;
  double *od;
  k<<<64, 32>>>(o, o4, od, 5);
}
