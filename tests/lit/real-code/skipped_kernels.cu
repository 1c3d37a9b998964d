// RUN: %lint %s 2>&1 | FileCheck %s
// RUN: %lint %s -- -DFEATURE_ENABLED=1 2>&1 | FileCheck %s --check-prefix=ON
// The note is the CLI's: clang-tidy reports files with nothing to say by saying nothing.
// UNSUPPORTED: tidy
// A file in which no kernel is defined or instantiated says so, and names
// the regions the preprocessor skipped: a kernel there, or the code that
// instantiates one, is behind a macro the build defines (CUTLASS's
// examples for SM100 are behind CUTLASS_ARCH_MMA_SM100_SUPPORTED, which its
// config.h leaves undefined under clang). Once defined, the kernel is
// analysed.

#if defined(FEATURE_ENABLED)
template <int N> __global__ void scale(float *p) { p[threadIdx.x * N] *= 2.0f; }
#endif

#ifdef FEATURE_ENABLED // the launch
void run(float *p) { scale<2><<<1, 32>>>(p); }
#else
void run(float *) {}
#endif

// CHECK: skipped_kernels.cu: note: no kernel is defined or instantiated in this file; the preprocessor skipped lines 12-14 (`#if defined(FEATURE_ENABLED)`) and lines 16-18 (`#ifdef FEATURE_ENABLED`): a kernel there, or the code that instantiates one, is not seen; if the build defines the macros they test, give them after `--` (-DNAME=VALUE)
// CHECK: 0 accesses in 0 kernels
// ON: warning: scale<2>: global load and store of 'p' each use 8 sectors per request (ideal 4)
// ON-NOT: no kernel is defined
