// REQUIRES: witness
// RUN: %witness-lint --format=json %s | %records --witness | FileCheck %s
// RUN: %witness-lint %s | FileCheck %s --check-prefix=TEXT
// The compiler witness puts each access on the line nvcc attributes its
// instruction to, and says when nvcc emitted none (docs/witness.md). The
// SASS of each kernel was read on sm_90 with nvcc 13;
// sample_kernels/compiler_witness.cu measures the same shapes on the GPU.

// A statement over three lines: the load's instruction is on the line where
// its subscript closes.
__global__ void multi_line(const float *A, const float *B, float *C) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = A[i] *
            B[i +
              2];
  // CHECK-DAG: lines.cu:[[@LINE-1]]:15: multi_line load global 'B' `B[i + 2]` 5/4 uncoalesced {compiler-corrected exact -; LDG.E}
  C[i] = v;
}

// A load written alike on both sides of a branch that splits the warp: one
// LDS that the lanes of both sides run, put by nvcc on the barrier's line
// before the branch; the other side's access has none of its own.
__global__ void twins(float *out) {
  __shared__ float s[512];
  int t = threadIdx.x;
  s[t] = t;
  s[t + 256] = t;
  __syncthreads();
  // CHECK-DAG: lines.cu:[[@LINE-1]]:3: twins load shared 's' `s[2 * t]` 2/1 bank-conflict {compiler-corrected exact -; LDS}
  float v;
  if (t & 1)
    v = s[2 * t] * 2.0f;
  else
    v = s[2 * t] + 1.0f;
  // CHECK-DAG: lines.cu:[[@LINE-1]]:9: twins load shared 's' `s[2 * t]` ?/? unknown {compiler-corrected no-instruction merged-into; -}
  out[blockIdx.x * 256 + t] = v;
}

// A load repeated after a store through a __restrict__ pointer, which
// cannot overwrite it: nvcc keeps the value; the second load has no
// instruction.
__global__ void kept(const float *__restrict__ in, float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = in[i + 1];
  out[i] = a;
  float b = in[i + 1];
  // CHECK-DAG: lines.cu:[[@LINE-1]]:13: kept load global 'in' `in[i + 1]` ?/? unknown {compiler-corrected no-instruction not-emitted; -}
  // TEXT: lines.cu:[[@LINE-2]]:13: remark: global load from 'in' needs no instruction of its own: nvcc emitted no global load on this line nor on the other lines of its statement
  out[i + 256 * 64] = b;
}

// A loop-invariant load nvcc hoists out of its loop: on the line before the
// loop that holds its instruction.
__global__ void hoisted(const float *__restrict__ in, float *__restrict__ out, int reps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK-DAG: lines.cu:[[@LINE-1]]:3: hoisted load global 'in' `in[i]` 4/4 ok {compiler-corrected exact -; LDG.E.CONSTANT}
  for (int k = 0; k < reps; ++k)
    out[k * 256 * 64 + i] = in[i] * k;
}

int main() {
  float *f = nullptr;
  multi_line<<<64, 256>>>(f, f, f);
  twins<<<64, 256>>>(f);
  kept<<<64, 256>>>(f, f);
  hoisted<<<64, 256>>>(f, f, 4);
}
