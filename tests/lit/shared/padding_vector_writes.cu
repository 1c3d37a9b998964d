// RUN: %lint %s | FileCheck %s
// The padding note says by how much, and what the padding would break: a
// tile written with 16-byte stores and read by column (issue 39: the note
// read "padding the innermost dimension (tile) gives 1 wavefront per
// request", with no amount, though +1 breaks the 16-byte stores). No fix-it
// is offered there.
__global__ void t(const float4 *in, float *out) {
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  if (tx < 8)
    reinterpret_cast<float4 *>(&tile[ty][0])[tx] = in[(blockIdx.x * 32 + ty) * 8 + tx];
  __syncthreads();
  out[(blockIdx.x * 32 + ty) * 32 + tx] = tile[tx][ty];
  // CHECK: padding_vector_writes.cu:[[@LINE-1]]:43: warning: shared load from 'tile' has a 32-way bank conflict
  // CHECK: padding_vector_writes.cu:[[@LINE-2]]:43: note: padding the innermost dimension by 1 element (tile[32][33]) gives 1 wavefront per request, but the 16-byte store at line [[#@LINE-4]] would lose its 16-byte alignment (a row pitch of 132 bytes); no fix-it is offered: the address of an element of 'tile' is taken
}

// Scalar stores only: the fix-it, with the amount.
__global__ void s(const float *in, float *out) {
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = in[(blockIdx.x * 32 + ty) * 32 + tx];
  __syncthreads();
  out[(blockIdx.x * 32 + ty) * 32 + tx] = tile[tx][ty];
  // CHECK: padding_vector_writes.cu:[[#@LINE-5]]:29: note: padding the innermost dimension by 1 element (tile[32][33]) gives 1 wavefront per request{{$}}
}

void go(const float4 *a, const float *b, float *o) {
  t<<<64, dim3(32, 32)>>>(a, o);
  s<<<64, dim3(32, 32)>>>(b, o);
}
