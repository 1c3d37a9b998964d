// 128-bit shared loads whose lanes read a few 16-byte blocks. A half-warp
// is served in one wavefront when it asks for at most 64 bytes, each of its
// quarter-warps for at most two blocks, and its blocks lie in distinct
// banks; otherwise each quarter-warp is a phase of its own. Blocks 32 bytes
// apart merge; 64 bytes apart (blocks 0 and 128 bytes share banks) and
// 128 bytes apart do not; blocks 0-3 read in turn by every quarter do not.
#include "harness.cuh"

__global__ void blocks(float4 *out) {
  __shared__ float4 s[256];
  int t = threadIdx.x;
  s[t] = make_float4(t, t, t, t); // expect: store s 4/4
  __syncthreads();
  const int o = blockIdx.x * 2304;
  out[o + t] = s[t >> 2]; // expect: load s 2/2; store out 16/16
  out[o + 256 + t] = s[2 * (t >> 2)]; // expect: load s 2/2; store out 16/16
  out[o + 512 + t] = s[(4 * (t >> 2)) % 256]; // expect: load s 4/4; store out 16/16
  out[o + 768 + t] = s[t >> 3]; // expect: load s 2/2; store out 16/16
  out[o + 1024 + t] = s[2 * (t >> 3)]; // expect: load s 2/2; store out 16/16
  out[o + 1280 + t] = s[(8 * (t >> 2)) % 256]; // expect: load s 8/4; store out 16/16
  out[o + 1536 + t] = s[2 * (t >> 4)]; // expect: load s 2/2; store out 16/16
  out[o + 1792 + t] = s[(t & 1) * 8]; // expect: load s 8/4; store out 16/16
  out[o + 2048 + t] = s[t % 4]; // expect: load s 4/4; store out 16/16
}

int main() {
  const int grid = 4096;
  float4 *o = sample::alloc<float4>(size_t(grid) * 2304);
  sample::run("blocks", double(grid) * 2304 * 16 * 2, [&] { blocks<<<grid, 256>>>(o); });
  return 0;
}
