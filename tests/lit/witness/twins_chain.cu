// REQUIRES: witness
// RUN: %witness-lint --format=json %s | %records --witness | FileCheck %s
// RUN: %witness-lint --format=json %s | %records --witness | FileCheck %s --check-prefix=NONE
// A chain of `else if`s over a tile's borders (the shape of Rodinia srad's
// nine sides, measured in docs/real-code.md): nvcc merges the loads written
// alike in several sides into instructions with a selected address, some on
// one side's line. Such an instruction may serve the lanes of every side
// whose own line has none: its cost is not the side's own, and the
// witness does not confirm it (twin-may-share; on srad the side's 1/1 was
// measured 2/1). Sides' loads with no instruction anywhere in their
// statement have none of their own (not-emitted); none gets a number.
// NONE-NOT: ok {compiler-corrected
// NONE-NOT: bank-conflict {compiler-corrected
__global__ void borders(float *out, const float *in, int cols) {
  __shared__ float t[16][16], up[16][16], down[16][16], left[16][16], right[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int i = (blockIdx.y * 16 + ty) * cols + blockIdx.x * 16 + tx;
  t[ty][tx] = in[i]; up[ty][tx] = in[i + 1]; down[ty][tx] = in[i + 2];
  left[ty][tx] = in[i + 3]; right[ty][tx] = in[i + 4];
  __syncthreads();
  float c = t[ty][tx], a, b, w, e;
  // CHECK-DAG: twins_chain.cu:[[@LINE-1]]:13: borders load shared 't' `t[ty][tx]` 1/1 ok {compiler-confirmed exact -; LDS}
  if (ty == 0 && tx == 0) {
    a = up[ty][tx] - c; b = t[ty + 1][tx] - c; w = left[ty][tx] - c; e = t[ty][tx + 1] - c;
  } else if (ty == 0 && tx == 15) {
    a = up[ty][tx] - c; b = t[ty + 1][tx] - c; w = t[ty][tx - 1] - c; e = right[ty][tx] - c;
  } else if (ty == 15 && tx == 15) {
    a = t[ty - 1][tx] - c; b = down[ty][tx] - c; w = t[ty][tx - 1] - c; e = right[ty][tx] - c;
  } else if (ty == 15 && tx == 0) {
    a = t[ty - 1][tx] - c; b = down[ty][tx] - c; w = left[ty][tx] - c; e = t[ty][tx + 1] - c;
  } else if (ty == 0) {
    a = up[ty][tx] - c; b = t[ty + 1][tx] - c; w = t[ty][tx - 1] - c; e = t[ty][tx + 1] - c;
  } else if (tx == 15) {
    a = t[ty - 1][tx] - c; b = t[ty + 1][tx] - c; w = t[ty][tx - 1] - c; e = right[ty][tx] - c;
  } else if (ty == 15) {
    a = t[ty - 1][tx] - c; b = down[ty][tx] - c; w = t[ty][tx - 1] - c; e = t[ty][tx + 1] - c;
  } else if (tx == 0) {
    a = t[ty - 1][tx] - c;
    b = t[ty + 1][tx] - c;
    w = left[ty][tx] - c;
    e = t[ty][tx + 1] - c;
    // CHECK-DAG: twins_chain.cu:[[@LINE-1]]:9: borders load shared 't' `t[ty][tx + 1]` ?/? unknown {compiler-corrected unknown twin-may-share; LDS x2}
  } else {
    a = t[ty - 1][tx] - c; b = t[ty + 1][tx] - c; w = t[ty][tx - 1] - c; e = t[ty][tx + 1] - c;
  }
  out[i] = a * a + b * b + w * w + e * e;
  // Lines with an LDS and no shared load of their own: the `else if` of
  // line 35 and this one. nvcc merged sides' loads into them; each gets a
  // record, unknown (tests/lit/witness/merged_orphans.cu).
  // CHECK-DAG: twins_chain.cu:35:3: borders load shared 'up' `up[ty][tx]` ?/? unknown {compiler-corrected unknown merged-from-branches; LDS}
  // CHECK-DAG: twins_chain.cu:[[@LINE-5]]:3: borders load shared 'up' `up[ty][tx]` ?/? unknown {compiler-corrected unknown merged-from-branches; LDS}
}

int main() { borders<<<dim3(64, 64), dim3(16, 16)>>>(nullptr, nullptr, 1024); }
