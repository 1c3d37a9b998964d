// Host code written for nvcc (issue 11): unqualified isfinite/fabs from
// <math.h>, clock() and printf without their headers, min/max on the host,
// the removed cudaThreadSynchronize, OpenMP from the host compiler's own
// headers. nvcc compiles this; with the nvcc compatibility header clang
// does too, and without it (--no-nvcc-compat) the errors stay in host code
// and the kernel is analysed all the same.
// RUN: %lint %s 2>&1 | FileCheck %s --check-prefix=COMPAT --implicit-check-not=error:
// RUN: %lint --no-nvcc-compat %s 2>&1 | FileCheck %s --check-prefix=CLANG
// UNSUPPORTED: tidy
#include <omp.h>

// COMPAT: :[[@LINE+2]]:77: warning: global load from 'in' uses 8 sectors per request (ideal 4)
// CLANG-DAG: :[[@LINE+1]]:77: warning: global load from 'in' uses 8 sectors per request (ideal 4)
__global__ void half_rate(float *out, const float *in) { out[threadIdx.x] = in[2 * threadIdx.x]; }

int check(const float *h, int n) {
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += !isfinite(h[i]);
  clock_t t0 = clock();
  int threads = max(32, min(n, 1024));
  printf("%d threads, %d threads in OpenMP, %ld\n", threads, omp_get_max_threads(), (long)t0);
  half_rate<<<1, 32>>>(nullptr, nullptr);
  cudaThreadSynchronize();
  return bad;
}
// COMPAT: coalesce-lint: 2 accesses in 1 kernel: 1 warning (1 uncoalesced-global), 0 remarks{{$}}
// CLANG-DAG: coalesce-lint: warning: {{.*}}host_code_nvcc.cu: clang reported {{[0-9]+}} errors (see above); they touch no kernel, every kernel is analysed
