// wgmma (sm_90a) reads its A and B tiles from shared memory through 64-bit
// matrix descriptors: the tile's start address (>> 4), two strides and a
// swizzle mode in bits 62-63 (0 none, 1 128B, 2 64B, 3 32B). The tiles here
// are written by TMA copies; the descriptor's swizzle must be the one the
// copy's tensor map wrote, or the tensor cores multiply other elements. The
// host checks every product against the CPU's and prints
// `COALESCE_CHECK <kernel> <wrong> of <values>`: the contract's ground truth.
// Build: nvcc -arch=sm_90a.
#include <cuda.h>
#include <cuda_fp16.h>
#include <cstdint>
#include "harness.cuh"

constexpr int TileM = 64, TileN = 8;     // one m64n8 product per block
constexpr int Rows = 256, Blocks = Rows / TileM, Threads = 128;

__device__ __forceinline__ unsigned smem_addr(const void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// A shared-memory matrix descriptor: start address and stride of 8-row
// groups in 16-byte units, the leading offset 1 (unused by K-major swizzled
// layouts), and the swizzle mode.
__device__ uint64_t matrix_desc(const void *tile, unsigned group_stride, unsigned mode) {
  const uint64_t addr = __cvta_generic_to_shared(tile);
  return ((addr & 0x3FFFF) >> 4) | (uint64_t(1) << 16) |
         (uint64_t((group_stride & 0x3FFFF) >> 4) << 32) | (uint64_t(mode) << 62);
}

// D (64 x 8, fp32, four values a thread) += A (64 x 16) * B (16 x 8), both
// K-major, read through their descriptors.
__device__ void mma_64x8x16(float (&d)[4], uint64_t a, uint64_t b, int accumulate) {
  asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %6, 0;\n"
               " wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "l"(a), "l"(b), "r"(accumulate)); // expect: load a 4.5/4.5
}

__device__ void tma_box(void *dst, const CUtensorMap *map, int x, int y, uint64_t *bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
               " [%0], [%1, {%2, %3}], [%4];\n"
               ::"r"(smem_addr(dst)), "l"(map), "r"(x), "r"(y), "r"(smem_addr(bar)) : "memory"); // expect: store a unknown; store b unknown
}

__device__ void expect_bytes(uint64_t *bar, unsigned bytes) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(smem_addr(bar)) : "memory");
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n"
               ::"r"(smem_addr(bar)), "r"(bytes) : "memory");
}

__device__ void wait_bytes(uint64_t *bar) {
  unsigned done = 0;
  while (!done)
    asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n"
                 " selp.u32 %0, 1, 0, p;\n}\n"
                 : "=r"(done) : "r"(smem_addr(bar)) : "memory");
}

// Thread 0 copies block's A tile and the B tile; every thread waits for them.
__device__ void load_tiles(void *a, void *b, const CUtensorMap *map_a, const CUtensorMap *map_b,
                           unsigned bytes, uint64_t *bar) {
  if (threadIdx.x == 0) {
    expect_bytes(bar, bytes);
    tma_box(a, map_a, 0, blockIdx.x * TileM, bar);
    tma_box(b, map_b, 0, 0, bar);
  }
  __syncthreads();
  wait_bytes(bar);
}

__device__ void begin_mma() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ void end_mma() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
}

// Thread t holds D's rows 16 (t / 32) + (t % 32) / 4 and 8 more, columns
// 2 (t % 4) and the next.
__device__ void store_d(const float (&d)[4], float *out) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int row = blockIdx.x * TileM + warp * 16 + lane / 4, col = 2 * (lane % 4);
  out[row * TileN + col] = d[0]; // expect: store out 8/4
  out[row * TileN + col + 1] = d[1]; // expect: store out 8/4
  out[(row + 8) * TileN + col] = d[2]; // expect: store out 8/4
  out[(row + 8) * TileN + col + 1] = d[3]; // expect: store out 8/4
}

