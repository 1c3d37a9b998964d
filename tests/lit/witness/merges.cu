// REQUIRES: witness
// RUN: %witness-lint --format=json %s | %records --witness | FileCheck %s
// RUN: %lint --format=json %s | %records --witness | FileCheck %s --check-prefix=SOURCE
// The compiler witness decides the widths ptxas merged accesses into
// (docs/witness.md, interp/models/EmittedCode.cpp): the accesses of an array
// are grouped into aligned blocks of the width nvcc emitted, used only when
// the widths per line come out as emitted. Each kernel below was read in
// SASS (sm_90, nvcc 13); sample_kernels/compiler_witness.cu and
// merged_rows.cu measure the same shapes on the GPU.

struct Quad {
  float x, y, z, w;
};

// Fields written one after the other: one STS.128 on the last field's line;
// the other fields have no instruction of their own.
__global__ void fields(float *out) {
  __shared__ Quad s[256];
  int t = threadIdx.x;
  s[t].x = t;
  // CHECK-DAG: merges.cu:[[@LINE-1]]:3: fields store shared 's' `s[t].x` ?/? unknown {compiler-corrected no-instruction merged-into; -}
  // SOURCE-DAG: merges.cu:[[@LINE-2]]:3: fields store shared 's' `s[t].x` ?/? unknown {source-only unknown may-be-merged; -}
  s[t].y = 2 * t;
  s[t].z = 3;
  s[t].w = 4;
  // CHECK-DAG: merges.cu:[[@LINE-1]]:3: fields store shared 's' `s[t].w` 4/4 ok {compiler-corrected exact -; STS.128}
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[(t + 1) % 256].x + s[(t + 1) % 256].w;
}

// A row that starts 4 bytes into a 16-byte block: ptxas reads it with four
// LDS.128 from the block's start and one LDS for the last word.
__global__ void row_offset(float *out) {
  __shared__ float s[16][20];
  int tx = threadIdx.x, ty = threadIdx.y;
  s[ty][tx] = tx;
  __syncthreads();
  float acc = 0;
  for (int k = 1; k < 17; ++k)
    acc += s[ty][k] * (k + 1);
  // CHECK-DAG: merges.cu:[[@LINE-1]]:12: row_offset load shared 's' `s[ty][k]` 1.8/1.8 ok {compiler-corrected exact -; LDS.128 x4 and LDS}
  // SOURCE-DAG: merges.cu:[[@LINE-2]]:12: row_offset load shared 's' `s[ty][k]` ?/? unknown {source-only unknown may-be-merged; -}
  out[(blockIdx.x * 16 + ty) * 16 + tx] = acc;
}

// The iterations of an outer loop merged (a matrix product's register tile,
// SGEMM_CUDA's kernel 4): four `d` in one LDS.128, where the source alone
// sees 4-byte loads and counts four times the requests.
__global__ void outer(float *out) {
  __shared__ float As[64 * 8];
  const int row = threadIdx.x / 32;
  As[threadIdx.x] = threadIdx.x;
  As[threadIdx.x + 256] = threadIdx.x;
  __syncthreads();
  float res[8] = {0};
  for (int d = 0; d < 8; ++d)
    for (int r = 0; r < 8; ++r)
      res[r] += As[(row * 8 + r) * 8 + d] * d;
  // CHECK-DAG: merges.cu:[[@LINE-1]]:17: outer load shared 'As' `As[(row * 8 + r) * 8 + d]` 2/2 ok {compiler-corrected exact -; LDS.128 x16}
  // Without the witness: unknown (ptxas may merge copies of the nest),
  // never four times as many 1-wavefront requests.
  // SOURCE-DAG: merges.cu:[[@LINE-4]]:17: outer load shared 'As' `As[(row * 8 + r) * 8 + d]` ?/? unknown {source-only unknown may-be-merged; -}
  for (int r = 0; r < 8; ++r)
    out[(blockIdx.x * 8 + r) * 256 + threadIdx.x] = res[r];
}

// Negative: a pitch of 17 floats proves 4 bytes only: sixteen LDS, the
// source's own width, confirmed.
__global__ void odd_pitch(float *out) {
  __shared__ float s[16][17];
  int tx = threadIdx.x, ty = threadIdx.y;
  s[ty][tx] = tx;
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < 16; ++k)
    acc += s[ty][k] * (k + 1);
  // CHECK-DAG: merges.cu:[[@LINE-1]]:12: odd_pitch load shared 's' `s[ty][k]` 1/1 ok {compiler-confirmed exact -; LDS x16}
  out[(blockIdx.x * 16 + ty) * 16 + tx] = acc;
}

// A run-time trip count: ptxas unrolls by 4 with LDS.64 pairs and a
// remainder LDS. Which requests each serves depends on the trip count:
// unknown, with what was emitted.
__global__ void runtime_trip(float *out, int n) {
  __shared__ float s[16][64];
  int tx = threadIdx.x, ty = threadIdx.y;
  s[ty][tx] = tx;
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < n; ++k)
    acc += s[ty][k] * (k + 1);
  // CHECK-DAG: merges.cu:[[@LINE-1]]:12: runtime_trip load shared 's' `s[ty][k]` ?/? unknown {compiler-corrected unknown emitted-unmatched; LDS.64 x2 and LDS}
  out[(blockIdx.x * 16 + ty) * 16 + tx] = acc;
}

int main() {
  float *f = nullptr;
  fields<<<64, 256>>>(f);
  row_offset<<<64, dim3(16, 16)>>>(f);
  outer<<<64, 256>>>(f);
  odd_pitch<<<64, dim3(16, 16)>>>(f);
  runtime_trip<<<64, dim3(16, 16)>>>(f, 64);
}
