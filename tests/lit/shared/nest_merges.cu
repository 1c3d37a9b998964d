// RUN: %lint --format=json %s | %records | FileCheck %s
// A loop whose body holds another loop may be unrolled with it: where two
// copies of a shared access in the nest are its width apart, ptxas may merge
// them into one wider instruction (SGEMM_CUDA kernel 4 reads
// As[(row * TM + r) * BK + d] for d around r as LDS.128 across four
// iterations of the OUTER loop: sample_kernels/compiler_witness.cu
// outer_merge). Without the compiler witness such an access is unknown
// (may-be-merged), never four times as many narrow requests
// (interp/models/SharedMerges.cpp, noteMergeableAcrossNest()).

__global__ void nest(float *out) {
  __shared__ float As[64 * 8];
  const int row = threadIdx.x / 32;
  As[threadIdx.x] = threadIdx.x;
  As[threadIdx.x + 256] = threadIdx.x;
  __syncthreads();
  float res[8] = {0};
  for (int d = 0; d < 8; ++d)
    for (int r = 0; r < 8; ++r)
      res[r] += As[(row * 8 + r) * 8 + d] * d;
  // CHECK-DAG: nest_merges.cu:[[@LINE-1]]:17: nest load shared 'As' `As[(row * 8 + r) * 8 + d]` ?/? unknown
  for (int r = 0; r < 8; ++r)
    out[(blockIdx.x * 8 + r) * 256 + threadIdx.x] = res[r];
}

// A row pitch of 9 floats: a row starts 4-byte aligned only, but copies of
// the nest start some pairs on 8- and 16-byte boundaries (row 1 at byte 36:
// d = 3..6 is one aligned block), and ptxas merges them: 18 LDS.128 among
// the LDS (read in SASS, sm_90, nvcc 13). Unknown as well.
__global__ void nest_odd_pitch(float *out) {
  __shared__ float As[64 * 9];
  const int row = threadIdx.x / 32;
  As[threadIdx.x] = threadIdx.x;
  As[threadIdx.x + 256] = threadIdx.x;
  __syncthreads();
  float res[8] = {0};
  for (int d = 0; d < 8; ++d)
    for (int r = 0; r < 8; ++r)
      res[r] += As[(row * 8 + r) * 9 + d] * d;
  // CHECK-DAG: nest_merges.cu:[[@LINE-1]]:17: nest_odd_pitch load shared 'As' `As[(row * 8 + r) * 9 + d]` ?/? unknown
  for (int r = 0; r < 8; ++r)
    out[(blockIdx.x * 8 + r) * 256 + threadIdx.x] = res[r];
}

// Negatives (64 LDS each in SASS). A barrier in the nest: nothing moves
// across it.
__global__ void nest_barrier(float *out) {
  __shared__ float As[64 * 8];
  const int row = threadIdx.x / 32;
  float res[8] = {0};
  for (int d = 0; d < 8; ++d) {
    As[threadIdx.x] = threadIdx.x * d;
    As[threadIdx.x + 256] = threadIdx.x;
    __syncthreads();
    for (int r = 0; r < 8; ++r)
      res[r] += As[(row * 8 + r) * 8 + d] * d;
    // CHECK-DAG: nest_merges.cu:[[@LINE-1]]:17: nest_barrier load shared 'As' `As[(row * 8 + r) * 8 + d]` 1/1 ok
    __syncthreads();
  }
  for (int r = 0; r < 8; ++r)
    out[(blockIdx.x * 8 + r) * 256 + threadIdx.x] = res[r];
}

// Copies 8 bytes apart (every other element): never side by side.
__global__ void nest_gap(float *out) {
  __shared__ float As[64 * 16];
  const int row = threadIdx.x / 32;
  As[threadIdx.x] = threadIdx.x;
  __syncthreads();
  float res[8] = {0};
  for (int d = 0; d < 8; ++d)
    for (int r = 0; r < 8; ++r)
      res[r] += As[(row * 8 + r) * 16 + 2 * d] * d;
  // CHECK-DAG: nest_merges.cu:[[@LINE-1]]:17: nest_gap load shared 'As' `As[(row * 8 + r) * 16 + 2 * d]` 1/1 ok
  for (int r = 0; r < 8; ++r)
    out[(blockIdx.x * 8 + r) * 256 + threadIdx.x] = res[r];
}

void launch(float *o) {
  nest<<<64, 256>>>(o);
  nest_barrier<<<64, 256>>>(o);
  nest_odd_pitch<<<64, 256>>>(o);
  nest_gap<<<64, 256>>>(o);
}
