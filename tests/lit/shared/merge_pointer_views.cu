// RUN: %lint --format=json %s | %records | FileCheck %s --check-prefix=REC
// What ptxas can prove of a shared address written through a pointer that
// is set once (`float *Kj = &sram[tile];`, flash-attention-minimal's tiles)
// is what it proves of that expression: an offset of a run-time number of
// floats is only 4-byte aligned, so two 4-byte accesses of consecutive
// iterations cannot become one 8-byte access, and the cost is exact. An
// offset that is a multiple of 2 floats keeps the merge possible (unknown,
// as before). An access in an inner loop that is not unrolled has no copy
// beside it in the next iteration of the outer loop.

__global__ void tiles(float *out, int n, int d) {
  extern __shared__ float sram[];
  float *Kj = &sram[n];
  float *Vj = sram + 2 * n;
  for (int x = 0; x < d; x++)
    Kj[threadIdx.x * d + x] = 1.0f;
  // REC: merge_pointer_views.cu:[[@LINE-1]]:5: tiles store shared 'sram' `Kj[threadIdx.x * d + x]` 32/1 bank-conflict
  for (int x = 0; x < d; x++)
    Vj[threadIdx.x * 2 * d + x] = 1.0f;
  // REC: merge_pointer_views.cu:[[@LINE-1]]:5: tiles store shared 'sram' `Vj[threadIdx.x * 2 * d + x]` ?/? unknown
  __syncthreads();
  float acc = 0;
  for (int x = 0; x < d; x++)
    for (int y = 0; y < n; y++)
      acc += Kj[y * d + x];
  // REC: merge_pointer_views.cu:[[@LINE-1]]:14: tiles load shared 'sram' `Kj[y * d + x]` 1/1 ok
  out[threadIdx.x] = acc;
}

void launch(float *out, int n, int d) { tiles<<<1, 32, 3 * 32 * 64 * 4>>>(out, n, d); }
