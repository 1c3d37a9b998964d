// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint --format=json %s | FileCheck %s --check-prefix=JSON
// A load of an address already loaded earlier in the same statement, on the
// same lanes, with no store, call or branch in between, is not an
// instruction of its own: nvcc reuses the value (Rodinia hotspot's stencil
// reads `t[ty][tx]` three times in one statement; ncu shows one load). It is
// listed, with no number, and says which load it reuses. A volatile load,
// a load on one side of `?:` and a load after a store are issued again.

// JSON-DAG: "reason_kind": "load-reused"
// RUN: %lint --format=json %s | python3 -c "import json,sys; print(sorted(set((a['answer'], a['verdict']) for a in json.load(sys.stdin)['accesses'])))" | FileCheck %s --check-prefix=ANSWER
// ANSWER: [('exact', 'ok'), ('exact', 'uncoalesced'), ('no-instruction', 'unknown')]
__global__ void square(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i + 1] * in[i + 1];
  // CHECK-DAG: :[[@LINE-1]]:12: remark: global load from 'in' uses 5 sectors per request (ideal 4)
  // CHECK-DAG: :[[@LINE-2]]:24: remark: global load from 'in' needs no instruction of its own: `in[i + 1]` (line [[@LINE-2]]) loaded the same address earlier, with no store, call or branch in between, and nvcc reuses that value
}

__global__ void stencil(const float *in, float *out) {
  __shared__ float t[18][48]; // rows 48 words apart: no bank conflict
  int tx = threadIdx.x, ty = threadIdx.y;
  t[ty + 1][tx + 1] = in[(blockIdx.x * 16 + ty) * 16 + tx];
  __syncthreads();
  out[(blockIdx.x * 16 + ty) * 16 + tx] =
      t[ty + 1][tx + 1] + 0.25f * (t[ty][tx + 1] + t[ty + 2][tx + 1] - 2.0f * t[ty + 1][tx + 1]);
  // CHECK-DAG: :[[@LINE-1]]:79: remark: shared load from 't' needs no instruction of its own: `t[ty + 1][tx + 1]` (line [[@LINE-1]])
}

__global__ void not_reused(volatile float *v, const float *in, float *out, int f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = v[i] + v[i];                // both issued: volatile
  out[i] = in[i] + (f ? in[i] : 0.0f); // issued on the side of `?:` too
  out[i] = out[i] + out[i];            // the second after no store: reused
  // CHECK-DAG: :[[@LINE-1]]:21: remark: global load from 'out' needs no instruction of its own
}

void launch(float *a, float *b, volatile float *c) {
  square<<<64, 256>>>(a, b);
  stencil<<<64, dim3(16, 16)>>>(a, b);
  not_reused<<<64, 256>>>(c, a, b, 1);
}
