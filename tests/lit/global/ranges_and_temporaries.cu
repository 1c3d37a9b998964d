// RUN: %lint --format=json %s | %records | FileCheck %s --implicit-check-not=unknown
// A range-for over a braced list (`for (int s : {32, 16, 8})`, ggml's
// loads "with decreasing granularity") runs once per element, as nvcc
// unrolls it; it was analysed once with the element unknown. A temporary
// bound to a const reference parameter or variable (`f(base + i)` for
// `const int &kbx`, ggml's vec_dot functions) is its value; it was 'not
// tracked'.
#include <initializer_list>

__global__ void strides(const float *in, float *out) {
  for (int s : {32, 16, 8}) {
    out[threadIdx.x * 32 / s] = in[threadIdx.x];
    // CHECK-DAG: ranges_and_temporaries.cu:[[@LINE-1]]:33: strides load global 'in' `in[threadIdx.x]` 4/4 ok
    // The three strides: 4, 8 and 16 sectors.
    // CHECK-DAG: ranges_and_temporaries.cu:[[@LINE-3]]:5: strides store global 'out' `out[threadIdx.x * 32 / s]` 9.333333/4 uncoalesced
  }
}

__device__ float at(const float *p, const int &i) { return p[i]; }

__global__ void temporaries(const float *in, float *out, int base) {
  out[threadIdx.x] = at(in, base * 32 + threadIdx.x);
  // CHECK-DAG: ranges_and_temporaries.cu:19:60: temporaries load global 'in' `p[i]` 4/4 ok [in 'at' called at ranges_and_temporaries.cu:[[@LINE-1]]]
  const int &j = 2 * threadIdx.x;
  out[j] = 1.0f;
  // CHECK-DAG: ranges_and_temporaries.cu:[[@LINE-1]]:3: temporaries store global 'out' `out[j]` 8/4 uncoalesced
}

void launch(const float *in, float *out, int base) {
  strides<<<1, 32>>>(in, out);
  temporaries<<<1, 32>>>(in, out, base);
}
