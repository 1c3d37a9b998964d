// A half-precision GEMM (C = A * B, fp32 accumulation) written the way
// tensor-core kernels are: tiles staged in shared memory with cp.async
// (16 bytes per thread), fragments read with ldmatrix (.trans for B), and
// mma.sync. The tiles are XOR-swizzled by 16-byte chunk so that both the
// asynchronous copies and the matrix loads are free of bank conflicts;
// gemm_padded pads the rows instead, which the copies do not survive.
#include <cuda_fp16.h>
#include "harness.cuh"

constexpr int BM = 64, BN = 64, BK = 32, BKW = 64;

__device__ __forceinline__ unsigned smem(const void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mma16816(float (&d)[4], const unsigned (&a)[4], unsigned b0,
                                         unsigned b1) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// A tile: 64 rows of 32 halves (64 bytes); chunk c of row r lives at chunk
// c ^ ((r / 2) % 4). B tile: 32 rows of 64 halves (128 bytes); chunk c of
// row k lives at chunk c ^ (k % 8). The shared side of every copy is
// conflict-free, but a quarter-warp's A copy reads two rows of A that are
// 2048 bytes apart: the same 16 of the L1's banks twice.
__global__ void gemm_swizzled(const __half *A, const __half *B, float *C, int n) {
  __shared__ __align__(128) __half As[BM][BK];
  __shared__ __align__(128) __half Bs[BK][BN];
  int t = threadIdx.x, lane = t % 32, warp = t / 32;
  int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  int wm = (warp / 2) * 32, wn = (warp % 2) * 32;
  float acc[2][4][4] = {};
  for (int k0 = 0; k0 < n; k0 += BK) {
    for (int c = t; c < BM * BK / 8; c += blockDim.x) {
      int r = c / 4, ch = c % 4;
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem(&As[r][(ch ^ ((r / 2) % 4)) * 8])),
                   "l"(&A[(row0 + r) * n + k0 + ch * 8])); // expect: load A 16/16; store As 8/4
    }
    for (int c = t; c < BK * BN / 8; c += blockDim.x) {
      int k = c / 8, ch = c % 8;
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem(&Bs[k][(ch ^ (k % 8)) * 8])),
                   "l"(&B[(k0 + k) * n + col0 + ch * 8])); // expect: load B 16/16; store Bs 4/4
    }
    asm volatile("cp.async.commit_group;\n" ::);
    asm volatile("cp.async.wait_group 0;\n" ::);
    __syncthreads();
    for (int kk = 0; kk < BK; kk += 16) {
      unsigned a[2][4], b[4][2];
      for (int i = 0; i < 2; ++i) {
        int r = wm + i * 16 + lane % 16, ch = kk / 8 + lane / 16;
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(a[i][0]), "=r"(a[i][1]), "=r"(a[i][2]), "=r"(a[i][3])
                     : "r"(smem(&As[r][(ch ^ ((r / 2) % 4)) * 8]))); // expect: load As 4/4
      }
      for (int j = 0; j < 4; j += 2) {
        int k = kk + lane % 16, ch = (wn + j * 8) / 8 + lane / 16;
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(b[j][0]), "=r"(b[j][1]), "=r"(b[j + 1][0]), "=r"(b[j + 1][1])
                     : "r"(smem(&Bs[k][(ch ^ (k % 8)) * 8]))); // expect: load Bs 4/4
      }
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 4; ++j)
          mma16816(acc[i][j], a[i], b[j][0], b[j][1]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j) {
      int r = row0 + wm + i * 16 + lane / 4, c = col0 + wn + j * 8 + (lane % 4) * 2;
      *reinterpret_cast<float2 *>(&C[r * n + c]) = make_float2(acc[i][j][0], acc[i][j][1]); // expect: store C 8/8
      *reinterpret_cast<float2 *>(&C[(r + 8) * n + c]) = make_float2(acc[i][j][2], acc[i][j][3]); // expect: store C 8/8
    }
}

