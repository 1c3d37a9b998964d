// Shared accesses ptxas merges into 16-byte instructions. In a loop nvcc
// unrolls completely (a trip count known at compile time), the same access
// walking a row of 4-byte (8-byte) elements from a 16-byte boundary that
// the address's computation proves is one LDS.128 (STS.128) per block of
// four (two) iterations: the tiled matrix product's As[ty][k] (tiled_gemm),
// a row of floats (row_sum), of doubles (row_sum_double), a flat row per
// thread written and read back (flat_rows). A row pitch of 17 floats proves
// only 4 bytes: 16 separate loads (odd_pitch). A row starting inside a
// block, a run-time trip count and struct fields read one after the other
// are merged in ways the source alone does not predict: unknown (row_offset,
// runtime_trip, fields); the compiler witness decides the first and the last.
#include "harness.cuh"

constexpr int N = 1 << 20;

__global__ void row_sum(float *out) {
  __shared__ float s[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  s[ty][tx] = tx; // expect: store s 1/1
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < 16; ++k)
    acc += s[ty][k] * (k + 1); // expect: load s 2/2
  out[(blockIdx.x * 16 + ty) * 16 + tx] = acc; // expect: store out 4/4
}

__global__ void row_sum_double(double *out) {
  __shared__ double s[16][8];
  int tx = threadIdx.x, ty = threadIdx.y;
  s[ty][tx % 8] = tx; // expect: store s 2/2
  __syncthreads();
  double acc = 0;
  for (int k = 0; k < 8; ++k)
    acc += s[ty][k] * (k + 1); // expect: load s 2/2
  out[(blockIdx.x * 16 + ty) * 16 + tx] = acc; // expect: store out 8/8
}

template <int T>
__global__ void tiled_gemm(const float *A, const float *B, float *C, int n) {
  __shared__ float As[T][T];
  __shared__ float Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float sum = 0;
  for (int m = 0; m < n / T; ++m) {
    As[ty][tx] = A[row * n + m * T + tx]; // expect: load A 4/4; store As 1/1
    Bs[ty][tx] = B[(m * T + ty) * n + col]; // expect: load B 4/4; store Bs 1/1
    __syncthreads();
    for (int k = 0; k < T; ++k)
      sum += As[ty][k] * Bs[k][tx]; // expect: load As 2/2; load Bs 1/1
    __syncthreads();
  }
  C[row * n + col] = sum; // expect: store C 4/4
}

__global__ void flat_rows(float *out) {
  __shared__ float s[256 * 16];
  int t = threadIdx.x;
  for (int k = 0; k < 16; ++k)
    s[t * 16 + k] = k * t; // expect: store s 16/4
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < 16; ++k)
    acc += s[t * 16 + k] * (k + 1); // expect: load s 16/4
  out[blockIdx.x * 256 + t] = acc; // expect: store out 4/4
}

// Negative: rows 68 bytes apart, no 8-byte alignment to prove.
__global__ void odd_pitch(float *out) {
  __shared__ float s[16][17];
  int tx = threadIdx.x, ty = threadIdx.y;
  s[ty][tx] = tx; // expect: store s 2/1
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < 16; ++k)
    acc += s[ty][k] * (k + 1); // expect: load s 1/1
  out[(blockIdx.x * 16 + ty) * 16 + tx] = acc; // expect: store out 4/4
}

// Not predicted: the row starts inside a block.
__global__ void row_offset(float *out) {
  __shared__ float s[16][20];
  int tx = threadIdx.x, ty = threadIdx.y;
  s[ty][tx] = tx; // expect: store s 2/1
  __syncthreads();
  float acc = 0;
  for (int k = 1; k < 17; ++k)
    acc += s[ty][k] * (k + 1); // expect(source): load s unknown // expect(witness): load s 1.8/1.8
  out[(blockIdx.x * 16 + ty) * 16 + tx] = acc; // expect: store out 4/4
}

// Not predicted: a run-time trip count (nvcc unrolls by a factor it chooses).
__global__ void runtime_trip(float *out, int n) {
  __shared__ float s[16][64];
  int tx = threadIdx.x, ty = threadIdx.y;
  s[ty][tx] = tx; // expect: store s 2/1
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < n; ++k)
    acc += s[ty][k] * (k + 1); // expect: load s unknown
  out[(blockIdx.x * 16 + ty) * 16 + tx] = acc; // expect: store out 4/4
}

// Not predicted: fields of one struct read one after the other.
struct Quad {
  float x, y, z, w;
};
__global__ void fields(float *out) {
  __shared__ Quad s[256];
  int t = threadIdx.x;
  s[t].x = t; // expect(source): store s unknown // expect(witness): store s none
  s[t].y = 2 * t; // expect(source): store s unknown // expect(witness): store s none
  s[t].z = 3; // expect(source): store s unknown // expect(witness): store s none
  s[t].w = 4; // expect(source): store s unknown // expect(witness): store s 4/4
  __syncthreads();
  Quad &q = s[(t + 1) % 256];
  out[blockIdx.x * 256 + t] = q.x * q.y + q.z * q.w;
  // expect: store out 4/4 // expect(source): load s unknown; load s unknown; load s unknown; load s unknown // expect(witness): load s 4/4; load s none; load s none; load s none
}

// A 128-bit load whose lanes read 16-byte blocks 0-3 in turn (as a
// register tile's row is read): 64 bytes per half-warp, but four blocks in
// each quarter-warp, and a wavefront per quarter.
__global__ void quarter_blocks(float4 *out) {
  __shared__ float4 s[64];
  int t = threadIdx.x;
  if (t < 64)
    s[t] = make_float4(t, t, t, t); // expect: store s 4/4
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[t % 4]; // expect: load s 4/4; store out 16/16
}

int main() {
  const int blocks = N / 256;
  float *f = sample::alloc<float>(N);
  double *d = sample::alloc<double>(N);
  float *a = sample::alloc<float>(1024 * 1024);
  float *b = sample::alloc<float>(1024 * 1024);
  float *c = sample::alloc<float>(1024 * 1024);
  const double B = double(N) * 4;
  sample::run("row_sum", B, [&] { row_sum<<<blocks, dim3(16, 16)>>>(f); });
  sample::run("row_sum_double", B, [&] { row_sum_double<<<blocks / 2, dim3(16, 16)>>>(d); });
  sample::run("tiled_gemm", 3.0 * 1024 * 1024 * 4, [&] {
    tiled_gemm<16><<<dim3(64, 64), dim3(16, 16)>>>(a, b, c, 1024);
  });
  sample::run("flat_rows", B, [&] { flat_rows<<<blocks, 256>>>(f); });
  sample::run("odd_pitch", B, [&] { odd_pitch<<<blocks, dim3(16, 16)>>>(f); });
  sample::run("row_offset", B, [&] { row_offset<<<blocks, dim3(16, 16)>>>(f); });
  sample::run("runtime_trip", B, [&] { runtime_trip<<<blocks, dim3(16, 16)>>>(f, 64); });
  sample::run("fields", B, [&] { fields<<<blocks, 256>>>(f); });
  float4 *q = sample::alloc<float4>(N);
  sample::run("quarter_blocks", B * 4, [&] { quarter_blocks<<<blocks, 256>>>(q); });
  return 0;
}
