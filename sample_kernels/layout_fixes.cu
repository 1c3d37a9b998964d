// Layout fixes, before and after (rules/docs/layout-fixes.md): each "before"
// kernel is what a user writes; each "after" kernel is the same code as
// `coalesce-lint --fix` rewrites it. Verify mode measures both, so every
// fix's gain is measured, not only predicted.
#include "harness.cuh"

// A tile written with float4 stores and read down its columns, four rows a
// thread. Padding cannot fix it (a pad that keeps the 16-byte stores aligned
// moves rows 4 apart by a multiple of 64 bytes: 4-way at best); an XOR of
// the 16-byte chunks by (row / 4) % 8 makes both conflict-free and keeps
// the stores 16 bytes wide.
__global__ void vec_col_before(const float4 *in, float *out) {
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  *reinterpret_cast<float4 *>(&tile[ty][4 * tx]) = in[(blockIdx.x * 32 + ty) * 8 + tx]; // expect: store tile 4/4; load in 16/16
  __syncthreads();
  for (int j = 0; j < 4; ++j)
    out[(blockIdx.x * 4 + j) * 256 + ty * 8 + tx] = tile[4 * tx + j][ty]; // expect: load tile 8/1; store out 4/4
}

__global__ void vec_col_after(const float4 *in, float *out) {
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  *reinterpret_cast<float4 *>(&tile[ty][(4 * tx) ^ (((ty >> 2) & 7) << 2)]) = in[(blockIdx.x * 32 + ty) * 8 + tx]; // expect: store tile 4/4; load in 16/16
  __syncthreads();
  for (int j = 0; j < 4; ++j)
    out[(blockIdx.x * 4 + j) * 256 + ty * 8 + tx] = tile[4 * tx + j][ty ^ ((((4 * tx + j) >> 2) & 7) << 2)]; // expect: load tile 1/1; store out 4/4
}

// The classic transpose tile: padding by one element.
__global__ void transpose_before(const float *in, float *out) {
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  for (int i = 0; i < 32; i += 8)
    tile[ty + i][tx] = in[(blockIdx.x * 32 + ty + i) * 32 + tx]; // expect: store tile 1/1; load in 4/4
  __syncthreads();
  for (int i = 0; i < 32; i += 8)
    out[(blockIdx.x * 32 + ty + i) * 32 + tx] = tile[tx][ty + i]; // expect: load tile 32/1; store out 4/4
}

__global__ void transpose_after(const float *in, float *out) {
  __shared__ float tile[32][33];
  int tx = threadIdx.x, ty = threadIdx.y;
  for (int i = 0; i < 32; i += 8)
    tile[ty + i][tx] = in[(blockIdx.x * 32 + ty + i) * 32 + tx]; // expect: store tile 1/1; load in 4/4
  __syncthreads();
  for (int i = 0; i < 32; i += 8)
    out[(blockIdx.x * 32 + ty + i) * 32 + tx] = tile[tx][ty + i]; // expect: load tile 1/1; store out 4/4
}

// A 48 KiB tile: no room to pad it, so the elements are swizzled by row.
__global__ void full_tile_before(const float *in, float *out) {
  __shared__ float tile[96][128];
  int tx = threadIdx.x, ty = threadIdx.y;
  for (int i = 0; i < 96; i += 8)
    tile[ty + i][tx] = in[(blockIdx.x * 96 + ty + i) * 128 + tx]; // expect: store tile 1/1; load in 4/4
  __syncthreads();
  out[(blockIdx.x * 32 + ty) * 32 + tx] = tile[tx][ty]; // expect: load tile 32/1; store out 4/4
}

__global__ void full_tile_after(const float *in, float *out) {
  __shared__ float tile[96][128];
  int tx = threadIdx.x, ty = threadIdx.y;
  for (int i = 0; i < 96; i += 8)
    tile[ty + i][tx ^ ((ty + i) & 31)] = in[(blockIdx.x * 96 + ty + i) * 128 + tx]; // expect: store tile 1/1; load in 4/4
  __syncthreads();
  out[(blockIdx.x * 32 + ty) * 32 + tx] = tile[tx][ty ^ (tx & 31)]; // expect: load tile 1/1; store out 4/4
}

// float4 rows read as float4 down a column (one row a lane): the 16-byte
// chunks swizzled by row % 8 (what --fix writes: no memory added), or the
// alternative the note names, padding by four elements (the 16-byte
// accesses stay aligned).
__global__ void vec_rows_before(const float4 *in, float4 *out) {
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  *reinterpret_cast<float4 *>(&tile[ty][4 * tx]) = in[(blockIdx.x * 32 + ty) * 8 + tx]; // expect: store tile 4/4; load in 16/16
  __syncthreads();
  int lane = ty % 4 * 8 + tx;
  out[(blockIdx.x * 32 + ty) * 8 + tx] = *reinterpret_cast<float4 *>(&tile[lane][4 * (ty / 4)]); // expect: load tile 32/4; store out 16/16
}

__global__ void vec_rows_after(const float4 *in, float4 *out) {
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  *reinterpret_cast<float4 *>(&tile[ty][(4 * tx) ^ ((ty & 7) << 2)]) = in[(blockIdx.x * 32 + ty) * 8 + tx]; // expect: store tile 4/4; load in 16/16
  __syncthreads();
  int lane = ty % 4 * 8 + tx;
  out[(blockIdx.x * 32 + ty) * 8 + tx] = *reinterpret_cast<float4 *>(&tile[lane][(4 * (ty / 4)) ^ ((lane & 7) << 2)]); // expect: load tile 4/4; store out 16/16
}

