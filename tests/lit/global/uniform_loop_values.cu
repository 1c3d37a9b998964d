// RUN: %lint --format=json %s | %records | FileCheck %s
// A variable a loop changes in a way that is not a fixed step (stream-K's
// tile start, reset to 0 after the first tile) is not known, but when it is
// the same on every lane at the start of an iteration and at its end, it is
// the same on every lane in every iteration, and after a loop that every
// lane leaves together: a warp-uniform unknown, which moves the whole warp
// and does not spread the lanes. It was 'not a fixed step', and every
// access it reached unknown (issue 37: ggml's flash-attention kernels).

__global__ void stream_k(const float *in, float *out, int iters) {
  int kbc = blockIdx.x * iters;
  const int stop = kbc + iters;
  int start = kbc % 7;
  while (kbc < stop) {
    out[kbc * 32 + threadIdx.x] = in[start * 32 + threadIdx.x];
    // CHECK: uniform_loop_values.cu:[[@LINE-1]]:35: stream_k load global 'in' `in[start * 32 + threadIdx.x]` 4/4 ok
    // CHECK: uniform_loop_values.cu:[[@LINE-2]]:5: stream_k store global 'out' `out[kbc * 32 + threadIdx.x]` 4/4 ok
    kbc += 7 - start;
    start = 0;
  }
  out[kbc * 32 + threadIdx.x] = 0.0f;
  // CHECK: uniform_loop_values.cu:[[@LINE-1]]:3: stream_k store global 'out' `out[kbc * 32 + threadIdx.x]` 4/4 ok
}

// Negative: a value that takes a lane-dependent step is not uniform.
__global__ void lane_steps(float *out, int n) {
  int j = 0;
  for (int k = 0; k < n; ++k) {
    out[j] = 1.0f;
    // CHECK: uniform_loop_values.cu:[[@LINE-1]]:5: lane_steps store global 'out' `out[j]` ?/? unknown
    j = j * 2 + threadIdx.x;
  }
}

void launch(const float *in, float *out, int iters, int n) {
  stream_k<<<8, 32>>>(in, out, iters);
  lane_steps<<<1, 32>>>(out, n);
}
