// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// An anti-diagonal sweep over a [17][17] int tile (Rodinia nw): in step m
// lanes 0..m are active and lane t touches word 17(m+1) + 1 - 16t, so lanes
// two apart share a bank: ceil((m+1)/2) ways, 4.5 on average over the 16
// steps. A device helper that returns under a branch on loaded data
// (`maximum`) returns to the loop: the loop still runs step by step (it was
// made symbolic, its `tx <= m` assumed true on every lane: 8 ways).

__device__ int maximum(int a, int b, int c) {
  int k;
  if (a <= b) k = b; else k = a;
  if (k <= c) return c; else return k;
}

__global__ void diagonal(int *out, int penalty) {
  int tx = threadIdx.x;
  __shared__ int temp[17][17];
  temp[tx][0] = tx;
  __syncthreads();
  for (int m = 0; m < 16; m++) {
    if (tx <= m) {
      int x = tx + 1;
      int y = m - tx + 1;
      // CHECK-DAG: :[[@LINE+4]]:7: warning: shared store to 'temp' has a 4.5-way bank conflict: 4.5 wavefronts per request (ideal 1)
      // CHECK-DAG: :[[@LINE+3]]:28: warning: shared load from 'temp' has a 4.5-way bank conflict
      // CHECK-DAG: :[[@LINE+2]]:58: warning: shared load from 'temp' has a 4.5-way bank conflict
      // CHECK-DAG: :[[@LINE+1]]:84: warning: shared load from 'temp' has a 4.5-way bank conflict
      temp[y][x] = maximum(temp[y - 1][x - 1] + penalty, temp[y][x - 1] - penalty, temp[y - 1][x] - penalty);
    }
    __syncthreads();
  }
  out[blockIdx.x * 16 + tx] = temp[16][tx];
}
void launch(int *o) { diagonal<<<4, 16>>>(o, 3); }
