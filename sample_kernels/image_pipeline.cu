// A small image-processing module written the way CUDA code usually is:
// constants and enums, a struct passed by value, __device__ helpers that
// return references, templates, unrolled loops, bounds guards, clamps, and
// host launch helpers that compute their grids. Issue 4's reference file:
// every access Nsight Compute can measure here is predicted with no flags.
#include "harness.cuh"

namespace img {

constexpr int kTileX = 32;
constexpr int kTileY = 8;
#define BLUR_RADIUS 2
enum Channel { kRed, kGreen, kBlue, kAlpha, kNumChannels };
static const int kBins = 64;

struct Image {
  float *data;
  int width, height;
  int pitch; // elements per row
};

struct __align__(16) RGBA {
  float r, g, b, a;
};

__device__ __forceinline__ int clampi(int v, int lo, int hi) { return min(max(v, lo), hi); }

__device__ __forceinline__ float &at(const Image &im, int x, int y) {
  return im.data[y * im.pitch + x];
}

// Horizontal box blur: neighbours in x are neighbours in memory, but every
// offset d != 0 shifts the warp off the sector grid (5 sectors instead of 4).
template <int R> __global__ void blur_rows(Image src, Image dst) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= src.width || y >= src.height)
    return;
  float sum = 0.0f;
#pragma unroll
  for (int d = -R; d <= R; ++d)
    sum += at(src, clampi(x + d, 0, src.width - 1), y); // expect: load src.data 4.794/4
  at(dst, x, y) = sum / (2 * R + 1); // expect: store dst.data 4/4
}

// Vertical box blur: every read is a whole row of the warp (4 sectors).
template <int R> __global__ void blur_cols(Image src, Image dst) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= src.width || y >= src.height)
    return;
  float sum = 0.0f;
#pragma unroll
  for (int d = -R; d <= R; ++d)
    sum += at(src, x, clampi(y + d, 0, src.height - 1)); // expect: load src.data 4/4
  at(dst, x, y) = sum / (2 * R + 1); // expect: store dst.data 4/4
}

// Interleaved RGBA (16-byte pixels) to planar channels.
__global__ void deinterleave(const RGBA *__restrict__ in, float *__restrict__ planes,
                             int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const RGBA p = in[i]; // expect: load in 16/16
  planes[kRed * n + i] = p.r;   // expect: store planes 4/4
  planes[kGreen * n + i] = p.g; // expect: store planes 4/4
  planes[kBlue * n + i] = p.b;  // expect: store planes 4/4
  planes[kAlpha * n + i] = p.a; // expect: store planes 4/4
}

// The same conversion written per channel from a float pointer: each lane
// reads one float out of every 16-byte pixel (stride 4 floats: 16 sectors).
__global__ void extract_channel(const float *__restrict__ rgba, float *__restrict__ out,
                                int channel, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = rgba[i * kNumChannels + channel]; // expect: store out 4/4; load rgba 16/4
}

// Histogram of a channel: the bin comes from the data.
__global__ void histogram(const float *__restrict__ v, unsigned *__restrict__ hist, int n) {
  __shared__ unsigned local[kBins];
  if (threadIdx.x < kBins)
    local[threadIdx.x] = 0; // expect: store local 1/1
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int bin = min(max(int(v[i] * kBins), 0), kBins - 1); // expect: load v 4/4
    atomicAdd(&local[bin], 1u); // expect: atomic local unknown
  }
  __syncthreads();
  if (threadIdx.x < kBins)
    atomicAdd(&hist[threadIdx.x], local[threadIdx.x]); // expect: load local 1/1; atomic hist 4/4
}

// Launch helpers, as a library would have them.
void blur(const Image &src, const Image &tmp, const Image &dst) {
  dim3 block(kTileX, kTileY);
  dim3 grid((src.width + kTileX - 1) / kTileX, (src.height + kTileY - 1) / kTileY);
  sample::run("blur_rows<2>", 2.0 * src.width * src.height * sizeof(float),
              [&] { blur_rows<BLUR_RADIUS><<<grid, block>>>(src, tmp); });
  sample::run("blur_cols<2>", 2.0 * src.width * src.height * sizeof(float),
              [&] { blur_cols<BLUR_RADIUS><<<grid, block>>>(tmp, dst); });
}

void convert(const RGBA *in, float *planes, int n) {
  const int threads = 256;
  const int blocks = (n + threads - 1) / threads;
  sample::run("deinterleave", 2.0 * n * sizeof(RGBA), [&] { deinterleave<<<blocks, threads>>>(in, planes, n); });
  sample::run("extract_channel", 2.0 * n * sizeof(float),
              [&] { extract_channel<<<blocks, threads>>>(reinterpret_cast<const float *>(in), planes, kGreen, n); });
}

} // namespace img

int main() {
  const int W = 4096, H = 2048;
  img::Image a{sample::alloc<float>(size_t(W) * H), W, H, W};
  img::Image b{sample::alloc<float>(size_t(W) * H), W, H, W};
  img::Image c{sample::alloc<float>(size_t(W) * H), W, H, W};
  img::blur(a, b, c);
  const int n = W * H / 4;
  img::RGBA *rgba = sample::alloc<img::RGBA>(n);
  float *planes = sample::alloc<float>(size_t(n) * img::kNumChannels);
  img::convert(rgba, planes, n);
  unsigned *hist = sample::alloc<unsigned>(img::kBins);
  sample::run("histogram", double(n) * sizeof(float),
              [&] { img::histogram<<<1024, 256>>>(planes, hist, n); });
  return 0;
}
