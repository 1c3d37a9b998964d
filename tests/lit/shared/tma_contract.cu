// RUN: %lint --rules=tma-contract --no-unknown %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint --format=json %s | %records | FileCheck %s --check-prefix=REC
// TMA copies (cp.async.bulk.tensor): the tensor map the host encodes
// (cuTensorMapEncodeTiled, its arguments read by the host walk) decides the
// box and its swizzle; coalesce-tma-contract reports the rules of the
// contract a map, a destination or a reader of the box breaks
// (model/TensorMap.h).
#include <cuda.h>
typedef CUresult (*PFN_encode)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *, const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
PFN_encode driver_entry();

struct u4 { unsigned x, y, z, w; };

__device__ unsigned sa(const void *p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__device__ void copy_box(void *dst, const CUtensorMap *map, int y) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
               " [%0], [%1, {%2, %3}], [%4];\n" ::"r"(sa(dst)), "l"(map), "r"(0), "r"(y), "r"(0u)
               : "memory");
}
// REC-DAG: tma_contract.cu:[[#@LINE-3]]:{{[0-9]+}}: swizzled store shared 'tile' `sa(dst)` ?/? unknown
// REC-DAG: tma_contract.cu:[[#@LINE-4]]:{{[0-9]+}}: rowmajor store shared 'tile' `sa(dst)` ?/? unknown

// Read where the copy put each chunk: chunk ^ (row % 8). No finding.
__global__ void swizzled(const __grid_constant__ CUtensorMap map, float *out) {
  __shared__ __align__(1024) unsigned short tile[64][64];
  int t = threadIdx.x;
  if (t == 0)
    copy_box(tile, &map, blockIdx.x * 64);
  __syncthreads();
  int row = t % 64, chunk = t / 64;
  u4 v = *reinterpret_cast<const u4 *>(&tile[row][(chunk ^ (row % 8)) * 8]);
  out[blockIdx.x * 128 + t] = v.x;
}

// Read as if not swizzled.
__global__ void rowmajor(const __grid_constant__ CUtensorMap map, float *out) {
  __shared__ __align__(1024) unsigned short tile[64][64];
  int t = threadIdx.x;
  if (t == 0)
    copy_box(tile, &map, blockIdx.x * 64);
  __syncthreads();
  int row = t % 64, chunk = t / 64;
  u4 v = *reinterpret_cast<const u4 *>(&tile[row][chunk * 8]);
  // CHECK: tma_contract.cu:[[#@LINE-1]]:{{[0-9]+}}: warning: shared load of a TMA box breaks its contract (reader-ignores-swizzle): the TMA copy at tma_contract.cu:[[#@LINE-4]] wrote 'tile' with CU_TENSOR_MAP_SWIZZLE_128B (the map encoded at tma_contract.cu:{{[0-9]+}}), but this load's address applies no swizzle (no XOR on its way): lane 1 reads byte 128 of the box, where the copy put the box's byte 144 (28 of the warp's lanes read moved bytes); to read byte b of the box, read b ^ (((b >> 7) & 7) << 4), CuTe's Swizzle<3,4,3> on byte offsets [coalesce-tma-contract]
  // Rows 0, 8, 16, ...: bytes the swizzle leaves in place. No finding.
  u4 w = *reinterpret_cast<const u4 *>(&tile[(t % 8) * 8][chunk * 8]);
  // An index loaded from memory: whether it swizzles is not known. No finding.
  u4 x = *reinterpret_cast<const u4 *>(&tile[row][(int)out[t] * 8]);
  out[blockIdx.x * 128 + t] = v.x + w.y + x.z;
}

// The reader's address through a helper: followed to the caller's argument.
__device__ u4 read_chunk(const unsigned short *tile, int row, int col) {
  return *reinterpret_cast<const u4 *>(&tile[row * 64 + col]);
  // CHECK: tma_contract.cu:[[#@LINE-1]]:{{[0-9]+}}: warning: shared load of a TMA box breaks its contract (reader-ignores-swizzle): the TMA copy at tma_contract.cu:[[#@LINE+7]] wrote 'tile'
  // CHECK: note: in 'read_chunk' called at tma_contract.cu:[[#@LINE+10]]
}
__global__ void through_helper(const __grid_constant__ CUtensorMap map, float *out) {
  __shared__ __align__(1024) unsigned short tile[64 * 64];
  int t = threadIdx.x;
  if (t == 0)
    copy_box(tile, &map, 0);
  __syncthreads();
  int row = t % 64, chunk = t / 64;
  u4 v = read_chunk(tile, row, (chunk ^ (row % 8)) * 8);
  u4 w = read_chunk(tile, row, chunk * 8);
  out[t] = v.x + w.x;
}

