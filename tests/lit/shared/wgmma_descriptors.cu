// RUN: %lint --rules=tma-contract --no-unknown %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint --format=json %s | %records | FileCheck %s --check-prefix=REC
// RUN: %lint %s 2>&1 | FileCheck %s --check-prefix=WHY
// wgmma reads its shared operands through matrix descriptors built by bit
// operations on a shared address (model/MatrixDescriptor.h): one record per
// statement, the bytes the warpgroup reads in 128-byte wavefronts over its
// four warps; a descriptor pointing into a TMA box is checked against the
// copy's swizzle and rows (coalesce-tma-contract).
#include <cuda.h>
#include <cstdint>

__device__ unsigned sa(const void *p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__device__ void copy_box(void *dst, const CUtensorMap *map, int y) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
               " [%0], [%1, {%2, %3}], [%4];\n" ::"r"(sa(dst)), "l"(map), "r"(0), "r"(y), "r"(0u)
               : "memory");
}

__device__ uint64_t desc(const void *tile, unsigned stride, unsigned mode) {
  const uint64_t addr = __cvta_generic_to_shared(tile);
  uint64_t d = 0;
  d |= (addr & 0x3FFFF) >> 4;
  d |= uint64_t(1) << 16;
  d |= uint64_t(stride >> 4) << 32;
  d |= uint64_t(mode) << 62;
  return d;
}