// K = 64: rows of 128 bytes copied with the 128B swizzle; the product of
// the second k-slice (columns 16-31), its descriptors 32 bytes into the rows;
// 8-row groups 1024 bytes apart.
__global__ void wgmma_sw128(const __grid_constant__ CUtensorMap map_a,
                            const __grid_constant__ CUtensorMap map_b, float *out) {
  __shared__ alignas(1024) __half a[TileM][64];
  __shared__ alignas(1024) __half b[TileN][64];
  __shared__ uint64_t bar;
  load_tiles(a, b, &map_a, &map_b, sizeof a + sizeof b, &bar);
  float d[4] = {0, 0, 0, 0};
  begin_mma();
  mma_64x8x16(d, matrix_desc(&a[0][16], 1024, 1), matrix_desc(&b[0][16], 1024, 1), 0);
  end_mma();
  store_d(d, out);
}

// The 128B-swizzled tiles read with 64B-swizzle descriptors.
__global__ void wgmma_sw64_on_sw128(const __grid_constant__ CUtensorMap map_a,
                                    const __grid_constant__ CUtensorMap map_b, float *out) {
  __shared__ alignas(1024) __half a[TileM][64];
  __shared__ alignas(1024) __half b[TileN][64];
  __shared__ uint64_t bar;
  load_tiles(a, b, &map_a, &map_b, sizeof a + sizeof b, &bar);
  float d[4] = {0, 0, 0, 0};
  begin_mma();
  mma_64x8x16(d, matrix_desc(&a[0][16], 512, 2), matrix_desc(&b[0][16], 512, 2), 0);
  end_mma();
  store_d(d, out);
}

// K = 16: rows of 32 bytes, 8-row groups 256 bytes apart, one k-step; the
// descriptors say 32B swizzle, as the maps do.
__global__ void wgmma_sw32(const __grid_constant__ CUtensorMap map_a,
                           const __grid_constant__ CUtensorMap map_b, float *out) {
  __shared__ alignas(1024) __half a[TileM][16];
  __shared__ alignas(1024) __half b[TileN][16];
  __shared__ uint64_t bar;
  load_tiles(a, b, &map_a, &map_b, sizeof a + sizeof b, &bar);
  float d[4] = {0, 0, 0, 0};
  begin_mma();
  mma_64x8x16(d, matrix_desc(a, 256, 3), matrix_desc(b, 256, 3), 0);
  end_mma();
  store_d(d, out);
}

// The same descriptors on boxes copied without a swizzle.
__global__ void wgmma_sw32_on_plain(const __grid_constant__ CUtensorMap map_a,
                                    const __grid_constant__ CUtensorMap map_b, float *out) {
  __shared__ alignas(1024) __half a[TileM][16];
  __shared__ alignas(1024) __half b[TileN][16];
  __shared__ uint64_t bar;
  load_tiles(a, b, &map_a, &map_b, sizeof a + sizeof b, &bar);
  float d[4] = {0, 0, 0, 0};
  begin_mma();
  mma_64x8x16(d, matrix_desc(a, 256, 3), matrix_desc(b, 256, 3), 0);
  end_mma();
  store_d(d, out);
}

using EncodeTiled = decltype(&cuTensorMapEncodeTiled);

static EncodeTiled encode_tiled() {
  void *fn = nullptr;
  cudaDriverEntryPointQueryResult found;
  SAMPLE_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000,
                                                cudaEnableDefault, &found));
  if (!fn || found != cudaDriverEntryPointSuccess) {
    std::fprintf(stderr, "cuTensorMapEncodeTiled not found\n");
    std::exit(1);
  }
  return reinterpret_cast<EncodeTiled>(fn);
}

// A map of a rows x cols matrix of halves whose box is box_rows whole rows.
static CUtensorMap rows_map(__half *m, cuuint64_t rows, cuuint64_t cols, cuuint32_t box_rows,
                            CUtensorMapSwizzle swizzle) {
  CUtensorMap map;
  const cuuint64_t dims[2] = {cols, rows};
  const cuuint64_t strides[1] = {cols * sizeof(__half)};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(cols), box_rows};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r = encode_tiled()(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, m, dims, strides,
                                    box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
                                    CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                    CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    std::fprintf(stderr, "cuTensorMapEncodeTiled failed: %d\n", static_cast<int>(r));
    std::exit(1);
  }
  return map;
}

