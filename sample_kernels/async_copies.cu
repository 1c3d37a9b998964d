// Asynchronous copies from global to shared memory: cp.async, LDGSTS in SASS.
// One instruction per thread that is a global read (sectors per request) and a
// shared write (wavefronts per request), in the spellings people use.
#include <cuda_pipeline.h>
#include "harness.cuh"

__device__ __forceinline__ unsigned shared_address(const void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__global__ void pipeline_copy4(const float *in, float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  __pipeline_memcpy_async(&s[t], &in[i], sizeof(float)); // expect: load in 4/4; store s 1/1
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[i] = s[255 - t]; // expect: load s 1/1; store out 4/4
}

__global__ void pipeline_copy4_strided(const float *in, float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  __pipeline_memcpy_async(&s[t], &in[i * 8], sizeof(float)); // expect: load in 32/4; store s 8/1
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[i] = s[255 - t]; // expect: load s 1/1; store out 4/4
}

__global__ void pipeline_copy4_conflicted(const float *in, float *out) {
  __shared__ float s[1024];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  __pipeline_memcpy_async(&s[(t % 32) * 32 + t / 32], &in[i], sizeof(float)); // expect: load in 4/4; store s 32/1
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[i] = s[t * 4]; // expect: load s 4/1; store out 4/4
}

__global__ void pipeline_copy8(const float2 *in, float2 *out) {
  __shared__ float2 s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  __pipeline_memcpy_async(&s[t], &in[i], sizeof(float2)); // expect: load in 8/8; store s 2/2
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[i] = s[255 - t]; // expect: load s 2/2; store out 8/8
}

__global__ void pipeline_copy16(const float4 *in, float4 *out) {
  __shared__ __align__(128) float4 s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  __pipeline_memcpy_async(&s[t], &in[i], sizeof(float4)); // expect: load in 16/16; store s 4/4
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[i] = s[t ^ 3]; // expect: load s 4/4; store out 16/16
}

// 16-byte copies to a destination with a 2-way conflict in each quarter-warp:
// LDGSTS.BYPASS.128 then serves each lane alone, and reads its sector alone.
__global__ void pipeline_copy16_conflicted(const float4 *in, float4 *out) {
  __shared__ float4 s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  __pipeline_memcpy_async(&s[2 * t], &in[i ^ 1], sizeof(float4)); // expect: load in 32/16; store s 32/4
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[i] = s[2 * (t ^ 3)]; // expect: load s 8/4; store out 16/16
}

__global__ void ptx_copies(const float *in, const float4 *in4, float *out) {
  __shared__ float s[256];
  __shared__ float4 s4[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(shared_address(&s[t])), "l"(&in[i * 2])); // expect: load in 8/4; store s 2/1
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(shared_address(&s4[(t * 8) % 256 + t / 32])),
               "l"(&in4[i])); // expect: load in4 32/16; store s4 32/4
  asm volatile("cp.async.commit_group;\n" ::);
  asm volatile("cp.async.wait_group 0;\n" ::);
  __syncthreads();
  out[i] = s[255 - t] + s4[t].y; // expect: load s 1/1; load s4 4/1; store out 4/4
}

// A tile copied with its chunks scattered: rows of global memory become columns
// of the tile (tx walks a global row; the tile stores it down a column). The
// copy costs what its global read and its shared write would cost apart.
__global__ void scattered_tile(const float *in, float *out, int width) {
  __shared__ float plain[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  int gx = blockIdx.x * 32 + tx, gy = blockIdx.y * 32 + ty;
  for (int k = 0; k < 32; k += 8)
    __pipeline_memcpy_async(&plain[tx][ty + k], &in[(gy + k) * width + gx], sizeof(float)); // expect: load in 4/4; store plain 32/1
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  for (int k = 0; k < 32; k += 8)
    out[(gy + k) * width + gx] = plain[ty + k][tx]; // expect: load plain 1/1; store out 4/4
}

__global__ void scattered_tile_padded(const float *in, float *out, int width) {
  __shared__ float padded[32][33];
  int tx = threadIdx.x, ty = threadIdx.y;
  int gx = blockIdx.x * 32 + tx, gy = blockIdx.y * 32 + ty;
  for (int k = 0; k < 32; k += 8)
    __pipeline_memcpy_async(&padded[tx][ty + k], &in[(gy + k) * width + gx], sizeof(float)); // expect: load in 4/4; store padded 1/1
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  for (int k = 0; k < 32; k += 8)
    out[(gy + k) * width + gx] = padded[ty + k][tx]; // expect: load padded 1/1; store out 4/4
}

int main() {
  const int blocks = 512, n = blocks * 256;
  float *in = sample::alloc<float>(n * 8), *out = sample::alloc<float>(n);
  float2 *in2 = sample::alloc<float2>(n), *out2 = sample::alloc<float2>(n);
  float4 *in4 = sample::alloc<float4>(n), *out4 = sample::alloc<float4>(n);
  sample::run("pipeline_copy4", n * 8.0, [&] { pipeline_copy4<<<blocks, 256>>>(in, out); });
  sample::run("pipeline_copy4_strided", n * 8.0, [&] { pipeline_copy4_strided<<<blocks, 256>>>(in, out); });
  sample::run("pipeline_copy4_conflicted", n * 8.0, [&] { pipeline_copy4_conflicted<<<blocks, 256>>>(in, out); });
  sample::run("pipeline_copy8", n * 16.0, [&] { pipeline_copy8<<<blocks, 256>>>(in2, out2); });
  sample::run("pipeline_copy16", n * 32.0, [&] { pipeline_copy16<<<blocks, 256>>>(in4, out4); });
  sample::run("pipeline_copy16_conflicted", n * 32.0,
              [&] { pipeline_copy16_conflicted<<<blocks, 256>>>(in4, out4); });
  sample::run("ptx_copies", n * 24.0, [&] { ptx_copies<<<blocks, 256>>>(in, in4, out); });
  const int width = 1024;
  sample::run("scattered_tile", width * 256 * 8.0,
              [&] { scattered_tile<<<dim3(width / 32, 8), dim3(32, 8)>>>(in, out, width); });
  sample::run("scattered_tile_padded", width * 256 * 8.0,
              [&] { scattered_tile_padded<<<dim3(width / 32, 8), dim3(32, 8)>>>(in, out, width); });
  return 0;
}
