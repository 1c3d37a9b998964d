// TMA (sm_90): bulk tensor copies (cp.async.bulk.tensor) of a 2-D box of
// halves from global into shared memory, issued by one thread, and the
// shared loads that read the box back. The tensor map's swizzle mode decides
// where each 16-byte chunk of a box row lands; a reader must apply the same
// swizzle, or it reads other elements (and its bank conflicts are not the
// ones it was written for). The host checks every value read against the
// element the reader meant and prints `COALESCE_CHECK <kernel> <wrong> of
// <read>`: the contract's ground truth.
#include <cuda.h>
#include <cuda_fp16.h>
#include <cstdint>
#include "harness.cuh"

constexpr int MatRows = 256, MatCols = 64; // the global matrix of halves
constexpr int BoxRows = 64;                // one box per block, at row 64 * blockIdx.x
constexpr int Threads = 128, Blocks = MatRows / BoxRows;

__device__ __forceinline__ unsigned smem_u32(const void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// One thread copies the box at (x, y) into dst; the barrier counts its bytes.
__device__ void tma_load_box(void *dst, const CUtensorMap *map, int x, int y, uint64_t *bar,
                             unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n"
               ::"r"(smem_u32(bar)), "r"(bytes) : "memory");
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
               " [%0], [%1, {%2, %3}], [%4];\n"
               ::"r"(smem_u32(dst)), "l"(map), "r"(x), "r"(y), "r"(smem_u32(bar)) : "memory"); // expect: store tile unknown
}

__device__ void barrier_init(uint64_t *bar) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(smem_u32(bar)) : "memory");
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

__device__ void barrier_wait(uint64_t *bar) {
  unsigned done = 0;
  while (!done)
    asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n"
                 " selp.u32 %0, 1, 0, p;\n}\n"
                 : "=r"(done) : "r"(smem_u32(bar)) : "memory");
}

__device__ float sum8(uint4 v) {
  const __half *h = reinterpret_cast<const __half *>(&v);
  float s = 0;
  for (int i = 0; i < 8; ++i)
    s += __half2float(h[i]);
  return s;
}

// A 128B-swizzled box (rows of 128 bytes); each thread reads the 16-byte
// chunk `chunk` of row `row`, where the copy put it: chunk ^ (row % 8).
__global__ void tma_swizzled_read(const __grid_constant__ CUtensorMap map, float *out) {
  __shared__ alignas(1024) __half tile[BoxRows][64];
  __shared__ uint64_t bar;
  const int t = threadIdx.x;
  if (t == 0) {
    barrier_init(&bar);
    tma_load_box(tile, &map, 0, blockIdx.x * BoxRows, &bar, sizeof tile);
  }
  __syncthreads();
  barrier_wait(&bar);
  const int row = t % 64, chunk = t / 64;
  const uint4 v = *reinterpret_cast<const uint4 *>(&tile[row][(chunk ^ (row % 8)) * 8]); // expect: load tile 4/4
  out[blockIdx.x * Threads + t] = sum8(v); // expect: store out 4/4
}

// The same copy read as if it were row-major: lanes 0-7 of each phase read
// the same chunk of eight rows (one bank group), and all but rows 0 and 8k
// read the wrong elements.
__global__ void tma_rowmajor_read(const __grid_constant__ CUtensorMap map, float *out) {
  __shared__ alignas(1024) __half tile[BoxRows][64];
  __shared__ uint64_t bar;
  const int t = threadIdx.x;
  if (t == 0) {
    barrier_init(&bar);
    tma_load_box(tile, &map, 0, blockIdx.x * BoxRows, &bar, sizeof tile);
  }
  __syncthreads();
  barrier_wait(&bar);
  const int row = t % 64, chunk = t / 64;
  const uint4 v = *reinterpret_cast<const uint4 *>(&tile[row][chunk * 8]); // expect: load tile 32/4
  out[blockIdx.x * Threads + t] = sum8(v); // expect: store out 4/4
}

