// RUN: %lint %s | FileCheck %s %if tidy %{ %} %else %{--check-prefixes=CHECK,CLI%} --implicit-check-not=warning: --implicit-check-not=remark:
// A conflicting access to a declared 2-D shared array comes with the padding
// what-if: a note at the declaration with the padded cost, and a fix-it that
// rewrites the innermost size (tile[32][32] -> tile[32][33]: the column read
// becomes 1 wavefront; the row store stays conflict-free).

__global__ void column_read(float *out) {
  __shared__ float tile[32][32];
  // CHECK-DAG: :[[@LINE-1]]:29: note: padding the innermost dimension by 1 element (tile[32][33]) gives 1 wavefront per request
  // CLI-DAG: fix-it: {{.*}}transpose_padding_fix.cu:[[#@LINE-2]]:29: replace 2 characters with "33"
  tile[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-DAG: :[[@LINE-1]]:41: warning: shared load from 'tile' has a 32-way bank conflict: 32 wavefronts per request (ideal 1) [coalesce-shared-bank-conflict]
}

int main() {
  float *o;
  column_read<<<1, dim3(32, 32)>>>(o);
}
