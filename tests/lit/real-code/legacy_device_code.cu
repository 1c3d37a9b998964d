// Device code of older toolkits (Rodinia, cuda-samples style): texture
// references (removed in CUDA 12) and a __shared__ object with a
// constructor (nvcc accepts it and runs no constructor; clang rejects it),
// next to kernels without them. Texture fetches are not load/store-unit
// accesses: the kernel that uses one is analysed with its other accesses.
// The kernel with the rejected __shared__ object is listed as not analysed;
// a missing header that is not CUDA's silences only the kernel that needs it.
// REQUIRES: cuda-toolkit
// RUN: %coalesce-lint-bin --cuda-path=/usr/local/cuda --color=never --exit-zero %s 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// UNSUPPORTED: tidy
#include <cuda_runtime.h>
#include "no_such_library.h"

texture<float, 1, cudaReadModeElementType> tex_in;

// CHECK-DAG: :[[@LINE+2]]:61: warning: global store to 'out' uses 32 sectors per request (ideal 4)
__global__ void gather_tex(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i * 8] = tex1Dfetch(tex_in, i);
}

struct Counter {
  int value;
  __device__ Counter() : value(0) {}
};
// CHECK-DAG: :[[@LINE+1]]:17: note: kernel 'with_counter' is not analysed: clang reports an error in its code at {{.*}}legacy_device_code.cu:[[@LINE+2]]:22: initialization is not supported for __shared__ variables
__global__ void with_counter(float *out) {
  __shared__ Counter c;
  out[threadIdx.x] = c.value;
}

// CHECK-DAG: :[[@LINE+1]]:17: note: kernel 'uses_library' is not analysed: clang reports an error in its code at {{.*}}legacy_device_code.cu:[[@LINE+1]]:30: unknown type name 'library_handle'
__global__ void uses_library(library_handle h, float *out) { out[threadIdx.x] = 0; }

// CHECK-DAG: :[[@LINE+1]]:74: warning: global load from 'in' uses 32 sectors per request (ideal 4)
__global__ void column(float *out, const float *in) { out[threadIdx.x] = in[threadIdx.x * 1024]; }

void run(float *o, const float *i) {
  cudaBindTexture(0, tex_in, i, 1024 * sizeof(float));
  gather_tex<<<4, 256>>>(o, 1024);
  column<<<1, 32>>>(o, i);
  cudaThreadSynchronize();
}
// CHECK-DAG: error: 'no_such_library.h' file not found