// A box copied without swizzle, read row-major: the right elements, eight
// lanes of a phase in one bank group.
__global__ void tma_plain_read(const __grid_constant__ CUtensorMap map, float *out) {
  __shared__ alignas(1024) __half tile[BoxRows][64];
  __shared__ uint64_t bar;
  const int t = threadIdx.x;
  if (t == 0) {
    barrier_init(&bar);
    tma_load_box(tile, &map, 0, blockIdx.x * BoxRows, &bar, sizeof tile);
  }
  __syncthreads();
  barrier_wait(&bar);
  const int row = t % 64, chunk = t / 64;
  const uint4 v = *reinterpret_cast<const uint4 *>(&tile[row][chunk * 8]); // expect: load tile 32/4
  out[blockIdx.x * Threads + t] = sum8(v); // expect: store out 4/4
}

// A 64B-swizzled box (rows of 64 bytes: chunks 0-3, XORed with (row / 2) % 4),
// read where the copy put each chunk, and read with the 128B mode's XOR.
__global__ void tma_swizzle64_read(const __grid_constant__ CUtensorMap map, float *out) {
  __shared__ alignas(1024) __half tile[BoxRows][32];
  __shared__ uint64_t bar;
  const int t = threadIdx.x;
  if (t == 0) {
    barrier_init(&bar);
    tma_load_box(tile, &map, 0, blockIdx.x * BoxRows, &bar, sizeof tile);
  }
  __syncthreads();
  barrier_wait(&bar);
  const int row = t % 64, chunk = t / 64;
  const uint4 v = *reinterpret_cast<const uint4 *>(&tile[row][(chunk ^ ((row / 2) % 4)) * 8]); // expect: load tile 4/4
  const uint4 w = *reinterpret_cast<const uint4 *>(&tile[row][(chunk ^ (row % 4)) * 8]); // expect: load tile 8/4
  out[blockIdx.x * Threads + t] = sum8(v); // expect: store out 4/4
  out[Blocks * Threads + blockIdx.x * Threads + t] = sum8(w); // expect: store out 4/4
}

// ldmatrix .x4 of a 128B-swizzled box: lanes 0-15 give rows of chunk 0,
// lanes 16-31 of chunk 1, each where the copy put it.
__global__ void tma_ldmatrix_read(const __grid_constant__ CUtensorMap map, float *out) {
  __shared__ alignas(1024) __half tile[BoxRows][64];
  __shared__ uint64_t bar;
  const int t = threadIdx.x, lane = t % 32, warp = t / 32;
  if (t == 0) {
    barrier_init(&bar);
    tma_load_box(tile, &map, 0, blockIdx.x * BoxRows, &bar, sizeof tile);
  }
  __syncthreads();
  barrier_wait(&bar);
  const int row = warp * 16 + lane % 16, chunk = lane / 16;
  uint4 r;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
               : "r"(smem_u32(&tile[row][(chunk ^ (row % 8)) * 8]))); // expect: load tile 4/4
  out[blockIdx.x * Threads + t] = sum8(r); // expect: store out 4/4
}

// The driver's entry point, without linking libcuda (the program is built
// with plain `nvcc`): a pointer of cuTensorMapEncodeTiled's type.
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

