// RUN: %lint --format=json %s | %records | FileCheck %s
// wmma::load_matrix_sync / store_matrix_sync reach clang's builtins
// (crt/mma.hpp): a 16x16x16 half fragment in shared memory is one ldmatrix
// .x4 with rows (lane % 16) * ldm + (lane / 16) * 8, a float accumulator
// stored row major four STS.64 at the mma C layout (what nvcc 13 emits for
// sm_90; measured: sample_kernels/wmma_loads.cu). Other layouts, shapes and
// spaces are unknown, named.

__global__ void fragments(float *out, const unsigned short *g) {
  __shared__ __align__(128) unsigned short a16[16 * 16];
  __shared__ __align__(128) unsigned short b24[16 * 24];
  __shared__ __align__(128) float c[16 * 16];
  int fa[8], fb[8];
  float fc[8];
  __hmma_m16n16k16_ld_a(fa, (const int *)a16, 16, 0);
  // CHECK-DAG: wmma_fragments.cu:[[#@LINE-1]]:{{[0-9]+}}: fragments load shared 'a16' `(const int *)a16` 8/4 bank-conflict
  __hmma_m16n16k16_ld_b(fb, (const int *)b24, 24, 1);
  // CHECK-DAG: wmma_fragments.cu:[[#@LINE-1]]:{{[0-9]+}}: fragments load shared 'b24' `(const int *)b24` 4/4 ok
  __hmma_m16n16k16_st_c_f32(c, fc, 16, 0);
  // CHECK-DAG: wmma_fragments.cu:[[#@LINE-1]]:{{[0-9]+}}: fragments store shared 'c' `c` 4/2 bank-conflict
  // A column-major matrix_a, a fragment in global memory: not measured.
  __hmma_m16n16k16_ld_a(fa, (const int *)a16, 16, 1);
  // CHECK-DAG: wmma_fragments.cu:[[#@LINE-1]]:{{[0-9]+}}: fragments load shared 'a16' `(const int *)a16` ?/? unknown
  __hmma_m16n16k16_ld_b(fb, (const int *)g, 16, 1);
  // CHECK-DAG: wmma_fragments.cu:[[#@LINE-1]]:{{[0-9]+}}: fragments load global 'g' `(const int *)g` ?/? unknown
  out[threadIdx.x] = fa[0] + fb[0] + c[threadIdx.x];
}

int main() {
  float *o;
  const unsigned short *g;
  fragments<<<8, 32>>>(o, g);
}
