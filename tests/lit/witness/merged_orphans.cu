// REQUIRES: witness
// RUN: %witness-lint --format=json %s | %records --witness | FileCheck %s
// RUN: %witness-lint %s 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: %lint --format=json %s | %records --witness | FileCheck %s --check-prefix=SOURCE
// Instructions nvcc attributes to a line that holds no access of their
// kind: accesses merged across branches (the shape of Rodinia srad_cuda_2,
// measured in docs/accuracy.md), put on a line of nvcc's choosing. A store
// followed by a conditional store to the same address becomes one STS of
// the selected value, here on the line of the next `if`; the loads of an
// `else if` chain's sides become instructions with a selected address, here
// on the line after the chain. Each such line gets a record of its own,
// unknown (which sides' lanes run it and its cost are not known), so that
// every line Nsight Compute shows an instruction on has one; the accesses
// they serve have no instruction of their own (not-emitted). Read in SASS
// (sm_90, nvcc 13). A line holding such an instruction besides its own
// access's is unknown too (shared-with-merged).
__global__ void edges(float *out, const float *c, const float *j, int cols, float k) {
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int i = cols * 16 * by + 16 * bx + cols * ty + tx;
  int is = cols * 16 * by + 16 * bx + cols * 16 + tx;
  int ie = cols * 16 * by + 16 * bx + cols * ty + 16;
  float cn, cs, ce, cw, cc;
  __shared__ float below[16][16], right[16][16], mid[16][16], ct[16][16], res[16][16];
  mid[ty][tx] = j[i];
  __syncthreads();
  below[ty][tx] = c[is];
  // CHECK-DAG: merged_orphans.cu:[[@LINE-1]]:3: edges store shared 'below' `below[ty][tx]` ?/? unknown {compiler-corrected no-instruction not-emitted; -}
  if (by == gridDim.y - 1) {
    below[ty][tx] = c[cols * 16 * (gridDim.y - 1) + 16 * bx + cols * 15 + tx];
  }
  __syncthreads();
  right[ty][tx] = c[ie];
  if (bx == gridDim.x - 1) {
    // CHECK-DAG: merged_orphans.cu:[[@LINE-1]]:3: edges store shared 'below' `below[ty][tx]` ?/? unknown {compiler-corrected unknown merged-elsewhere; STS}
    // TEXT-DAG: merged_orphans.cu:[[@LINE-2]]:3: remark: shared store to 'below' cannot be predicted: nvcc emitted STS on this line, which no access written here explains; the shared stores with no instruction of their own (lines {{[0-9, and]+}}) are the ones it can serve, merged with one another: which lanes run it, and its cost, are not known
    right[ty][tx] = c[cols * 16 * by + 16 * (gridDim.x - 1) + cols * ty + 15];
  }
  __syncthreads();
  ct[ty][tx] = c[i];
  // The merged STS of `right` is on this line too: two STS for one store
  // here, which Nsight Compute sums (measured on sample_kernels/
  // merged_branches.cu: 2 requests a warp for 1).
  // CHECK-DAG: merged_orphans.cu:[[@LINE-4]]:3: edges store shared 'ct' `ct[ty][tx]` ?/? unknown {compiler-corrected unknown shared-with-merged; STS x2}
  __syncthreads();
  cc = ct[ty][tx];
  cn = cc;
  cw = cc;
  if (ty == 15 && tx == 15) {
    cs = below[ty][tx];
    ce = right[ty][tx];
  } else if (tx == 15) {
    cs = ct[ty + 1][tx];
    ce = right[ty][tx];
  } else if (ty == 15) {
    cs = below[ty][tx];
    ce = ct[ty][tx + 1];
  } else {
    cs = ct[ty + 1][tx];
    ce = ct[ty][tx + 1];
    // CHECK-DAG: merged_orphans.cu:[[@LINE-1]]:10: edges load shared 'ct' `ct[ty][tx + 1]` ?/? unknown {compiler-corrected no-instruction not-emitted; -}
  }
  float d = cn * c[i] + cs * c[i + 1] + cw * c[i + 2] + ce * c[i + 3];
  // CHECK-DAG: merged_orphans.cu:[[@LINE-1]]:3: edges load shared 'below' `below[ty][tx]` ?/? unknown {compiler-corrected unknown merged-from-branches; LDS x2}
  // TEXT-DAG: merged_orphans.cu:[[@LINE-2]]:3: remark: shared load from 'below' cannot be predicted: nvcc emitted LDS x2 on this line, which no access written here explains; the shared loads of the `else if` chain at lines 49-62 with no instruction of their own are the ones it can serve, merged with an address each side selects: which sides' lanes run it, and its cost, are not known
  res[ty][tx] = mid[ty][tx] + 0.25f * k * d;
  __syncthreads();
  out[i] = res[ty][tx];
}
// No other record is unknown for a merge, and none gets a number it should
// not: the lines with an access of their own keep their own.
// CHECK-NOT: merged-

// The source alone knows nothing of these lines.
// SOURCE-NOT: merged-elsewhere
// SOURCE-NOT: merged-from-branches

int main() { edges<<<dim3(64, 64), dim3(16, 16)>>>(nullptr, nullptr, nullptr, 1024, 0.5f); }
