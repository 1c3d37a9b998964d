// What Nsight Compute calls the ideal of a global request. It counts the bytes
// the active lanes ask for, packed (lanes x width, lanes that read the same
// address included), and caps that at the sectors the request touches. So a
// broadcast is 1 sector with ideal 1, but a warp whose lanes read a few far
// addresses, each shared by many lanes, has an ideal of several sectors: 16
// lanes on each of two rows' first float is 2 sectors, ideal 2.
#include "harness.cuh"

constexpr int W = 4096; // floats per row: rows are far apart

// 16x16 blocks: a warp holds two rows of 16 threads, and each row's lanes all
// read the first float of their row (a stencil's west edge, say).
__global__ void row_heads(const float *in, float *out) {
  int row = blockIdx.x * 16 + threadIdx.y;
  float v = in[row * W]; // expect: load in 2/2
  out[row * 16 + threadIdx.x] = v; // expect: store out 4/4
}

// Eight lanes per address, four addresses, then four lanes per address.
__global__ void groups_of_eight(const float *in, float *out) {
  int lane = threadIdx.x % 32;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[(lane / 8) * W]; // expect: load in 4/4; store out 4/4
}

__global__ void groups_of_four(const float *in, float *out) {
  int lane = threadIdx.x % 32;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[(lane / 4) * W]; // expect: load in 8/4; store out 4/4
}

// Half a warp reads a row, the other half one far float.
__global__ void row_and_broadcast(const float *in, float *out) {
  int lane = threadIdx.x % 32;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float *p = lane < 16 ? in + lane : in + W;
  out[i] = *p; // expect: load in 3/3; store out 4/4
}

// The same two far addresses in bytes: 32 lanes x 1 byte fit one sector.
__global__ void two_far_bytes(const char *in, char *out) {
  int lane = threadIdx.x % 32;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[(lane / 16) * W]; // expect: load in 2/1; store out 1/1
}

// One lane per row: two active lanes, two far floats: 2 sectors, ideal 1.
__global__ void one_lane_per_row(const float *in, float *out) {
  int row = blockIdx.x * 16 + threadIdx.y;
  if (threadIdx.x == 0)
    out[row] = in[row * W]; // expect: load in 2/1; store out 1/1
}

int main() {
  const int rows = 1 << 12;
  float *in = sample::alloc<float>(size_t(rows) * W + W);
  float *out = sample::alloc<float>(size_t(rows) * 16);
  char *bin = sample::alloc<char>(size_t(2) * W);
  char *bout = sample::alloc<char>(size_t(rows) * 16);
  const dim3 tile(16, 16);
  const double B = double(rows) * 16 * sizeof(float);
  sample::run("row_heads", B, [&] { row_heads<<<rows / 16, tile>>>(in, out); });
  sample::run("groups_of_eight", B, [&] { groups_of_eight<<<rows / 16, 256>>>(in, out); });
  sample::run("groups_of_four", B, [&] { groups_of_four<<<rows / 16, 256>>>(in, out); });
  sample::run("row_and_broadcast", B, [&] { row_and_broadcast<<<rows / 16, 256>>>(in, out); });
  sample::run("two_far_bytes", B / 4, [&] { two_far_bytes<<<rows / 16, 256>>>(bin, bout); });
  sample::run("one_lane_per_row", B / 16, [&] { one_lane_per_row<<<rows / 16, tile>>>(in, out); });
  cudaFree(in);
  cudaFree(out);
  cudaFree(bin);
  cudaFree(bout);
  return 0;
}
