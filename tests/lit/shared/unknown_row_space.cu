// An access to a __shared__ tile whose row is not known (Rodinia backprop's
// `weight_matrix[ty + power_two/2][tx]`, the row from a float power; here
// from loaded data) is
// unknown, and still a shared access: the space follows the declaration.
// RUN: %lint --format=json %s | FileCheck %s
// UNSUPPORTED: tidy
__global__ void tree(float *out) {
  __shared__ float w[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  w[ty][tx] = out[ty * 16 + tx];
  __syncthreads();
  int step = static_cast<int>(out[0]); // loaded data
  out[ty * 16 + tx] = w[ty + step / 2][tx];
}
void launch(float *o) { tree<<<1, dim3(16, 16)>>>(o); }
// CHECK: "expression": "w[ty + step / 2][tx]",
// CHECK-NEXT: "file":
// CHECK: "space": "shared",
// CHECK: "verdict": "unknown",
