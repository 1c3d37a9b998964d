// REQUIRES: witness
// RUN: %witness-lint --format=json %s | %records --witness | FileCheck %s
// RUN: %witness-lint %s | FileCheck %s --check-prefix=TEXT
// RUN: %witness-lint --format=json %s | %records --witness | grep ' chain ' | FileCheck %s --check-prefix=CHAIN
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

// Negative: in a chain of `else if`s nvcc may merge the sides' loads, with
// addresses it selects between, into instructions on lines of its choosing
// (Rodinia srad's nine sides): no twin of a chain is joined and no number is
// put on another line. (Here each side keeps its own LDS: confirmed.)
__global__ void chain(float *out) {
  __shared__ float temp[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  temp[ty][tx] = tx;
  __syncthreads();
  float n, w;
  if (ty == 0 && tx == 0) {
    n = temp[ty][tx];
    w = temp[ty][tx + 1];
  } else if (ty == 15 && tx == 15) {
    n = temp[ty - 1][tx];
    w = temp[ty][tx - 1];
  } else if (ty == 15 && tx == 0) {
    n = temp[ty - 1][tx];
    w = temp[ty][tx + 1];
    // CHAIN-DAG: lines.cu:[[@LINE-1]]:9: chain load shared 'temp' `temp[ty][tx + 1]` 1/1 ok {compiler-confirmed exact -; LDS (predicated)}
  } else {
    n = temp[ty][tx];
    w = temp[ty][tx];
  }
  out[(blockIdx.x * 16 + ty) * 16 + tx] = n + w;
  // CHAIN-NOT: compiler-corrected exact
}

// Four consecutive floats per thread through a `const float *`: nvcc cannot
// prove 16-byte alignment and emits four 32-bit LDG, confirmed at the
// source's width; the same bytes as a float4 are one LDG.128.
__global__ void no_vector(const float *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = p[4 * i + 0];
  // CHECK-DAG: lines.cu:[[@LINE-1]]:13: no_vector load global 'p' `p[4 * i + 0]` 16/4 uncoalesced {compiler-confirmed exact -; LDG.E}
  float b = p[4 * i + 1];
  float c = p[4 * i + 2];
  float d = p[4 * i + 3];
  out[i] = a + b + c + d;
}
__global__ void vector(const float4 *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = p[i];
  // CHECK-DAG: lines.cu:[[@LINE-1]]:14: vector load global 'p' `p[i]` 16/16 ok {compiler-confirmed exact -; LDG.E.128}
  out[i] = v.x + v.y + v.z + v.w;
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
  chain<<<64, dim3(16, 16)>>>(f);
  no_vector<<<64, 256>>>(f, f);
  vector<<<64, 256>>>((const float4 *)f, f);
  kept<<<64, 256>>>(f, f);
  hoisted<<<64, 256>>>(f, f, 4);
}
