// RUN: %lint --format=json %s | %records | FileCheck %s
// A `static const __device__` table is global memory, as nvcc places it,
// though clang marks every const variable used in device code implicitly
// __constant__ (ggml's GGML_TABLE_BEGIN tables were reported as constant
// memory). A table declared __constant__ is constant memory.
static const __device__ signed char tbl[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
__constant__ int ctab[32];
__global__ void k(int *out) {
  out[threadIdx.x] = tbl[threadIdx.x % 16] + ctab[threadIdx.x];
  // CHECK: device_const_tables.cu:[[@LINE-1]]:22: k load global 'tbl' `tbl[threadIdx.x % 16]` 1/1 ok
  // CHECK: device_const_tables.cu:[[@LINE-2]]:46: k load constant 'ctab' `ctab[threadIdx.x]` 32/1 serialised
}
void launch(int *o) { k<<<1, 32>>>(o); }
