#pragma once
template <int W> __global__ void copy_rows(const float *in, float *out) {
  out[threadIdx.x * W] = in[threadIdx.x * W];
}
