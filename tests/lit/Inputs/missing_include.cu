#include "no_such_header.cuh"

__global__ void copy(const float *in, float *out) { out[threadIdx.x] = in[threadIdx.x]; }
