// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// A warp-uniform offset whose residue modulo 32 bytes differs between blocks
// is averaged exactly over the grid, as Nsight Compute averages over every
// request. in[blockIdx.x * 3 + threadIdx.x] over 8 blocks: residues 0, 12,
// 24, 4, 16, 28, 8, 20 -> (4 + 7 * 5) / 8 = 4.875 sectors. A block of 100
// threads (4 warps, the last with 4 lanes) starts odd blocks 16 bytes into a
// sector: even blocks 4+4+4+1, odd blocks 5+5+5+1 sectors, ideal 4+4+4+1:
// 29/8 = 3.625 per request, ideal 26/8 = 3.25.

__global__ void three(const float *in, float *out) {
  out[blockIdx.x * 32 + threadIdx.x] = in[blockIdx.x * 3 + threadIdx.x];
  // CHECK: :[[@LINE-1]]:40: remark: global load from 'in' uses 4.875 sectors per request (ideal 4)
}

__global__ void hundred(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  // CHECK: :[[@LINE-1]]:13: remark: global load from 'in' uses 3.625 sectors per request (ideal 3.25)
  out[i] = v;
  // CHECK: :[[@LINE-1]]:3: remark: global store to 'out' uses 3.625 sectors per request (ideal 3.25)
}

int main() {
  float *a, *b;
  three<<<8, 32>>>(a, b);
  hundred<<<64, 100>>>(a, b);
}
