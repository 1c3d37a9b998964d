// Thread-mapping fixes, before and after (rules/docs/fix-thread-swap.md,
// rules/docs/fix-staged-transpose.md): each "before" kernel is what a user
// writes; each "after" kernel is the change coalesce-lint's note describes,
// made by hand. Verify mode measures both, so each fix's gain is measured,
// not only predicted.
#include "harness.cuh"

#define N 512

// The naive matrix product: threadIdx.x picks the row, so A's and C's lanes
// are a row apart. Exchanging the roles of x and y makes them contiguous;
// B's lanes, which all read one element, then read a row's 32.
__global__ void matmul_before(const float *A, const float *B, float *C) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0;
  for (int k = 0; k < N; ++k)
    s += A[x * N + k] * B[k * N + y]; // expect: load A 32/4; load B 1/1
  C[x * N + y] = s; // expect: store C 32/4
}

__global__ void matmul_after(const float *A, const float *B, float *C) {
  int x = blockIdx.y * blockDim.y + threadIdx.y;
  int y = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < N; ++k)
    s += A[x * N + k] * B[k * N + y]; // expect: load A 1/1; load B 4/4
  C[x * N + y] = s; // expect: store C 4/4
}

// A tall block (8, 64): each warp reads 8 rows of 4 floats. Exchanged, the
// block is (64, 8) and a warp reads 32 floats of one row.
__global__ void scale_before(float *a) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  a[x * N + y] *= 2.0f; // expect: load a 8/4; store a 8/4
}

__global__ void scale_after(float *a) {
  int x = blockIdx.y * blockDim.y + threadIdx.y;
  int y = blockIdx.x * blockDim.x + threadIdx.x;
  a[x * N + y] *= 2.0f; // expect: load a 4/4; store a 4/4
}

// The naive transpose: exchanging x and y would move the problem to the
// read. Staged through a padded tile, both sides are contiguous.
__global__ void transpose_before(const float *in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * N + y] = in[y * N + x]; // expect: store out 32/4; load in 4/4
}

__global__ void transpose_staged(const float *in, float *out) {
  __shared__ float tile[32][32 + 1];
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * N + x]; // expect: store tile 1/1; load in 4/4
  __syncthreads();
  int xs = blockIdx.x * blockDim.x + threadIdx.y;
  int ys = blockIdx.y * blockDim.y + threadIdx.x;
  out[xs * N + ys] = tile[threadIdx.x][threadIdx.y]; // expect: store out 4/4; load tile 1/1
}

// The other way round, on doubles and a 16 x 16 block: the read is strided.
__global__ void gather_before(const double *in, double *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * N + x] = in[x * N + y]; // expect: store out 8/8; load in 16/8
}

__global__ void gather_staged(const double *in, double *out) {
  __shared__ double tile[16][16 + 1];
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int xs = blockIdx.x * blockDim.x + threadIdx.y;
  int ys = blockIdx.y * blockDim.y + threadIdx.x;
  tile[threadIdx.x][threadIdx.y] = in[xs * N + ys]; // expect: store tile 2/2; load in 8/8
  __syncthreads();
  out[y * N + x] = tile[threadIdx.y][threadIdx.x]; // expect: store out 8/8; load tile 2/2
}

int main() {
  float *A = sample::alloc<float>(size_t(N) * N);
  float *B = sample::alloc<float>(size_t(N) * N);
  float *C = sample::alloc<float>(size_t(N) * N);
  double *D = sample::alloc<double>(size_t(N) * N);
  double *E = sample::alloc<double>(size_t(N) * N);
  const double MM = double(N) * N * N * 8;
  const double F = double(N) * N * 4 * 2;
  sample::run("matmul_before", MM, [&] { matmul_before<<<dim3(N / 32, N / 32), dim3(32, 32)>>>(A, B, C); });
  sample::run("matmul_after", MM, [&] { matmul_after<<<dim3(N / 32, N / 32), dim3(32, 32)>>>(A, B, C); });
  sample::run("scale_before", F, [&] { scale_before<<<dim3(N / 8, N / 64), dim3(8, 64)>>>(A); });
  sample::run("scale_after", F, [&] { scale_after<<<dim3(N / 64, N / 8), dim3(64, 8)>>>(A); });
  sample::run("transpose_before", F, [&] { transpose_before<<<dim3(N / 32, N / 32), dim3(32, 32)>>>(A, B); });
  sample::run("transpose_staged", F, [&] { transpose_staged<<<dim3(N / 32, N / 32), dim3(32, 32)>>>(A, B); });
  sample::run("gather_before", 2 * F, [&] { gather_before<<<dim3(N / 16, N / 16), dim3(16, 16)>>>(D, E); });
  sample::run("gather_staged", 2 * F, [&] { gather_staged<<<dim3(N / 16, N / 16), dim3(16, 16)>>>(D, E); });
  SAMPLE_CHECK(cudaFree(A));
  SAMPLE_CHECK(cudaFree(B));
  SAMPLE_CHECK(cudaFree(C));
  SAMPLE_CHECK(cudaFree(D));
  SAMPLE_CHECK(cudaFree(E));
  return 0;
}
