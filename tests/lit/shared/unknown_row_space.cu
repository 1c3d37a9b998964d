// An access to a __shared__ tile whose row is not known (Rodinia backprop's
// `weight_matrix[ty + power_two/2][tx]`, the row from a float power; here
// from loaded data) is
// unknown, and still a shared access: the space follows the declaration.
// RUN: %lint --format=json %s | FileCheck %s
// RUN: %lint --format=json %s | %records | FileCheck %s --check-prefix=REC
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

// The same when the row decays to a pointer passed on (double buffering:
// `tile[buf]` with `buf` not known): the helper's accesses are shared.
__device__ void fill(float *row, const float *in) { row[threadIdx.x] = in[threadIdx.x]; }
__global__ void buffers(const float *in, float *out) {
  __shared__ float tile[2][256];
  int buf = static_cast<int>(in[0]); // loaded data
  fill(tile[buf], in);
  __syncthreads();
  out[threadIdx.x] = tile[buf][threadIdx.x];
}
void launch2(const float *i, float *o) { buffers<<<1, 256>>>(i, o); }
// REC: unknown_row_space.cu:24:53: buffers store shared 'tile' `row[threadIdx.x]` ?/? unknown [in 'fill' called at unknown_row_space.cu:28]
