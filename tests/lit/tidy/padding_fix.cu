// Applying the padding fix-it (on the note at the declaration) through
// clang-tidy --fix-notes rewrites the tile
// declarations (a literal size and a macro size), and the rewritten file is
// conflict-free.
// RUN: cp %s %t.cu
// RUN: %tidy --fix-notes %t.cu -- %cuda-flags
// RUN: FileCheck --check-prefix=FIXED %s < %t.cu
// RUN: %tidy %t.cu -- %cuda-flags | FileCheck --allow-empty --check-prefix=AFTER %s
// AFTER-NOT: warning:

#define TILE 32

__global__ void literal_size(float *out) {
  __shared__ float tile[32][32];
  // FIXED: {{^}}  __shared__ float tile[32][33];
  tile[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void macro_size(float *out) {
  __shared__ float tile[TILE][TILE];
  // FIXED: {{^}}  __shared__ float tile[TILE][TILE + 1];
  tile[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * TILE + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

int main() {
  float *o;
  literal_size<<<1, dim3(32, 32)>>>(o);
  macro_size<<<1, dim3(32, 32)>>>(o);
}
