// REQUIRES: witness
// RUN: %witness-lint --format=json %s | %records --witness | FileCheck %s
// RUN: %lint --format=json %s | %records --witness | FileCheck %s --check-prefix=SOURCE
// Whether ptxas merges copies of a loop nest into LDS.128 depends on the
// nest's size (docs/real-code.md, SGEMM_CUDA kernels 4, 5 and 8): an outer
// loop of 4 around a row load and 64 FMAs is merged, the same body under an
// outer loop of 8 is not. The source alone cannot tell and says unknown
// (may-be-merged) for both; the witness decides each.
#define NEST(NAME, OUTER)                                                                    \
  __global__ void NAME(float *out) {                                                       \
    __shared__ float As[64 * OUTER];                                                       \
    const int row = threadIdx.x / 32;                                                      \
    for (int q = threadIdx.x; q < 64 * OUTER; q += 256)                                    \
      As[q] = q;                                                                           \
    __syncthreads();                                                                       \
    float res[16] = {0}, reg[8];                                                           \
    for (int d = 0; d < OUTER; ++d) {                                                      \
      for (int r = 0; r < 8; ++r)                                                          \
        reg[r] = As[(row * 8 + r) * OUTER + d];                                            \
      for (int r = 0; r < 8; ++r)                                                          \
        for (int c = 0; c < 8; ++c)                                                        \
          res[(r + c) & 15] += reg[r] * reg[c];                                            \
    }                                                                                      \
    for (int r = 0; r < 16; ++r)                                                           \
      out[(blockIdx.x * 16 + r) * 256 + threadIdx.x] = res[r];                             \
  }

NEST(outer4, 4)
NEST(outer8, 8)
// CHECK-DAG: outer4 load shared 'As' `{{.*}}` {{.*}} {compiler-corrected exact -; LDS.128{{.*}}}
// CHECK-DAG: outer8 load shared 'As' `{{.*}}` {{.*}} {compiler-confirmed exact -; LDS x8}
// SOURCE-DAG: outer4 load shared 'As' `{{.*}}` ?/? unknown {source-only unknown may-be-merged; -}
// SOURCE-DAG: outer8 load shared 'As' `{{.*}}` ?/? unknown {source-only unknown may-be-merged; -}

void launch(float *o) {
  outer4<<<64, 256>>>(o);
  outer8<<<64, 256>>>(o);
}
