// A register tile read from a one-dimensional shared array, as SGEMM-style
// kernels write it (rows of BM floats, TM = 8 consecutive floats a thread),
// in three layouts: as written, with 4-float chunks XOR-swizzled by the row,
// and with 8-float chunks XOR-swizzled by row / 4. probe.sh counts the
// shared loads nvcc emits for each: it merges the plain reads into LDS.128,
// not the swizzled ones (rules/docs/fix-swizzle.md, "Limits").
#define BM 128
#define BK 16

#ifndef SWIZZLE
#define SWIZZLE 0
#endif

__device__ __forceinline__ int swz(int row, int col) {
#if SWIZZLE == 1
  return col ^ ((row & 7) << 2);
#elif SWIZZLE == 2
  return col ^ (((row >> 2) & 3) << 3);
#else
  (void)row;
  return col;
#endif
}

__global__ void tile_reads(const float *A, float *out) {
  __shared__ float As[BM * BK];
  int tid = threadIdx.x;
  int r = tid / (BK / 4), c = tid % (BK / 4);
  float4 v = reinterpret_cast<const float4 *>(&A[r * 1024 + c * 4])[0];
  As[(c * 4 + 0) * BM + swz(c * 4 + 0, r)] = v.x;
  As[(c * 4 + 1) * BM + swz(c * 4 + 1, r)] = v.y;
  As[(c * 4 + 2) * BM + swz(c * 4 + 2, r)] = v.z;
  As[(c * 4 + 3) * BM + swz(c * 4 + 3, r)] = v.w;
  __syncthreads();
  float acc = 0;
  int threadRow = tid / 16;
  for (int k = 0; k < BK; ++k)
    for (int i = 0; i < 8; ++i)
      acc += As[k * BM + swz(k, threadRow * 8 + i)];
  out[blockIdx.x * 256 + tid] = acc;
}
