// Whole-struct copies to and from shared memory. A struct is copied in
// pieces as wide as the compiler can prove the address aligned, up to 16
// bytes (LDG/STG/LDS/STS.128). Through a kernel's pointer parameter only the
// struct's own alignment is known; shared memory is laid out by the
// compiler, which gives it the 16-byte alignment that lets a copy use
// 128-bit instructions wherever the element's offset is a multiple of 16 (Rodinia lavaMD's 32-byte copies into shared
// memory are STS.128). Measured on an H200: extern __shared__ arrays are
// 16-byte aligned as well; a __device__ array is not (LDG.64).
#include "harness.cuh"

struct D4 { // 32 bytes, 8-byte aligned
  double v, x, y, z;
};
struct F4 { // 16 bytes, 4-byte aligned
  float a, b, c, d;
};
struct F3 { // 12 bytes, 4-byte aligned
  float x, y, z;
};
struct F2 { // 8 bytes, 4-byte aligned
  float x, y;
};

__global__ void copy_d4(const D4 *in, D4 *out) {
  __shared__ D4 sh[32];
  int t = threadIdx.x;
  sh[t] = in[blockIdx.x * 32 + t]; // expect: load in 32/8; store sh 8/4
  __syncthreads();
  out[blockIdx.x * 32 + t] = sh[31 - t]; // expect: load sh 8/4; store out 32/8
}

__global__ void copy_f4(const F4 *in, F4 *out) {
  __shared__ F4 sh[32];
  int t = threadIdx.x;
  sh[t] = in[blockIdx.x * 32 + t]; // expect: load in 16/4; store sh 4/4
  __syncthreads();
  out[blockIdx.x * 32 + t] = sh[31 - t]; // expect: load sh 4/4; store out 16/4
}

__global__ void copy_f3(const F3 *in, F3 *out) {
  __shared__ F3 sh[32];
  int t = threadIdx.x;
  sh[t] = in[blockIdx.x * 32 + t]; // expect: load in 12/4; store sh 1/1
  __syncthreads();
  out[blockIdx.x * 32 + t] = sh[31 - t]; // expect: load sh 1/1; store out 12/4
}

// Odd elements: offsets 16 t + 8, 8-byte aligned only.
__global__ void copy_f2_odd(const F2 *in, F2 *out) {
  __shared__ F2 sh[64];
  int t = threadIdx.x;
  sh[2 * t + 1] = in[blockIdx.x * 32 + t]; // expect: load in 8/4; store sh 4/2
  __syncthreads();
  out[blockIdx.x * 32 + t] = sh[2 * (31 - t) + 1]; // expect: load sh 4/2; store out 8/4
}

// Dynamic shared memory starts 16-byte aligned too, whatever its declared
// alignment (8 here).
__global__ void copy_d4_extern(const D4 *in, D4 *out) {
  extern __shared__ D4 dsh[];
  int t = threadIdx.x;
  dsh[t] = in[blockIdx.x * 32 + t]; // expect: load in 32/8; store dsh 8/4
  __syncthreads();
  out[blockIdx.x * 32 + t] = dsh[31 - t]; // expect: load dsh 8/4; store out 32/8
}

__device__ D4 table[64 * 32];

// A __device__ array defined in the file keeps its type's alignment: four
// LDG.64, as through a pointer.
__global__ void copy_d4_device(D4 *out) {
  int t = threadIdx.x;
  out[blockIdx.x * 32 + t] = table[blockIdx.x * 32 + t]; // expect: load table 32/8; store out 32/8
}

int main() {
  const int blocks = 64, n = blocks * 32;
  D4 *ind = sample::alloc<D4>(n), *outd = sample::alloc<D4>(n);
  F4 *inf = sample::alloc<F4>(n), *outf = sample::alloc<F4>(n);
  F3 *in3 = sample::alloc<F3>(n), *out3 = sample::alloc<F3>(n);
  F2 *in2 = sample::alloc<F2>(n), *out2 = sample::alloc<F2>(n);
  sample::run("copy_d4", 2.0 * n * sizeof(D4), [&] { copy_d4<<<blocks, 32>>>(ind, outd); });
  sample::run("copy_f4", 2.0 * n * sizeof(F4), [&] { copy_f4<<<blocks, 32>>>(inf, outf); });
  sample::run("copy_f3", 2.0 * n * sizeof(F3), [&] { copy_f3<<<blocks, 32>>>(in3, out3); });
  sample::run("copy_f2_odd", 2.0 * n * sizeof(F2),
              [&] { copy_f2_odd<<<blocks, 32>>>(in2, out2); });
  sample::run("copy_d4_extern", 2.0 * n * sizeof(D4),
              [&] { copy_d4_extern<<<blocks, 32, 32 * sizeof(D4)>>>(ind, outd); });
  sample::run("copy_d4_device", 2.0 * n * sizeof(D4),
              [&] { copy_d4_device<<<blocks, 32>>>(outd); });
  cudaFree(ind);
  cudaFree(outd);
  cudaFree(inf);
  cudaFree(outf);
  cudaFree(in3);
  cudaFree(out3);
  cudaFree(in2);
  cudaFree(out2);
  return 0;
}