// A map of the matrix whose box is BoxRows rows of box_cols halves.
static CUtensorMap box_map(__half *m, cuuint32_t box_cols, CUtensorMapSwizzle swizzle) {
  CUtensorMap map;
  const cuuint64_t dims[2] = {MatCols, MatRows};
  const cuuint64_t strides[1] = {MatCols * sizeof(__half)};
  const cuuint32_t box[2] = {box_cols, BoxRows};
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

static float element(int row, int col) { return static_cast<float>((row * MatCols + col) % 2048); }

// What thread t of block b meant to read: the sum of 8 halves of a row,
// from column col0 on.
static float meant8(int b, int row, int col0) {
  float s = 0;
  for (int i = 0; i < 8; ++i)
    s += element(b * BoxRows + row, col0 + i);
  return s;
}

static void check(const char *kernel, const std::vector<float> &got,
                  const std::vector<float> &want) {
  int wrong = 0;
  for (size_t i = 0; i < want.size(); ++i)
    wrong += got[i] != want[i];
  std::printf("COALESCE_CHECK %s %d of %zu\n", kernel, wrong, want.size());
}

int main() {
  std::vector<__half> host(MatRows * MatCols);
  for (int r = 0; r < MatRows; ++r)
    for (int c = 0; c < MatCols; ++c)
      host[r * MatCols + c] = __float2half(element(r, c));
  __half *m = sample::alloc<__half>(host.size());
  SAMPLE_CHECK(cudaMemcpy(m, host.data(), host.size() * sizeof(__half), cudaMemcpyHostToDevice));
  float *out = sample::alloc<float>(2 * Blocks * Threads);

  const CUtensorMap sw128 = box_map(m, 64, CU_TENSOR_MAP_SWIZZLE_128B);
  const CUtensorMap plain = box_map(m, 64, CU_TENSOR_MAP_SWIZZLE_NONE);
  const CUtensorMap sw64 = box_map(m, 32, CU_TENSOR_MAP_SWIZZLE_64B);
  const double Bytes = Blocks * (BoxRows * 128.0 + Threads * 4.0);

  std::vector<float> got(2 * Blocks * Threads), want(Blocks * Threads), want2(Blocks * Threads);
  auto fetch = [&] {
    SAMPLE_CHECK(cudaMemcpy(got.data(), out, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
  };
  for (int b = 0; b < Blocks; ++b)
    for (int t = 0; t < Threads; ++t)
      want[b * Threads + t] = meant8(b, t % 64, (t / 64) * 8);

  sample::run("tma_swizzled_read", Bytes, [&] { tma_swizzled_read<<<Blocks, Threads>>>(sw128, out); });
  fetch();
  check("tma_swizzled_read", {got.begin(), got.begin() + want.size()}, want);
  sample::run("tma_rowmajor_read", Bytes, [&] { tma_rowmajor_read<<<Blocks, Threads>>>(sw128, out); });
  fetch();
  check("tma_rowmajor_read", {got.begin(), got.begin() + want.size()}, want);
  sample::run("tma_plain_read", Bytes, [&] { tma_plain_read<<<Blocks, Threads>>>(plain, out); });
  fetch();
  check("tma_plain_read", {got.begin(), got.begin() + want.size()}, want);
  sample::run("tma_swizzle64_read", Bytes, [&] { tma_swizzle64_read<<<Blocks, Threads>>>(sw64, out); });
  fetch();
  check("tma_swizzle64_read(64B XOR)", {got.begin(), got.begin() + want.size()}, want);
  check("tma_swizzle64_read(128B XOR)", {got.begin() + want.size(), got.end()}, want);
  sample::run("tma_ldmatrix_read", Bytes, [&] { tma_ldmatrix_read<<<Blocks, Threads>>>(sw128, out); });
  fetch();
  // Lane l of a warp holds, in register j, two halves of matrix j's row
  // l / 4 (columns 2 (l % 4), +1): the row lane 8 j + l / 4 addressed.
  for (int b = 0; b < Blocks; ++b)
    for (int t = 0; t < Threads; ++t) {
      const int lane = t % 32, warp = t / 32;
      float s = 0;
      for (int j = 0; j < 4; ++j) {
        const int from = 8 * j + lane / 4;
        const int row = warp * 16 + from % 16, chunk = from / 16;
        s += element(b * BoxRows + row, chunk * 8 + 2 * (lane % 4)) +
             element(b * BoxRows + row, chunk * 8 + 2 * (lane % 4) + 1);
      }
      want2[b * Threads + t] = s;
    }
  check("tma_ldmatrix_read", {got.begin(), got.begin() + want2.size()}, want2);
  return 0;
}