__global__ void vec_rows_padded(const float4 *in, float4 *out) {
  __shared__ float tile[32][36];
  int tx = threadIdx.x, ty = threadIdx.y;
  *reinterpret_cast<float4 *>(&tile[ty][4 * tx]) = in[(blockIdx.x * 32 + ty) * 8 + tx]; // expect: store tile 4/4; load in 16/16
  __syncthreads();
  int lane = ty % 4 * 8 + tx;
  out[(blockIdx.x * 32 + ty) * 8 + tx] = *reinterpret_cast<float4 *>(&tile[lane][4 * (ty / 4)]); // expect: load tile 4/4; store out 16/16
}

// A one-dimensional tile indexed `row * BM + column` (SGEMM_CUDA's kernels
// 6-9 write their A tile so): its rows are inferred from the indices. The
// transposed stores put rows 4 apart, 512 floats, on one bank (2-way);
// padding the rows by 4 floats spreads them, keeping the reads merged: the
// note's alternative to a swizzle (register_tiles.cu measures that one).
constexpr int BM = 128, BK = 8;

__global__ void rowtile_before(const float4 *in, float *out) {
  __shared__ float As[BM * BK];
  int t = threadIdx.x, innerRow = t / (BK / 4), innerCol = t % (BK / 4);
  float4 v = in[blockIdx.x * 256 + t]; // expect: load in 16/16
  As[(innerCol * 4 + 0) * BM + innerRow] = v.x; // expect: store As 2/1
  As[(innerCol * 4 + 1) * BM + innerRow] = v.y; // expect: store As 2/1
  As[(innerCol * 4 + 2) * BM + innerRow] = v.z; // expect: store As 2/1
  As[(innerCol * 4 + 3) * BM + innerRow] = v.w; // expect: store As 2/1
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < BK; ++k)
    for (int i = 0; i < 8; ++i)
      acc += As[k * BM + (t / 16) * 8 + i]; // expect(source): load As 2/2 // expect(witness): load As 2/2
  out[blockIdx.x * 256 + t] = acc; // expect: store out 4/4
}

__global__ void rowtile_after(const float4 *in, float *out) {
  __shared__ float As[(BM + 4) * BK];
  int t = threadIdx.x, innerRow = t / (BK / 4), innerCol = t % (BK / 4);
  float4 v = in[blockIdx.x * 256 + t]; // expect: load in 16/16
  As[(innerCol * 4 + 0) * (BM + 4) + innerRow] = v.x; // expect: store As 1/1
  As[(innerCol * 4 + 1) * (BM + 4) + innerRow] = v.y; // expect: store As 1/1
  As[(innerCol * 4 + 2) * (BM + 4) + innerRow] = v.z; // expect: store As 1/1
  As[(innerCol * 4 + 3) * (BM + 4) + innerRow] = v.w; // expect: store As 1/1
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < BK; ++k)
    for (int i = 0; i < 8; ++i)
      acc += As[k * (BM + 4) + (t / 16) * 8 + i]; // expect(source): load As 2/2 // expect(witness): load As 2/2
  out[blockIdx.x * 256 + t] = acc; // expect: store out 4/4
}

int main() {
  const int blocks = 1024;
  float4 *in4 = sample::alloc<float4>(size_t(blocks) * 32 * 8);
  float4 *out4 = sample::alloc<float4>(size_t(blocks) * 32 * 8);
  float *in = sample::alloc<float>(size_t(blocks) * 96 * 128);
  float *out = sample::alloc<float>(size_t(blocks) * 32 * 32);
  const double B = double(blocks) * 32 * 32 * 4 * 2;
  sample::run("vec_col_before", B, [&] { vec_col_before<<<blocks, dim3(8, 32)>>>(in4, out); });
  sample::run("vec_col_after", B, [&] { vec_col_after<<<blocks, dim3(8, 32)>>>(in4, out); });
  sample::run("transpose_before", B, [&] { transpose_before<<<blocks, dim3(32, 8)>>>(in, out); });
  sample::run("transpose_after", B, [&] { transpose_after<<<blocks, dim3(32, 8)>>>(in, out); });
  sample::run("full_tile_before", B, [&] { full_tile_before<<<blocks, dim3(32, 8)>>>(in, out); });
  sample::run("full_tile_after", B, [&] { full_tile_after<<<blocks, dim3(32, 8)>>>(in, out); });
  sample::run("vec_rows_before", B, [&] { vec_rows_before<<<blocks, dim3(8, 32)>>>(in4, out4); });
  sample::run("vec_rows_after", B, [&] { vec_rows_after<<<blocks, dim3(8, 32)>>>(in4, out4); });
  sample::run("vec_rows_padded", B, [&] { vec_rows_padded<<<blocks, dim3(8, 32)>>>(in4, out4); });
  sample::run("rowtile_before", B, [&] { rowtile_before<<<blocks, 256>>>(in4, out); });
  sample::run("rowtile_after", B, [&] { rowtile_after<<<blocks, 256>>>(in4, out); });
  SAMPLE_CHECK(cudaFree(in4));
  SAMPLE_CHECK(cudaFree(out4));
  SAMPLE_CHECK(cudaFree(in));
  SAMPLE_CHECK(cudaFree(out));
  return 0;
}
