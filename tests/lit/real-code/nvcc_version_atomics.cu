// nvcc defines __CUDACC_VER_MAJOR__, _MINOR__ and _BUILD__ in every file it
// compiles, and code tests them to enable what the toolkit supports
// (CUTLASS's SM90 paths and its __nv_atomic_load_n, from CUDA 12.8). With
// the toolkit, the analysis defines them as the toolkit's nvcc does, and
// nvcc's built-in atomic functions are declared as the accesses they make:
// __nv_atomic_load_n is a load (4 sectors for 32 lanes of 4 bytes),
// __nv_atomic_store_n a store, __nv_atomic_fetch_add an atomic.
// REQUIRES: cuda-toolkit
// RUN: %coalesce-lint-bin --cuda-path=/usr/local/cuda --color=never --exit-zero --format=json %s | %records | FileCheck %s --implicit-check-not=unknown
// RUN: %coalesce-lint-bin --cuda-path=/usr/local/cuda --exit-zero --show-command %s 2>&1 | FileCheck %s --check-prefix=CMD
// CMD: -D__CUDACC_VER_MAJOR__={{[0-9]+}} -D__CUDACC_VER_MINOR__={{[0-9]+}} -D__CUDACC_VER_BUILD__={{[0-9]+}}
// UNSUPPORTED: tidy
#include <cuda_runtime.h>

#if !defined(__CUDACC_VER_MAJOR__) || !defined(__CUDACC_VER_MINOR__) || !defined(__CUDACC_VER_BUILD__)
#error "nvcc's version macros are not defined"
#endif

__global__ void atomics(unsigned *p, unsigned *q) {
#if (__CUDACC_VER_MAJOR__ > 12) || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 8)
  unsigned v = __nv_atomic_load_n(p + threadIdx.x, __NV_ATOMIC_RELAXED);
  // CHECK: nvcc_version_atomics.cu:[[@LINE-1]]:{{[0-9]+}}: atomics load global 'p' `{{.*}}` 4/4 ok
  __nv_atomic_store_n(q + 2 * threadIdx.x, v, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE);
  // CHECK: nvcc_version_atomics.cu:[[@LINE-1]]:{{[0-9]+}}: atomics store global 'q' `{{.*}}` 8/4 uncoalesced
  __nv_atomic_fetch_add(q + threadIdx.x, 1u, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  // CHECK: nvcc_version_atomics.cu:[[@LINE-1]]:{{[0-9]+}}: atomics atomic global 'q' `{{.*}}` 4/4 ok
#endif
}

void launch(unsigned *p, unsigned *q) { atomics<<<1, 32>>>(p, q); }
