// RUN: %lint --format=json %s | %records | FileCheck %s
// ldmatrix / stmatrix (LDSM / STSM): each matrix's 8 row addresses (lanes
// 0-7, 8-15, ...) are one phase; rows in one 16-byte bank group conflict
// (model/Instructions.h; measured on an H200: sample_kernels/matrix_loads.cu).

__device__ unsigned sa(const void *p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__global__ void tiles(unsigned *out) {
  __shared__ __align__(128) unsigned short plain[64][64];
  __shared__ __align__(128) unsigned short padded[64][72];
  int t = threadIdx.x, lane = t % 32, warp = t / 32;
  int row = warp * 16 + lane % 16, chunk = lane / 16;
  unsigned a, b, c, d;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "r"(sa(&plain[row][chunk * 8])));
  // CHECK-DAG: matrix_loads.cu:[[#@LINE-1]]:{{[0-9]+}}: tiles load shared 'plain' `sa(&plain[row][chunk * 8])` 32/4 bank-conflict
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "r"(sa(&padded[row][chunk * 8])));
  // CHECK-DAG: matrix_loads.cu:[[#@LINE-1]]:{{[0-9]+}}: tiles load shared 'padded' `sa(&padded[row][chunk * 8])` 4/4 ok
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
               : "r"(sa(&plain[row][(chunk ^ (row % 8)) * 8])));
  // CHECK-DAG: matrix_loads.cu:[[#@LINE-1]]:{{[0-9]+}}: tiles load shared 'plain' `sa(&plain[row][(chunk ^ (row % 8)) * 8])` 4/4 ok
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(a) : "r"(sa(&plain[row][0])));
  // CHECK-DAG: matrix_loads.cu:[[#@LINE-1]]:{{[0-9]+}}: tiles load shared 'plain' `sa(&plain[row][0])` 8/1 bank-conflict
  // Rows asked by several lanes are served once: 4 distinct rows a matrix.
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
               : "=r"(a), "=r"(b) : "r"(sa(&plain[lane % 4][0])));
  // CHECK-DAG: matrix_loads.cu:[[#@LINE-1]]:{{[0-9]+}}: tiles load shared 'plain' `sa(&plain[lane % 4][0])` 8/2 bank-conflict
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};"
               ::"r"(sa(&padded[row][chunk * 8])), "r"(a), "r"(b), "r"(c), "r"(d));
  // CHECK-DAG: matrix_loads.cu:[[#@LINE-1]]:{{[0-9]+}}: tiles store shared 'padded' `sa(&padded[row][chunk * 8])` 4/4 ok
  // The address through the PTX's own registers (CUTLASS's cast_smem_ptr_to_uint).
  unsigned addr;
  asm("{ .reg .u64 p; cvta.to.shared.u64 p, %1; cvt.u32.u64 %0, p; }"
      : "=r"(addr) : "l"(&plain[row][chunk * 8]));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "r"(addr + 16));
  // CHECK-DAG: matrix_loads.cu:[[#@LINE-1]]:{{[0-9]+}}: tiles load shared 'plain' `addr + 16` 32/4 bank-conflict
  out[blockIdx.x * blockDim.x + t] = a ^ b ^ c ^ d;
}

// A warp-wide instruction some lanes skip, and shapes not modelled: unknown.
__global__ void unknowns(unsigned *out) {
  __shared__ __align__(128) unsigned short tile[64][72];
  int t = threadIdx.x, lane = t % 32;
  unsigned a = 0, b = 0;
  if (lane < 16)
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                 : "=r"(a), "=r"(b) : "r"(sa(&tile[lane][0])));
  // CHECK-DAG: matrix_loads.cu:[[#@LINE-1]]:{{[0-9]+}}: unknowns load shared 'tile' `sa(&tile[lane][0])` ?/? unknown
  asm volatile("ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%0, %1}, [%2];"
               : "=r"(a), "=r"(b) : "r"(sa(&tile[lane][0])));
  // CHECK-DAG: matrix_loads.cu:[[#@LINE-1]]:{{[0-9]+}}: unknowns load shared 'tile' `sa(&tile[lane][0])` ?/? unknown
  out[t] = a + b;
}

int main() {
  unsigned *u;
  tiles<<<64, 128>>>(u);
  unknowns<<<64, 32>>>(u);
}
