// REQUIRES: witness
// RUN: %witness-lint --format=json %s | %records --witness | FileCheck %s
// Two calls of one toolkit header function (__ldcs, atomicAdd), one after
// the other: nvcc's line table gives the second call's instruction the
// first call's location, so both instructions are on the first call's line
// (nvdisasm -gi; Nsight Compute's inlining chains say the same). The second
// access is reported there, with its own cost, not as an access with no
// instruction (interp/models/EmittedCode.cpp, headerCallLine();
// sample_kernels/header_calls.cu, recorded on an H100).
__global__ void two_streaming_loads(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = __ldcs(&in[i]);
  float b = __ldcs(&in[8 * i]);
  // CHECK-DAG: header_calls.cu:[[@LINE-2]]:13: two_streaming_loads load global 'in' `__ldcs(&in[i])` 4/4 ok {compiler-confirmed exact -; LDG.E.EF x2}
  // CHECK-DAG: header_calls.cu:[[@LINE-3]]:3: two_streaming_loads load global 'in' `__ldcs(&in[8 * i])` 32/4 uncoalesced {compiler-corrected exact -; LDG.E.EF x2}
  out[i] = a + b;
}

__global__ void two_atomics(unsigned *counts, unsigned *wide) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&counts[i], 1u);
  atomicAdd(&wide[4 * i], 1u);
  // CHECK-DAG: header_calls.cu:[[@LINE-2]]:3: two_atomics atomic global 'counts' `atomicAdd(&counts[i], 1u)` 4/4 ok {compiler-confirmed exact -; REDG.E.ADD.STRONG.GPU x2}
  // CHECK-DAG: header_calls.cu:[[@LINE-3]]:3: two_atomics atomic global 'wide' `atomicAdd(&wide[4 * i], 1u)` 16/4 uncoalesced {compiler-corrected exact -; REDG.E.ADD.STRONG.GPU x2}
}

// A load whose value is not used has no instruction: the line before holds
// one LDG.E.EF, its own call's, none to spare.
__global__ void one_used(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = __ldcs(&in[i]);
  float b = __ldcs(&in[8 * i]);
  // CHECK-DAG: header_calls.cu:[[@LINE-2]]:13: one_used load global 'in' `__ldcs(&in[i])` 4/4 ok {compiler-confirmed exact -; LDG.E.EF}
  // CHECK-DAG: header_calls.cu:[[@LINE-2]]:13: one_used load global 'in' `__ldcs(&in[8 * i])` ?/? unknown {compiler-corrected no-instruction not-emitted; -}
  (void)b;
  out[i] = a;
}

int main() {
  two_streaming_loads<<<512, 256>>>(nullptr, nullptr);
  two_atomics<<<512, 256>>>(nullptr, nullptr);
  one_used<<<512, 256>>>(nullptr, nullptr);
}