// Without a swizzle, any reader reads what it means. No finding.
__global__ void plain(const __grid_constant__ CUtensorMap map, float *out) {
  __shared__ __align__(1024) unsigned short tile[64][64];
  int t = threadIdx.x;
  if (t == 0)
    copy_box(tile, &map, 0);
  __syncthreads();
  u4 v = *reinterpret_cast<const u4 *>(&tile[t % 64][(t / 64) * 8]);
  out[t] = v.x;
}

// The box's bytes stored over (an epilogue staging its results in the same
// tile): what is read after is not the copy's. No finding.
__global__ void reused(const __grid_constant__ CUtensorMap map, float *out) {
  __shared__ __align__(1024) unsigned short tile[64][64];
  int t = threadIdx.x;
  if (t == 0)
    copy_box(tile, &map, 0);
  __syncthreads();
  u4 v = *reinterpret_cast<const u4 *>(&tile[t % 64][((t / 64) ^ (t % 8)) * 8]);
  __syncthreads();
  for (int k = t; k < 64 * 64; k += 128)
    tile[k / 64][k % 64] = k;
  __syncthreads();
  u4 w = *reinterpret_cast<const u4 *>(&tile[t % 64][(t / 64) * 8]);
  out[t] = v.x + w.x;
}

// A 64B-swizzled box (rows of 64 bytes): read with its own XOR, with the
// byte-offset form of it (CuTe's Swizzle<2,4,3>), with the 128B mode's XOR
// (24 lanes of each warp read other elements: measured, tma_copies.cu), and
// with a mask split over two XORs (not checked).
__global__ void xor_readers(const __grid_constant__ CUtensorMap map, float *out) {
  __shared__ __align__(1024) unsigned short tile[64][32];
  int t = threadIdx.x;
  if (t == 0)
    copy_box(tile, &map, 0);
  __syncthreads();
  int row = t % 64, chunk = t / 64;
  u4 v = *reinterpret_cast<const u4 *>(&tile[row][(chunk ^ ((row / 2) % 4)) * 8]);
  int byte = row * 64 + chunk * 16;
  int moved = byte ^ ((byte >> 3) & 0x30);
  u4 w = *reinterpret_cast<const u4 *>(reinterpret_cast<const char *>(tile) + moved);
  u4 x = *reinterpret_cast<const u4 *>(&tile[row][(chunk ^ (row % 4)) * 8]);
  // CHECK: tma_contract.cu:[[#@LINE-1]]:{{[0-9]+}}: warning: shared load of a TMA box breaks its contract (reader-wrong-swizzle): the TMA copy at tma_contract.cu:[[#@LINE-8]] wrote 'tile' with CU_TENSOR_MAP_SWIZZLE_64B (the map encoded at tma_contract.cu:{{[0-9]+}}), which XORs the 16-byte chunk of box byte b with (b >> 7) & 3, but this load's XOR (`chunk ^ (row % 4)`) XORs it with `(row % 4)`: lane 1 reads byte 80 of the box, where the copy's mask is 0 and the load's 1 (24 of the warp's lanes read other elements than they mean); to read byte b of the box, read b ^ (((b >> 7) & 3) << 4) [coalesce-tma-contract]
  u4 y = *reinterpret_cast<const u4 *>(&tile[row][(chunk ^ (row & 2) ^ (row & 1)) * 8]);
  out[t] = v.x + w.x + x.x + y.x;
}

// Box rows of 64 bytes under the 128B swizzle: laid out otherwise than rows
// of the span (measured), not modelled. No finding.
__global__ void narrow_rows(const __grid_constant__ CUtensorMap map, float *out) {
  __shared__ __align__(1024) unsigned short tile[64][32];
  int t = threadIdx.x;
  if (t == 0)
    copy_box(tile, &map, 0);
  __syncthreads();
  u4 v = *reinterpret_cast<const u4 *>(&tile[t % 64][(t / 64) * 8]);
  out[t] = v.x;
}

// A 128B-swizzled destination aligned to 128 bytes only: where its chunks
// land depends on where the array is placed.
__global__ void unaligned(const __grid_constant__ CUtensorMap map, float *out) {
  __shared__ __align__(128) unsigned short tile[64][64];
  if (threadIdx.x == 0)
    copy_box(tile, &map, 0);
  // CHECK: tma_contract.cu:[[#@LINE-1]]:{{[0-9]+}}: warning: TMA copy breaks its contract (swizzle-alignment): CU_TENSOR_MAP_SWIZZLE_128B repeats every 1024 bytes and follows the shared address's bits; the destination ('tile') is known to be only 128-byte aligned, so where the box's chunks land depends on where 'tile' is placed: declare it __align__(1024) [coalesce-tma-contract]
  __syncthreads();
  out[threadIdx.x] = tile[0][threadIdx.x];
}