// K tiles of 64: every tile row is 128 bytes, one quarter-warp's copy; chunk
// c of row r lives at chunk c ^ (r % 8) in both tiles.
__global__ void gemm_swizzled_wide(const __half *A, const __half *B, float *C, int n) {
  __shared__ __align__(128) __half As[BM][BKW];
  __shared__ __align__(128) __half Bs[BKW][BN];
  int t = threadIdx.x, lane = t % 32, warp = t / 32;
  int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  int wm = (warp / 2) * 32, wn = (warp % 2) * 32;
  float acc[2][4][4] = {};
  for (int k0 = 0; k0 < n; k0 += BKW) {
    for (int c = t; c < BM * BKW / 8; c += blockDim.x) {
      int r = c / 8, ch = c % 8;
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem(&As[r][(ch ^ (r % 8)) * 8])),
                   "l"(&A[(row0 + r) * n + k0 + ch * 8])); // expect: load A 16/16; store As 4/4
    }
    for (int c = t; c < BKW * BN / 8; c += blockDim.x) {
      int k = c / 8, ch = c % 8;
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem(&Bs[k][(ch ^ (k % 8)) * 8])),
                   "l"(&B[(k0 + k) * n + col0 + ch * 8])); // expect: load B 16/16; store Bs 4/4
    }
    asm volatile("cp.async.commit_group;\n" ::);
    asm volatile("cp.async.wait_group 0;\n" ::);
    __syncthreads();
    for (int kk = 0; kk < BKW; kk += 16) {
      unsigned a[2][4], b[4][2];
      for (int i = 0; i < 2; ++i) {
        int r = wm + i * 16 + lane % 16, ch = kk / 8 + lane / 16;
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(a[i][0]), "=r"(a[i][1]), "=r"(a[i][2]), "=r"(a[i][3])
                     : "r"(smem(&As[r][(ch ^ (r % 8)) * 8]))); // expect: load As 4/4
      }
      for (int j = 0; j < 4; j += 2) {
        int k = kk + lane % 16, ch = (wn + j * 8) / 8 + lane / 16;
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(b[j][0]), "=r"(b[j][1]), "=r"(b[j + 1][0]), "=r"(b[j + 1][1])
                     : "r"(smem(&Bs[k][(ch ^ (k % 8)) * 8]))); // expect: load Bs 4/4
      }
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 4; ++j)
          mma16816(acc[i][j], a[i], b[j][0], b[j][1]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j) {
      int r = row0 + wm + i * 16 + lane / 4, c = col0 + wn + j * 8 + (lane % 4) * 2;
      *reinterpret_cast<float2 *>(&C[r * n + c]) = make_float2(acc[i][j][0], acc[i][j][1]); // expect: store C 8/8
      *reinterpret_cast<float2 *>(&C[(r + 8) * n + c]) = make_float2(acc[i][j][2], acc[i][j][3]); // expect: store C 8/8
    }
}

// The same with padded rows (A: 40 halves, 80 bytes; B: 72 halves, 144
// bytes): the matrix loads are conflict-free, but every other row starts 16
// bytes into a 32-byte slot: its sectors are moved as two halves each.
__global__ void gemm_padded(const __half *A, const __half *B, float *C, int n) {
  __shared__ __align__(128) __half As[BM][BK + 8];
  __shared__ __align__(128) __half Bs[BK][BN + 8];
  int t = threadIdx.x, lane = t % 32, warp = t / 32;
  int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  int wm = (warp / 2) * 32, wn = (warp % 2) * 32;
  float acc[2][4][4] = {};
  for (int k0 = 0; k0 < n; k0 += BK) {
    for (int c = t; c < BM * BK / 8; c += blockDim.x) {
      int r = c / 4, ch = c % 4;
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem(&As[r][ch * 8])),
                   "l"(&A[(row0 + r) * n + k0 + ch * 8])); // expect: load A 24/16; store As 15/4
    }
    for (int c = t; c < BK * BN / 8; c += blockDim.x) {
      int k = c / 8, ch = c % 8;
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem(&Bs[k][ch * 8])),
                   "l"(&B[(k0 + k) * n + col0 + ch * 8])); // expect: load B 24/16; store Bs 10.5/4
    }
    asm volatile("cp.async.commit_group;\n" ::);
    asm volatile("cp.async.wait_group 0;\n" ::);
    __syncthreads();
    for (int kk = 0; kk < BK; kk += 16) {
      unsigned a[2][4], b[4][2];
      for (int i = 0; i < 2; ++i) {
        int r = wm + i * 16 + lane % 16, ch = kk / 8 + lane / 16;
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(a[i][0]), "=r"(a[i][1]), "=r"(a[i][2]), "=r"(a[i][3])
                     : "r"(smem(&As[r][ch * 8]))); // expect: load As 4/4
      }
      for (int j = 0; j < 4; j += 2) {
        int k = kk + lane % 16, ch = (wn + j * 8) / 8 + lane / 16;
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(b[j][0]), "=r"(b[j][1]), "=r"(b[j + 1][0]), "=r"(b[j + 1][1])
                     : "r"(smem(&Bs[k][ch * 8]))); // expect: load Bs 4/4
      }
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 4; ++j)
          mma16816(acc[i][j], a[i], b[j][0], b[j][1]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j) {
      int r = row0 + wm + i * 16 + lane / 4, c = col0 + wn + j * 8 + (lane % 4) * 2;
      *reinterpret_cast<float2 *>(&C[r * n + c]) = make_float2(acc[i][j][0], acc[i][j][1]); // expect: store C 8/8
      *reinterpret_cast<float2 *>(&C[(r + 8) * n + c]) = make_float2(acc[i][j][2], acc[i][j][3]); // expect: store C 8/8
    }
}

int main() {
  const int n = 1024;
  __half *A = sample::alloc<__half>(n * n), *B = sample::alloc<__half>(n * n);
  float *C = sample::alloc<float>(n * n);
  const double bytes = 2.0 * n * n * 2 * (n / 64) + 4.0 * n * n;
  sample::run("gemm_swizzled", bytes,
              [&] { gemm_swizzled<<<dim3(n / BN, n / BM), 128>>>(A, B, C, n); });
  sample::run("gemm_swizzled_wide", bytes,
              [&] { gemm_swizzled_wide<<<dim3(n / BN, n / BM), 128>>>(A, B, C, n); });
  sample::run("gemm_padded", bytes, [&] { gemm_padded<<<dim3(n / BN, n / BM), 128>>>(A, B, C, n); });
  return 0;
}
