// Matrix loads and stores of shared memory: ldmatrix (LDSM) and stmatrix
// (STSM, sm_90). Lanes 0-7, 8-15, 16-23, 24-31 give the row addresses of
// matrices 0-3 (16 bytes each); each matrix is one 8-address phase.
#include <cuda_fp16.h>
#include "harness.cuh"

__device__ __forceinline__ unsigned shared_address(const void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ unsigned ldsm_x4(const void *p) {
  unsigned r0, r1, r2, r3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
               : "r"(shared_address(p)));
               // expect(ldmatrix_small): load small 8/4
               // expect(ldmatrix_tiles): load padded 4/4; load padded 4/4; load plain 32/4; load plain 4/4; load swizzled 4/4
  return r0 ^ r1 ^ r2 ^ r3;
}

__device__ __forceinline__ unsigned ldsm_x4_trans(const void *p) {
  unsigned r0, r1, r2, r3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
               : "r"(shared_address(p))); // expect: load padded 4/4
  return r0 ^ r1 ^ r2 ^ r3;
}

__device__ __forceinline__ unsigned ldsm_x2(const void *p) {
  unsigned r0, r1;
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n"
               : "=r"(r0), "=r"(r1)
               : "r"(shared_address(p))); // expect: load padded 2/2; load plain 16/2
  return r0 ^ r1;
}

__device__ __forceinline__ unsigned ldsm_x1(const void *p) {
  unsigned r0;
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];\n"
               : "=r"(r0)
               : "r"(shared_address(p))); // expect: load padded 1/1; load plain 8/1
  return r0;
}

__device__ __forceinline__ void stsm_x4(void *p, unsigned v) {
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n"
               ::"r"(shared_address(p)), "r"(v), "r"(v + 1), "r"(v + 2), "r"(v + 3)); // expect: store padded 4/4; store plain 32/4
}

__device__ __forceinline__ void stsm_x2(void *p, unsigned v) {
  asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};\n"
               ::"r"(shared_address(p)), "r"(v), "r"(v + 1)); // expect: store plain 16/2
}

// A 64x64 tile of halves: rows of 128 bytes, so the 8 rows of a matrix fall in
// one 16-byte bank group; padded to 72 halves (144 bytes) they fall in 8; the
// swizzled tile XORs the 16-byte chunk with the row.
__global__ void ldmatrix_tiles(unsigned *out) {
  __shared__ __align__(128) __half plain[64][64];
  __shared__ __align__(128) __half padded[64][72];
  __shared__ __align__(128) __half swizzled[64][64];
  int t = threadIdx.x, lane = t % 32, warp = t / 32;
  for (int k = t; k < 64 * 64; k += blockDim.x) {
    plain[k / 64][k % 64] = __float2half(k); // expect: store plain 1/1
    padded[k / 64][k % 64] = __float2half(k); // expect: store padded 1/1
    swizzled[k / 64][k % 64] = __float2half(k); // expect: store swizzled 1/1
  }
  __syncthreads();
  int row = warp * 16 + lane % 16, chunk = lane / 16;
  unsigned v = ldsm_x4(&plain[row][chunk * 8]);
  v ^= ldsm_x4(&padded[row][chunk * 8]);
  v ^= ldsm_x4(&swizzled[row][(chunk ^ (row % 8)) * 8]);
  v ^= ldsm_x4_trans(&padded[row][chunk * 8]);
  v ^= ldsm_x2(&plain[row][0]);
  v ^= ldsm_x2(&padded[row][0]);
  v ^= ldsm_x1(&plain[row][0]);
  v ^= ldsm_x1(&padded[row][0]);
  v ^= ldsm_x4(&plain[0][0]);
  v ^= ldsm_x4(&padded[lane % 8][0]);
  out[blockIdx.x * blockDim.x + t] = v; // expect: store out 4/4
}

// 16x16 halves: rows of 32 bytes, two rows of a matrix per bank group.
__global__ void ldmatrix_small(unsigned *out) {
  __shared__ __align__(128) __half small[4][16][16];
  int t = threadIdx.x, lane = t % 32, warp = t / 32;
  for (int k = t; k < 4 * 16 * 16; k += blockDim.x)
    small[k / 256][(k / 16) % 16][k % 16] = __float2half(k); // expect: store small 1/1
  __syncthreads();
  unsigned v = ldsm_x4(&small[warp][lane % 16][(lane / 16) * 8]);
  out[blockIdx.x * blockDim.x + t] = v; // expect: store out 4/4
}

__global__ void stmatrix_tiles(unsigned *out) {
  __shared__ __align__(128) __half plain[64][64];
  __shared__ __align__(128) __half padded[64][72];
  int t = threadIdx.x, lane = t % 32, warp = t / 32;
  int row = warp * 16 + lane % 16, chunk = lane / 16;
  stsm_x4(&plain[row][chunk * 8], t);
  stsm_x4(&padded[row][chunk * 8], t);
  __syncthreads();
  stsm_x2(&plain[warp * 16 + lane % 16][0], t);
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = // expect: store out 4/4
      __half_as_ushort(plain[t / 2][(t % 2) * 32]) + __half_as_ushort(padded[t / 2][(t % 2) * 32]); // expect: load padded 4/1; load plain 16/1
}

int main() {
  const int blocks = 256;
  unsigned *out = sample::alloc<unsigned>(blocks * 128);
  sample::run("ldmatrix_tiles", blocks * 128 * 4.0, [&] { ldmatrix_tiles<<<blocks, 128>>>(out); });
  sample::run("ldmatrix_small", blocks * 128 * 4.0, [&] { ldmatrix_small<<<blocks, 128>>>(out); });
  sample::run("stmatrix_tiles", blocks * 128 * 4.0, [&] { stmatrix_tiles<<<blocks, 128>>>(out); });
  return 0;
}