__device__ void mma8(float (&d)[4], uint64_t a, uint64_t b) {
  asm volatile("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, 0, 1, 1, 0, 0;\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "l"(a), "l"(b));
}

// 128B boxes read with 128B descriptors, 1024 bytes between 8-row groups;
// the k-steps advance the descriptors by 32 bytes (2 units). No finding.
__global__ void match128(const __grid_constant__ CUtensorMap ma,
                         const __grid_constant__ CUtensorMap mb, float *out) {
  __shared__ __align__(1024) unsigned short a[64][64];
  __shared__ __align__(1024) unsigned short b[8][64];
  if (threadIdx.x == 0) {
    copy_box(a, &ma, 0);
    copy_box(b, &mb, 0);
  }
  __syncthreads();
  float d[4] = {};
  const uint64_t da = desc(a, 1024, 1), db = desc(b, 1024, 1);
  for (int k = 0; k < 4; ++k)
    mma8(d, da + 2 * k, db + 2 * k);
  out[threadIdx.x] = d[0];
}
// REC: wgmma_descriptors.cu:32:{{[0-9]+}}: match128 load shared 'a' `a` 4.5/4.5 ok

// The same boxes through 64B-swizzle descriptors.
__global__ void mode64_on_128(const __grid_constant__ CUtensorMap ma,
                              const __grid_constant__ CUtensorMap mb, float *out) {
  __shared__ __align__(1024) unsigned short a[64][64];
  __shared__ __align__(1024) unsigned short b[8][64];
  if (threadIdx.x == 0) {
    copy_box(a, &ma, 0);
    copy_box(b, &mb, 0);
  }
  __syncthreads();
  float d[4] = {};
  mma8(d, desc(&a[0][16], 512, 2), desc(&b[0][16], 512, 2));
  out[threadIdx.x] = d[0];
}
// CHECK: wgmma_descriptors.cu:32:{{[0-9]+}}: warning: wgmma reads a TMA box against its contract (descriptor-swizzle): the descriptor of A reads 'a' + 32 bytes with the 64B swizzle (mode 2), but the TMA copy at wgmma_descriptors.cu:[[#@LINE-8]] wrote that box with CU_TENSOR_MAP_SWIZZLE_128B (the map encoded at wgmma_descriptors.cu:{{[0-9]+}}), so the tensor cores multiply other elements than the copy put there: set the descriptor's bits 62-63 to 1 (the 128B swizzle (mode 1)), or encode the map with CU_TENSOR_MAP_SWIZZLE_64B; and the descriptor of B reads 'b' + 32 bytes with the 64B swizzle (mode 2), but the TMA copy at wgmma_descriptors.cu:[[#@LINE-7]] wrote that box with CU_TENSOR_MAP_SWIZZLE_128B {{.*}} [coalesce-tma-contract]
// CHECK: note: in 'mma8' called at wgmma_descriptors.cu:[[#@LINE-4]]

// The right swizzle, the wrong distance between 8-row groups (K-major A);
// B read MN-major (imm-trans-b 1), whose offsets mean otherwise: not checked.
__global__ void stride_wrong(const __grid_constant__ CUtensorMap ma,
                             const __grid_constant__ CUtensorMap mb, float *out) {
  __shared__ __align__(1024) unsigned short a[64][64];
  __shared__ __align__(1024) unsigned short b[8][64];
  if (threadIdx.x == 0) {
    copy_box(a, &ma, 0);
    copy_box(b, &mb, 0);
  }
  __syncthreads();
  float d[4] = {};
  const uint64_t da = desc(a, 512, 1), db = desc(b, 512, 1);
  asm volatile("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, 0, 1, 1, 0, 1;\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "l"(da), "l"(db));
  // CHECK: wgmma_descriptors.cu:[[#@LINE-1]]:{{[0-9]+}}: warning: wgmma reads a TMA box against its contract (descriptor-stride): the descriptor of A reads 'a' as K-major with the 128B swizzle (mode 1) and 8-row groups 512 bytes apart, but the TMA copy at wgmma_descriptors.cu:[[#@LINE-8]] wrote rows of 128 bytes, 8-row groups 1024 bytes apart: its stride dimension byte offset (bits 32-45, in 16-byte units) should be 64 [coalesce-tma-contract]
  out[threadIdx.x] = d[0];
}

// A in registers, B through a 32B descriptor (3ull << 62, past INT64_MAX)
// on a 32B box: B's 256 bytes, half a wavefront per warp. No finding.
__global__ void a_in_registers(const __grid_constant__ CUtensorMap mb, float *out) {
  __shared__ __align__(1024) unsigned short b[8][16];
  if (threadIdx.x == 0)
    copy_box(b, &mb, 0);
  __syncthreads();
  float d[4] = {};
  unsigned r[4] = {1, 2, 3, 4};
  const uint64_t db = ((__cvta_generic_to_shared(b) & 0x3FFFF) >> 4) | (16ull << 32) | (3ull << 62);
  asm volatile("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, {%4, %5, %6, %7}, %8, 0, 1, 1, 0;\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]), "l"(db));
  // REC: wgmma_descriptors.cu:[[#@LINE-1]]:{{[0-9]+}}: a_in_registers load shared 'b' `db` 0.5/0.5 ok
  out[threadIdx.x] = d[0];
}

// Tiles the threads fill (no TMA box): costed, nothing to check. m64n16k16
// reads 2048 + 512 bytes: 5 wavefronts per warp.
__global__ void filled_by_threads(float *out) {
  __shared__ __align__(1024) unsigned short a[64][16];
  __shared__ __align__(1024) unsigned short b[16][16];
  for (int i = threadIdx.x; i < 64 * 16; i += 128)
    a[i / 16][i % 16] = 0;
  for (int i = threadIdx.x; i < 16 * 16; i += 128)
    b[i / 16][i % 16] = 0;
  __syncthreads();
  float d[8] = {};
  asm volatile("wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, 0, 1, 1, 0, 0;\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
               : "l"(desc(a, 256, 3)), "l"(desc(b, 256, 3)));
  // REC: wgmma_descriptors.cu:[[#@LINE-1]]:{{[0-9]+}}: filled_by_threads load shared 'a' `desc(a, 256, 3)` 5/5 ok
  out[threadIdx.x] = d[0];
}

// A descriptor from a kernel parameter, and an integer form not measured:
// unknown, with why.
__global__ void not_followed(uint64_t da, float *out) {
  __shared__ __align__(1024) unsigned short b[8][16];
  b[threadIdx.x % 8][threadIdx.x % 16] = 0;
  __syncthreads();
  float d[4] = {};
  mma8(d, da, desc(b, 256, 3));
  // REC: wgmma_descriptors.cu:32:{{[0-9]+}}: not_followed load shared 'b' `b` ?/? unknown
  // WHY: wgmma_descriptors.cu:32:{{[0-9]+}}: remark: shared load from 'b' cannot be predicted: wgmma (`wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16`, line 31) reads its shared operands through matrix descriptors: the descriptor of A ('a') is not a shared address taken apart by shifts and masks that the analysis follows
  int e[4] = {};
  asm volatile("wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8 {%0, %1, %2, %3}, %4, %5, 0;\n"
               : "+r"(e[0]), "+r"(e[1]), "+r"(e[2]), "+r"(e[3]) : "l"(desc(b, 256, 3)), "l"(desc(b, 256, 3)));
  // REC: wgmma_descriptors.cu:[[#@LINE-1]]:{{[0-9]+}}: not_followed load shared 'b' `desc(b, 256, 3)` ?/? unknown
  // WHY: wgmma_descriptors.cu:[[#@LINE-2]]:{{[0-9]+}}: remark: shared load from 'b' cannot be predicted: the inline assembly's `wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8` (line [[#@LINE-3]]) is not modelled: only dense m64nNk wgmma of .f16, .bf16, .tf32, .e4m3 and .e5m2 operands is (measured)
  out[threadIdx.x] = d[0] + e[0];
}

// Descriptors chosen by a condition the walk does not know: neither is
// taken for both (no finding), the record is unknown.
__global__ void chosen(const __grid_constant__ CUtensorMap ma, int flag, float *out) {
  __shared__ __align__(1024) unsigned short a[64][64];
  __shared__ __align__(1024) unsigned short b[8][16];
  if (threadIdx.x == 0)
    copy_box(a, &ma, 0);
  b[threadIdx.x % 8][threadIdx.x % 16] = 0;
  __syncthreads();
  float d[4] = {};
  const uint64_t da = out[flag] > 0 ? desc(a, 1024, 1) : desc(a, 512, 2);
  asm volatile("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, 0, 1, 1, 0, 0;\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "l"(da), "l"(desc(b, 256, 3)));
  // REC: wgmma_descriptors.cu:[[#@LINE-1]]:{{[0-9]+}}: chosen load shared 'b' {{.*}} ?/? unknown
  out[threadIdx.x] = d[0];
}

static CUtensorMap encode(unsigned short *m, cuuint64_t cols, cuuint32_t box_rows,
                          CUtensorMapSwizzle swizzle) {
  CUtensorMap map;
  const cuuint64_t dims[2] = {cols, 256};
  const cuuint64_t strides[1] = {cols * 2};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(cols), box_rows};
  const cuuint32_t es[2] = {1, 1};
  cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, m, dims, strides, box, es,
                         CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return map;
}

int main() {
  unsigned short *m;
  float *out;
  cudaMalloc(&m, 256 * 64 * 2);
  cudaMalloc(&out, 4096);
  const CUtensorMap a128 = encode(m, 64, 64, CU_TENSOR_MAP_SWIZZLE_128B);
  const CUtensorMap b128 = encode(m, 64, 8, CU_TENSOR_MAP_SWIZZLE_128B);
  const CUtensorMap b32 = encode(m, 16, 8, CU_TENSOR_MAP_SWIZZLE_32B);
  match128<<<1, 128>>>(a128, b128, out);
  mode64_on_128<<<1, 128>>>(a128, b128, out);
  stride_wrong<<<1, 128>>>(a128, b128, out);
  a_in_registers<<<1, 128>>>(b32, out);
  filled_by_threads<<<1, 128>>>(out);
  not_followed<<<1, 128>>>(0, out);
  chosen<<<1, 128>>>(a128, 1, out);
  return 0;
}
