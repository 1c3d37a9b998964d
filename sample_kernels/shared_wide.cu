// 64- and 128-bit shared accesses: served in phases of 128 bytes (half-warps
// for 64-bit, quarter-warps for 128-bit), so a conflict-free LDS.64 costs 2
// wavefronts and an LDS.128 4; but a group (the warp for 64-bit, each half-warp
// for 128-bit) that needs at most 64 distinct bytes is served at once, so
// broadcasts and small lookup tables cost less.
#include "harness.cuh"

__global__ void wide_double(double *out) {
  __shared__ double s[1024];
  int t = threadIdx.x;
  s[t] = t;       // expect: store s 2/2
  s[t + 256] = t; // expect: store s 2/2
  s[t + 512] = t; // expect: store s 2/2
  s[t + 768] = t; // expect: store s 2/2
  __syncthreads();
  double v = s[t];        // expect: load s 2/2
  v += s[2 * t];          // expect: load s 4/2
  v += s[0];              // expect: load s 1/1
  v += s[(t & 15) * 2];   // expect: load s 4/2
  v += s[t & 15];         // expect: load s 2/2
  v += s[(t >> 4) * 7];   // expect: load s 1/1
  v += s[t >> 3];         // expect: load s 1/1
  v += s[t >> 2];         // expect: load s 1/1
  v += s[(t >> 2) % 6];   // expect: load s 1/1
  v += s[t / 3];          // expect: load s 2/2
  out[blockIdx.x * blockDim.x + t] = v; // expect: store out 8/8
}

__global__ void wide_float4(float4 *out) {
  __shared__ float4 s[512];
  int t = threadIdx.x;
  s[t] = make_float4(t, t, t, t);       // expect: store s 4/4
  s[t + 256] = make_float4(t, t, t, t); // expect: store s 4/4
  __syncthreads();
  float4 v = s[t];   // expect: load s 4/4
  float4 a = s[2 * t]; // expect: load s 8/4
  float4 b = s[0];   // expect: load s 2/2
  float4 c = s[t >> 4]; // expect: load s 2/2
  float4 d = s[t >> 3]; // expect: load s 2/2
  float4 e = s[t & 7]; // expect: load s 4/4
  float4 f = s[t >> 2]; // expect: load s 2/2
  float4 g = s[(t >> 2) % 3]; // expect: load s 2/2
  float4 h = s[t / 3]; // expect: load s 4/4
  v.x += a.x + b.x + c.x + d.x + e.x + f.x + g.x + h.x;
  v.y += a.y + b.y + c.y + d.y + e.y + f.y + g.y + h.y;
  v.z += a.z + b.z + c.z + d.z + e.z + f.z + g.z + h.z;
  v.w += a.w + b.w + c.w + d.w + e.w + f.w + g.w + h.w;
  out[blockIdx.x * blockDim.x + t] = v; // expect: store out 16/16
}

int main() {
  const int blocks = 1024;
  double *d = sample::alloc<double>(blocks * 256);
  float4 *f = sample::alloc<float4>(blocks * 256);
  sample::run("wide_double", double(blocks) * 256 * 8, [&] { wide_double<<<blocks, 256>>>(d); });
  sample::run("wide_float4", double(blocks) * 256 * 16, [&] { wide_float4<<<blocks, 256>>>(f); });
  return 0;
}
