// Sizes known only at run time (issue 13): the tool cannot know `cols` or
// `dim`, so it answers as a function of them, "32 sectors per request for
// every cols >= 8", with the full table in --explain and in the JSON's
// `parametric` object. The program takes its sizes from the command line and
// announces them (COALESCE_SIZE); verify mode compares the case this run's
// values select with what Nsight Compute measures.
#include "harness.cuh"

// A thread per row walks its row: lanes are `cols` floats apart.
__global__ void row_walk(const float *a, float *out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int j = 0; j < 4; ++j)
    s += a[r * cols + j]; // expect: load a 32/4
  out[r] = s; // expect: store out 4/4
}

// 16x16 tiles of a dim x dim matrix: a warp holds two rows of 16 floats,
// `dim` floats apart, so the cost depends on dim % 8.
__global__ void tile_copy(const float *m, float *out, int dim) {
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  out[row * dim + col] = m[row * dim + col]; // expect: load m 4/4; store out 4/4
}

int main(int argc, char **argv) {
  const int rows = 1 << 14;
  const int cols = sample::runtime_size("cols", argc, argv, 1, 2049);
  const int dim = sample::runtime_size("dim", argc, argv, 2, 1004);
  float *a = sample::alloc<float>(size_t(rows) * cols);
  float *out = sample::alloc<float>(size_t(dim) * dim);
  float *m = sample::alloc<float>(size_t(dim) * dim);
  sample::run("row_walk", double(rows) * 4 * sizeof(float),
              [&] { row_walk<<<rows / 256, 256>>>(a, out, rows, cols); });
  sample::run("tile_copy", 2.0 * dim * dim * sizeof(float),
              [&] { tile_copy<<<dim3(dim / 16, dim / 16), dim3(16, 16)>>>(m, out, dim); });
  cudaFree(a);
  cudaFree(out);
  cudaFree(m);
  return 0;
}
