// Shared-memory accesses in the forms real kernels use: structs, pointers into
// a tile, typed views of dynamic shared memory, 8- and 16-bit elements, an XOR
// swizzle, and 2-D blocks narrower than a warp.
#include "harness.cuh"

struct Vec3 { float x, y, z; };      // 12 bytes: a 3-word stride, conflict-free
struct Vec4 { float x, y, z, w; };   // 16 bytes, 4-byte aligned: 4 scalar LDS

__global__ void struct_fields(float *out) {
  __shared__ Vec3 p3[256];
  __shared__ Vec4 p4[256];
  int t = threadIdx.x;
  p3[t].x = t; // expect: store p3 1/1
  p4[t].y = t; // expect: store p4 4/1
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = p3[t].x + p4[t].y; // expect: load p3 1/1; load p4 4/1; store out 4/4
}

__global__ void tile_row_pointer(float *out) {
  __shared__ float tile[8][32];
  float *row = &tile[threadIdx.y][0];
  row[threadIdx.x] = threadIdx.x; // expect: store tile 1/1
  __syncthreads();
  float *col = &tile[0][threadIdx.y];
  out[(blockIdx.x * 8 + threadIdx.y) * 32 + threadIdx.x] = col[(threadIdx.x % 8) * 32]; // expect: load tile 8/1; store out 4/4
}

__global__ void dynamic_views(float *out) {
  extern __shared__ unsigned char buf[];
  float *a = reinterpret_cast<float *>(buf);
  int *b = reinterpret_cast<int *>(buf + 1024 * sizeof(float));
  int t = threadIdx.x;
  a[t] = t;     // expect: store buf 1/1
  b[2 * t] = t; // expect: store buf 2/1
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = a[t] + b[(2 * t) % 512]; // expect: load buf 1/1; load buf 2/1; store out 4/4
}

__global__ void narrow_types(float *out) {
  __shared__ unsigned char c[1024];
  __shared__ short h[4096];
  int t = threadIdx.x;
  c[t] = t;      // expect: store c 1/1
  h[t * 2] = t;  // expect: store h 1/1
  h[t * 64 % 4096] = t; // expect: store h 32/1
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = c[(t * 128) % 1024] + h[t]; // expect: load c 8/1; load h 1/1; store out 4/4
}

__global__ void xor_swizzle(float *out) {
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    tile[ty + j][tx ^ (ty + j)] = tx; // expect: store tile 1/1
  __syncthreads();
  for (int j = 0; j < 32; j += 8) {
    int r = tx, c = ty + j;
    out[(blockIdx.x * 32 + ty + j) * 32 + tx] = tile[r][c ^ r]; // expect: load tile 1/1; store out 4/4
  }
}

// A 16 x 16 block: each warp covers two rows of the tile.
__global__ void narrow_block(float *out) {
  __shared__ float tile[16][16];
  __shared__ float padded[16][17];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = tx;   // expect: store tile 1/1
  padded[ty][tx] = tx; // expect: store padded 2/1
  __syncthreads();
  out[(blockIdx.x * 16 + ty) * 16 + tx] = tile[tx][ty] + padded[tx][ty]; // expect: load tile 8/1; load padded 2/1; store out 4/4
}

int main() {
  const int blocks = 2048;
  float *out = sample::alloc<float>(blocks * 1024);
  const double B = double(blocks) * 256 * sizeof(float);
  sample::run("struct_fields", B, [&] { struct_fields<<<blocks, 256>>>(out); });
  sample::run("tile_row_pointer", B, [&] { tile_row_pointer<<<blocks, dim3(32, 8)>>>(out); });
  sample::run("dynamic_views", B, [&] { dynamic_views<<<blocks, 256, 8192>>>(out); });
  sample::run("narrow_types", B, [&] { narrow_types<<<blocks, 256>>>(out); });
  sample::run("xor_swizzle", B, [&] { xor_swizzle<<<blocks, dim3(32, 8)>>>(out); });
  sample::run("narrow_block", B, [&] { narrow_block<<<blocks, dim3(16, 16)>>>(out); });
  return 0;
}
