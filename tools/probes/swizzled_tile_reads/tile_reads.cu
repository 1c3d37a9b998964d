// A register tile read from a one-dimensional shared array, as SGEMM-style
// kernels write it (rows of BM floats, TM = 8 consecutive floats a thread),
// in three layouts: as written, with 4-float chunks XOR-swizzled by the row,
// and with 8-float chunks XOR-swizzled by row / 4; each swizzle written two
// ways: the XOR over the whole column, `(b + i) ^ x` (SWIZZLE 1, 2), and
// over the thread's base only, `(b ^ x) + i` (SWIZZLE 3, 4; for 8-float
// chunks the same layout, b being a multiple of 8 and i < 8). probe.sh
// counts the shared loads nvcc emits for each: it merges the plain reads
// and the `(b ^ x) + i` ones into LDS.128, not the `(b + i) ^ x` ones
// (rules/docs/fix-swizzle.md, "Limits").
#define BM 128
#define BK 16

#ifndef SWIZZLE
#define SWIZZLE 0
#endif

__device__ __forceinline__ int swz(int row, int col) {
#if SWIZZLE == 1 || SWIZZLE == 3
  return col ^ ((row & 7) << 2);
#elif SWIZZLE == 2 || SWIZZLE == 4
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
#if SWIZZLE >= 3
      acc += As[k * BM + (swz(k, threadRow * 8) + i)];
#else
      acc += As[k * BM + swz(k, threadRow * 8 + i)];
#endif
  out[blockIdx.x * 256 + tid] = acc;
}