// A destination the copy cannot take: 16-byte aligned.
__global__ void misplaced(const __grid_constant__ CUtensorMap map, float *out) {
  __shared__ __align__(16) unsigned short tile[64][64];
  if (threadIdx.x == 0)
    copy_box(tile, &map, 0);
  // CHECK: tma_contract.cu:[[#@LINE-1]]:{{[0-9]+}}: warning: TMA copy breaks its contract (destination-alignment): the copy's shared destination ('tile') is known to be only 16-byte aligned: cp.async.bulk.tensor needs 128 (declare 'tile' __align__(128) or more) [coalesce-tma-contract]
  __syncthreads();
  out[threadIdx.x] = tile[0][threadIdx.x];
}

// Maps the driver rejects: a box row wider than the swizzle, a stride that
// is not a multiple of 16.
__global__ void wide_box(const __grid_constant__ CUtensorMap map, float *out) {
  __shared__ __align__(1024) unsigned short tile[16][128];
  if (threadIdx.x == 0)
    copy_box(tile, &map, 0);
  // CHECK: tma_contract.cu:[[#@LINE-1]]:{{[0-9]+}}: warning: TMA copy breaks its contract (box-inner-exceeds-swizzle): the box's inner dimension is 256 bytes, more than the 128 bytes CU_TENSOR_MAP_SWIZZLE_128B permutes: cuTensorMapEncodeTiled fails (CUDA_ERROR_INVALID_VALUE); use a box of at most 64 elements inner, or a wider swizzle (the map encoded at tma_contract.cu:{{[0-9]+}}) [coalesce-tma-contract]
  __syncthreads();
  out[threadIdx.x] = tile[0][threadIdx.x];
}
__global__ void odd_stride(const __grid_constant__ CUtensorMap map, float *out) {
  __shared__ __align__(1024) unsigned short tile[64][64];
  if (threadIdx.x == 0)
    copy_box(tile, &map, 0);
  // CHECK: tma_contract.cu:[[#@LINE-1]]:{{[0-9]+}}: warning: TMA copy breaks its contract (global-stride): globalStrides[0] is 136 bytes: it must be a multiple of 16 below 2^40 (the map encoded at tma_contract.cu:{{[0-9]+}}) [coalesce-tma-contract]
  __syncthreads();
  out[threadIdx.x] = tile[0][threadIdx.x];
}

static CUtensorMap encode(PFN_encode fn, unsigned short *m, cuuint64_t cols, cuuint32_t box_cols,
                          cuuint32_t box_rows, CUtensorMapSwizzle swizzle) {
  CUtensorMap map;
  const cuuint64_t dims[2] = {cols, 256};
  const cuuint64_t strides[1] = {cols * 2};
  const cuuint32_t box[2] = {box_cols, box_rows};
  const cuuint32_t es[2] = {1, 1};
  fn(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, m, dims, strides, box, es,
     CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_NONE,
     CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return map;
}

int main() {
  unsigned short *m;
  float *out;
  cudaMalloc(&m, 256 * 128 * 2);
  cudaMalloc(&out, 4096);
  // By name, and through a pointer of its type (cudaGetDriverEntryPoint).
  // (A function the walk cannot enter may change a variable whose address
  // escaped: the entry point is asked for first.)
  PFN_encode fn = driver_entry();
  CUtensorMap sw;
  const cuuint64_t dims[2] = {64, 256};
  const cuuint64_t strides[1] = {128};
  const cuuint32_t box[2] = {64, 64};
  const cuuint32_t es[2] = {1, 1};
  cuTensorMapEncodeTiled(&sw, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, m, dims, strides, box, es,
                         CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  const CUtensorMap none = encode(fn, m, 64, 64, 64, CU_TENSOR_MAP_SWIZZLE_NONE);
  const CUtensorMap wide = encode(fn, m, 128, 128, 16, CU_TENSOR_MAP_SWIZZLE_128B);
  const CUtensorMap odd = encode(fn, m, 68, 64, 64, CU_TENSOR_MAP_SWIZZLE_128B);
  const CUtensorMap narrow = encode(fn, m, 64, 32, 64, CU_TENSOR_MAP_SWIZZLE_128B);
  const CUtensorMap sw64 = encode(fn, m, 64, 32, 64, CU_TENSOR_MAP_SWIZZLE_64B);
  swizzled<<<4, 128>>>(sw, out);
  rowmajor<<<4, 128>>>(sw, out);
  through_helper<<<1, 128>>>(sw, out);
  plain<<<1, 128>>>(none, out);
  unaligned<<<1, 128>>>(sw, out);
  misplaced<<<1, 128>>>(none, out);
  wide_box<<<1, 128>>>(wide, out);
  odd_stride<<<1, 128>>>(odd, out);
  narrow_rows<<<1, 128>>>(narrow, out);
  reused<<<1, 128>>>(sw, out);
  xor_readers<<<1, 128>>>(sw64, out);
  return 0;
}
