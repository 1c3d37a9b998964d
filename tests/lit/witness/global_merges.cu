// REQUIRES: witness
// RUN: %witness-lint --format=json %s | %records --witness | FileCheck %s
// RUN: %lint --format=json %s | %records --witness | FileCheck %s --check-prefix=SOURCE
// nvcc merges adjacent global loads (stores) of one pointer into LDG.64 /
// LDG.128 (STG) where the alignment it can prove allows: the alignment of
// the pointer's element type (fields of a float2 or float4, of an
// alignas(16) struct) or one stated with __builtin_assume_aligned, never the
// alignment cudaMalloc gives at run time (interp/models/SharedMerges.cpp).
// Without the compiler witness such accesses are unknown ('may be merged');
// with it, the widths nvcc emitted decide. Read in SASS (sm_90, nvcc 13);
// sample_kernels/vector_widths.cu measures them on the GPU.

// Two fields of a float2, on two lines: one LDG.64 on the first line.
__global__ void fields2(const float2 *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = p[i].x;
  // CHECK-DAG: global_merges.cu:[[@LINE-1]]:13: fields2 load global 'p' `p[i].x` 8/8 ok {compiler-corrected exact -; LDG.E.64}
  // SOURCE-DAG: global_merges.cu:[[@LINE-2]]:13: fields2 load global 'p' `p[i].x` ?/? unknown {source-only unknown may-be-merged; -}
  float b = p[i].y;
  // CHECK-DAG: global_merges.cu:[[@LINE-1]]:13: fields2 load global 'p' `p[i].y` ?/? unknown {compiler-corrected no-instruction merged-into; -}
  // SOURCE-DAG: global_merges.cu:[[@LINE-2]]:13: fields2 load global 'p' `p[i].y` ?/? unknown {source-only unknown may-be-merged; -}
  out[i] = a + b;
}

// Three fields of a float4: one LDG.128 (a load may read more than it uses).
__global__ void fields4(const float4 *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = p[i].x * p[i].y + p[i].z;
  // CHECK-DAG: global_merges.cu:[[@LINE-1]]:12: fields4 load global 'p' `p[i].x` 16/16 ok {compiler-corrected exact -; LDG.E.128}
  // CHECK-DAG: global_merges.cu:[[@LINE-2]]:21: fields4 load global 'p' `p[i].y` ?/? unknown {compiler-corrected no-instruction merged-into; LDG.E.128}
  // SOURCE-DAG: global_merges.cu:[[@LINE-3]]:12: fields4 load global 'p' `p[i].x` ?/? unknown {source-only unknown may-be-merged; -}
}

// Stated with __builtin_assume_aligned: one LDG.128 for four floats.
__global__ void assumed(const float *p, float *out) {
  const float *q = static_cast<const float *>(__builtin_assume_aligned(p, 16));
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = q[4 * i + 0];
  // CHECK-DAG: global_merges.cu:[[@LINE-1]]:13: assumed load global 'p' `q[4 * i + 0]` 16/16 ok {compiler-corrected exact -; LDG.E.128}
  // SOURCE-DAG: global_merges.cu:[[@LINE-2]]:13: assumed load global 'p' `q[4 * i + 0]` ?/? unknown {source-only unknown may-be-merged; -}
  float b = q[4 * i + 1];
  float c = q[4 * i + 2];
  float d = q[4 * i + 3];
  // CHECK-DAG: global_merges.cu:[[@LINE-1]]:13: assumed load global 'p' `q[4 * i + 3]` ?/? unknown {compiler-corrected no-instruction merged-into; -}
  out[i] = a + b + c + d;
}

// The parameter itself restated: one STG.128, on the last store's line.
__global__ void assumed_stores(float *out) {
  out = static_cast<float *>(__builtin_assume_aligned(out, 16));
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[4 * i] = 1.0f;
  // CHECK-DAG: global_merges.cu:[[@LINE-1]]:3: assumed_stores store global 'out' `out[4 * i]` ?/? unknown {compiler-corrected no-instruction merged-into; -}
  // SOURCE-DAG: global_merges.cu:[[@LINE-2]]:3: assumed_stores store global 'out' `out[4 * i]` ?/? unknown {source-only unknown may-be-merged; -}
  out[4 * i + 1] = 2.0f;
  out[4 * i + 2] = 3.0f;
  out[4 * i + 3] = 4.0f;
  // CHECK-DAG: global_merges.cu:[[@LINE-1]]:3: assumed_stores store global 'out' `out[4 * i + 3]` 16/16 ok {compiler-corrected exact -; STG.E.128}
}

// Negatives: a `const float *` proves 4 bytes only, whatever cudaMalloc
// gives: four LDG.E, numbers without the witness too.
__global__ void plain(const float *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = p[4 * i + 0];
  // CHECK-DAG: global_merges.cu:[[@LINE-1]]:13: plain load global 'p' `p[4 * i + 0]` 16/4 uncoalesced {compiler-confirmed exact -; LDG.E}
  // SOURCE-DAG: global_merges.cu:[[@LINE-2]]:13: plain load global 'p' `p[4 * i + 0]` 16/4 uncoalesced {source-only exact -; -}
  float b = p[4 * i + 1];
  // SOURCE-DAG: global_merges.cu:[[@LINE-1]]:13: plain load global 'p' `p[4 * i + 1]` 16/4 uncoalesced {source-only exact -; -}
  out[i] = a + b;
}

// A struct of two floats is 4-byte aligned: two LDG.E.
struct Pair {
  float x, y;
};
__global__ void pair_fields(const Pair *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = p[i].x - p[i].y;
  // CHECK-DAG: global_merges.cu:[[@LINE-1]]:12: pair_fields load global 'p' `p[i].x` 8/4 uncoalesced {compiler-confirmed exact -; LDG.E x2}
  // SOURCE-DAG: global_merges.cu:[[@LINE-2]]:12: pair_fields load global 'p' `p[i].x` 8/4 uncoalesced {source-only exact -; -}
  // SOURCE-DAG: global_merges.cu:[[@LINE-3]]:21: pair_fields load global 'p' `p[i].y` 8/4 uncoalesced {source-only exact -; -}
}

void launch(float2 *a, float4 *b, float *c, Pair *d, float *o) {
  fields2<<<64, 256>>>(a, o);
  fields4<<<64, 256>>>(b, o);
  assumed<<<64, 256>>>(c, o);
  assumed_stores<<<64, 256>>>(o);
  plain<<<64, 256>>>(c, o);
  pair_fields<<<64, 256>>>(d, o);
}
