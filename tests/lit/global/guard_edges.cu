// No access vanishes because of an assumed condition (issue 11, issue 17's
// minimal case). A lower-bound guard (`x >= 0` with x counting blocks) holds
// in interior warps; a side of a branch that the interior assumption leaves
// without lanes is still listed, unknown, with the reason; combining two
// uniform conditions keeps every combination of their outcomes.
// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint --format=json %s | FileCheck %s --check-prefix=JSON
// UNSUPPORTED: tidy

// JSON-DAG: "assuming `x >= 0` is true on every lane of interior warps (line [[@LINE+3]])"
__global__ void lower_bound(float *a) {
  int x = 14 * blockIdx.x + threadIdx.x;
  if (x >= 0) a[x] = 0;
}

// CHECK-DAG: :[[@LINE+3]]:15: remark: global store to 'a' cannot be predicted: which lanes are active is not known: `x >= n` (line [[@LINE+3]]) is false on every lane in the warps analysed (interior warps)
__global__ void tail(float *a, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= n) a[x - n] = 1;
}

// Two uniform unknowns, `y >= 0` (the block row) and `y < rows`: in the world
// where both hold, the row is read and written (before, the two conditions'
// first outcomes were combined, on no lane, and both accesses vanished).
// JSON-DAG: "expression": "in[y * cols + threadIdx.x]"
// JSON-DAG: "expression": "out[y * cols + threadIdx.x]"
__global__ void rows_cols(float *out, const float *in, int rows, int cols, int halo) {
  int y = 14 * blockIdx.y - halo + threadIdx.y;
  if (y >= 0 && y < rows)
  out[y * cols + threadIdx.x] = in[y * cols + threadIdx.x];
}
void launch(float *o, const float *i, int r, int c, int h) { rows_cols<<<dim3(1, 8), dim3(32, 4)>>>(o, i, r, c, h); }
