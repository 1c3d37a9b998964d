// Accesses nvcc merges across branches into instructions on lines of its
// choosing (the shape of Rodinia srad_cuda_2): a store and the conditional
// store over it become one STS, here on the next `if`'s line; the loads of an
// `else if` chain's sides become instructions with a selected address, here
// on the statement after the chain. The tool gives such a line a record of its
// own, unknown (merged-elsewhere, merged-from-branches: which lanes run the
// instruction, with which addresses, the line table does not say), and the
// accesses it serves none of their own (not-emitted): every line Nsight
// Compute shows an instruction on has a record (docs/witness.md).
#include "harness.cuh"

__global__ void edges(float *out, const float *c, const float *j, int cols, float k) {
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int i = cols * 16 * by + 16 * bx + cols * ty + tx;
  int is = cols * 16 * by + 16 * bx + cols * 16 + tx;
  int ie = cols * 16 * by + 16 * bx + cols * ty + 16;
  float cn, cs, ce, cw, cc;
  __shared__ float below[16][16], right[16][16], mid[16][16], ct[16][16], res[16][16];
  mid[ty][tx] = j[i]; // expect: load j 4/4; store mid 1/1
  __syncthreads();
  below[ty][tx] = c[is]; // expect: load c 2/2 // expect(source): store below 1/1 // expect(witness): store below none
  if (by == gridDim.y - 1) {
    below[ty][tx] = c[cols * 16 * (gridDim.y - 1) + 16 * bx + cols * 15 + tx]; // expect: load c 2/2 // expect(source): store below 1/1 // expect(witness): store below none
  }
  __syncthreads();
  right[ty][tx] = c[ie]; // expect: load c 2/2 // expect(source): store right 1/1 // expect(witness): store right none
  if (bx == gridDim.x - 1) { // measured: store 1/1, the merged STS of lines 22 and 24 // expect(witness): store below unknown
    right[ty][tx] = c[cols * 16 * by + 16 * (gridDim.x - 1) + cols * ty + 15]; // expect: load c 2/2 // expect(source): store right 1/1 // expect(witness): store right none
  }
  __syncthreads();
  ct[ty][tx] = c[i]; // measured: store 1/1 twice a warp, ct's STS and the merged one of lines 27 and 29 // expect: load c 4/4 // expect(source): store ct 1/1 // expect(witness): store ct unknown
  __syncthreads();
  cc = ct[ty][tx]; // expect: load ct 1/1
  cn = cc;
  cw = cc;
  if (ty == 15 && tx == 15) {
    cs = below[ty][tx]; // expect(source): load below unknown // expect(witness): load below none
    ce = right[ty][tx]; // expect(source): load right unknown // expect(witness): load right none
  } else if (tx == 15) {
    cs = ct[ty + 1][tx]; // expect(source): load ct unknown // expect(witness): load ct none
    ce = right[ty][tx]; // expect(source): load right unknown // expect(witness): load right none
  } else if (ty == 15) {
    cs = below[ty][tx]; // expect(source): load below unknown // expect(witness): load below none
    ce = ct[ty][tx + 1]; // expect(source): load ct unknown // expect(witness): load ct none
  } else {
    cs = ct[ty + 1][tx]; // expect(source): load ct unknown // expect(witness): load ct none
    ce = ct[ty][tx + 1]; // expect(source): load ct unknown // expect(witness): load ct none
  }
  float d = cn * c[i] + cs * c[i + 1] + cw * c[i + 2] + ce * c[i + 3]; // measured: load 1.562/1, the merged LDS of the sides // expect: load c 4/4; load c 6/4; load c 6/4; load c 6/4 // expect(witness): load below unknown
  res[ty][tx] = mid[ty][tx] + 0.25f * k * d; // expect: load mid 1/1; store res 1/1
  __syncthreads();
  out[i] = res[ty][tx]; // expect: load res 1/1; store out 4/4
}


int main() {
  const int cols = 1024, rows = 1024;
  float *c = sample::alloc<float>((rows + 16) * cols + 64), *j = sample::alloc<float>(rows * cols);
  float *out = sample::alloc<float>(rows * cols);
  sample::run("edges", rows * cols * 24.0,
              [&] { edges<<<dim3(cols / 16, rows / 16), dim3(16, 16)>>>(out, c, j, cols, 0.5f); });
  return 0;
}