static float a_value(int m, int k) { return static_cast<float>((m * 3 + k) % 7 - 3); }
static float b_value(int n, int k) { return static_cast<float>((n + 2 * k) % 5 - 2); }

static __half *upload(int rows, int cols, float (*value)(int, int)) {
  std::vector<__half> host(rows * cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      host[r * cols + c] = __float2half(value(r, c));
  __half *m = sample::alloc<__half>(host.size());
  SAMPLE_CHECK(cudaMemcpy(m, host.data(), host.size() * sizeof(__half), cudaMemcpyHostToDevice));
  return m;
}

static void check(const char *kernel, const float *out, int k0, int k1) {
  std::vector<float> got(Rows * TileN);
  SAMPLE_CHECK(cudaMemcpy(got.data(), out, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int m = 0; m < Rows; ++m)
    for (int n = 0; n < TileN; ++n) {
      float want = 0;
      for (int i = k0; i < k1; ++i)
        want += a_value(m, i) * b_value(n, i);
      wrong += got[m * TileN + n] != want;
    }
  std::printf("COALESCE_CHECK %s %d of %zu\n", kernel, wrong, got.size());
}

int main() {
  __half *a64 = upload(Rows, 64, a_value), *b64 = upload(TileN, 64, b_value);
  __half *a16 = upload(Rows, 16, a_value), *b16 = upload(TileN, 16, b_value);
  float *out = sample::alloc<float>(Rows * TileN);
  const CUtensorMap a128 = rows_map(a64, Rows, 64, TileM, CU_TENSOR_MAP_SWIZZLE_128B);
  const CUtensorMap b128 = rows_map(b64, TileN, 64, TileN, CU_TENSOR_MAP_SWIZZLE_128B);
  const CUtensorMap a32 = rows_map(a16, Rows, 16, TileM, CU_TENSOR_MAP_SWIZZLE_32B);
  const CUtensorMap b32 = rows_map(b16, TileN, 16, TileN, CU_TENSOR_MAP_SWIZZLE_32B);
  const CUtensorMap a_plain = rows_map(a16, Rows, 16, TileM, CU_TENSOR_MAP_SWIZZLE_NONE);
  const CUtensorMap b_plain = rows_map(b16, TileN, 16, TileN, CU_TENSOR_MAP_SWIZZLE_NONE);
  const double Bytes = Blocks * (TileM * 128.0 + TileN * 128.0 + TileM * TileN * 4.0);

  SAMPLE_CHECK(cudaMemset(out, 0, Rows * TileN * sizeof(float)));
  sample::run("wgmma_sw128", Bytes, [&] { wgmma_sw128<<<Blocks, Threads>>>(a128, b128, out); });
  check("wgmma_sw128", out, 16, 32);
  SAMPLE_CHECK(cudaMemset(out, 0, Rows * TileN * sizeof(float)));
  sample::run("wgmma_sw64_on_sw128", Bytes,
              [&] { wgmma_sw64_on_sw128<<<Blocks, Threads>>>(a128, b128, out); });
  check("wgmma_sw64_on_sw128", out, 16, 32);
  SAMPLE_CHECK(cudaMemset(out, 0, Rows * TileN * sizeof(float)));
  sample::run("wgmma_sw32", Bytes, [&] { wgmma_sw32<<<Blocks, Threads>>>(a32, b32, out); });
  check("wgmma_sw32", out, 0, 16);
  SAMPLE_CHECK(cudaMemset(out, 0, Rows * TileN * sizeof(float)));
  sample::run("wgmma_sw32_on_plain", Bytes,
              [&] { wgmma_sw32_on_plain<<<Blocks, Threads>>>(a_plain, b_plain, out); });
  check("wgmma_sw32_on_plain", out, 0, 16);
  return 0;
}
