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

// A variable an edge side assigns (`computed`, in the warps where `tx > i`
// lets lanes in) may hold another value there: a later branch on it that
// leaves a side without lanes in the warps analysed still lists that side's
// accesses, unknown (Rodinia pathfinder's `prev[tx] = result[tx]` vanished).
#define PF_BLOCK 256
__global__ void edge_flag(const int *src, int *dst, int iteration) {
  __shared__ int prev[PF_BLOCK];
  __shared__ int result[PF_BLOCK];
  int tx = threadIdx.x;
  prev[tx] = src[blockIdx.x * PF_BLOCK + tx];
  __syncthreads();
  bool computed = false;
  for (int i = 0; i < iteration; i++) {
    computed = false;
    if (tx > i) {
      computed = true;
      result[tx] = prev[tx] + 1;
      // CHECK-DAG: :[[@LINE-1]]:20: remark: shared load from 'prev' cannot be predicted: which lanes are active is not known: `tx > i` (line [[#@LINE-3]]) is false
      // CHECK-DAG: :[[@LINE-2]]:7: remark: shared store to 'result' cannot be predicted: which lanes are active is not known: `tx > i` (line [[#@LINE-4]]) is false
    }
    __syncthreads();
    if (i == iteration - 1)
      break;
    if (computed)
      prev[tx] = result[tx];
    // CHECK-DAG: :[[@LINE-1]]:18: remark: shared load from 'result' cannot be predicted: which lanes are active is not known: `computed` (line [[#@LINE-2]]) is false on every lane in the warps analysed (interior warps)
    // CHECK-DAG: :[[@LINE-2]]:7: remark: shared store to 'prev' cannot be predicted: which lanes are active is not known: `computed` (line [[#@LINE-3]]) is false
    __syncthreads();
  }
}

void run_edge_flag(const int *s, int *d, int it) { edge_flag<<<64, PF_BLOCK>>>(s, d, it); }
