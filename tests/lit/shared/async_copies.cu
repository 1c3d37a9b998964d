// RUN: %lint --format=json %s | %records | FileCheck %s
// cp.async (LDGSTS): one instruction, a global read and a shared write, each
// costed with the other's lanes (model/Instructions.h; measured on an H200:
// tests/verify/fixtures/probe-async-h200, sample_kernels/async_copies.cu).

__device__ unsigned sa(const void *p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__global__ void ca4(const float *in, float *out) {
  __shared__ float s[1024];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(sa(&s[t])), "l"(&in[i]));
  // CHECK-DAG: async_copies.cu:[[#@LINE-1]]:{{[0-9]+}}: ca4 load global 'in' `&in[i]` 4/4 ok
  // CHECK-DAG: async_copies.cu:[[#@LINE-2]]:{{[0-9]+}}: ca4 store shared 's' `sa(&s[t])` 1/1 ok
  // Both sides pay for the banks the other side's lanes meet: a stride of 8
  // floats in global memory puts 8 lanes in each source bank.
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(sa(&s[t])), "l"(&in[8 * i]));
  // CHECK-DAG: async_copies.cu:[[#@LINE-1]]:{{[0-9]+}}: ca4 load global 'in' `&in[8 * i]` 32/4 uncoalesced
  // CHECK-DAG: async_copies.cu:[[#@LINE-2]]:{{[0-9]+}}: ca4 store shared 's' `sa(&s[t])` 8/1 bank-conflict
  // Lanes reading one word are not merged (an LDG would be).
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(sa(&s[t])), "l"(&in[i / 2]));
  // CHECK-DAG: async_copies.cu:[[#@LINE-1]]:{{[0-9]+}}: ca4 load global 'in' `&in[i / 2]` 2/2 ok
  // CHECK-DAG: async_copies.cu:[[#@LINE-2]]:{{[0-9]+}}: ca4 store shared 's' `sa(&s[t])` 2/1 bank-conflict
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(sa(&s[(t % 32) * 32])), "l"(&in[i]));
  // CHECK-DAG: async_copies.cu:[[#@LINE-1]]:{{[0-9]+}}: ca4 store shared 's' `sa(&s[(t % 32) * 32])` 32/1 bank-conflict
  asm volatile("cp.async.commit_group;\n" ::);
  asm volatile("cp.async.wait_group 0;\n" ::);
  __syncthreads();
  out[i] = s[t];
}

__global__ void cg16(const float4 *in, float4 *out) {
  __shared__ __align__(128) float4 s[1024];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  // Whole sectors into one aligned 128-byte block per quarter-warp: one
  // wavefront per line.
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sa(&s[t])), "l"(&in[i]));
  // CHECK-DAG: async_copies.cu:[[#@LINE-1]]:{{[0-9]+}}: cg16 load global 'in' `&in[i]` 16/16 ok
  // CHECK-DAG: async_copies.cu:[[#@LINE-2]]:{{[0-9]+}}: cg16 store shared 's' `sa(&s[t])` 4/4 ok
  // Every lane of each quarter meets another's bank group: lane by lane.
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sa(&s[2 * t])), "l"(&in[i]));
  // CHECK-DAG: async_copies.cu:[[#@LINE-1]]:{{[0-9]+}}: cg16 load global 'in' `&in[i]` 32/16 uncoalesced
  // CHECK-DAG: async_copies.cu:[[#@LINE-2]]:{{[0-9]+}}: cg16 store shared 's' `sa(&s[2 * t])` 32/4 bank-conflict
  // Two rows of 64 bytes per quarter, 2048 bytes apart: two lines, two wavefronts.
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sa(&s[t])),
               "l"(&in[(t / 4) * 128 + t % 4]));
  // CHECK-DAG: async_copies.cu:[[#@LINE-1]]:{{[0-9]+}}: cg16 load global 'in' `&in[(t / 4) * 128 + t % 4]` 16/16 ok
  // CHECK-DAG: async_copies.cu:[[#@LINE-2]]:{{[0-9]+}}: cg16 store shared 's' `sa(&s[t])` 8/4 bank-conflict
  // Rows of 80 bytes, every other one 16 bytes into a 32-byte slot: its
  // sectors moved as two halves (the measured gemm_padded rule).
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sa(&s[(t / 4) * 5 + t % 4])),
               "l"(&in[i]));
  // CHECK-DAG: async_copies.cu:[[#@LINE-1]]:{{[0-9]+}}: cg16 load global 'in' `&in[i]` 24/16 uncoalesced
  // CHECK-DAG: async_copies.cu:[[#@LINE-2]]:{{[0-9]+}}: cg16 store shared 's' `sa(&s[(t / 4) * 5 + t % 4])` 15/4 bank-conflict
  // A sector's halves written in the reverse order, 16 bytes into a slot:
  // no rule measured, unknown.
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sa(&s[1 + (t ^ 1)])),
               "l"(&in[i]));
  // CHECK-DAG: async_copies.cu:[[#@LINE-1]]:{{[0-9]+}}: cg16 load global 'in' `&in[i]` ?/? unknown
  asm volatile("cp.async.commit_group;\n" ::);
  asm volatile("cp.async.wait_group 0;\n" ::);
  __syncthreads();
  out[i] = s[t];
}

// With some lanes off, the 16-byte .cg form's counts varied on the GPU: unknown.
__global__ void cg16_partial(const float4 *in, float4 *out) {
  __shared__ __align__(128) float4 s[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  if (t % 32 < 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sa(&s[t])), "l"(&in[i]));
  // CHECK-DAG: async_copies.cu:[[#@LINE-1]]:{{[0-9]+}}: cg16_partial load global 'in' `&in[i]` ?/? unknown
  asm volatile("cp.async.wait_all;\n" ::);
  __syncthreads();
  out[i] = s[t];
}

// A zero-filling copy (a source size) and a bulk copy (TMA) are not modelled.
__global__ void unmodelled(const float *in, float *out, int n) {
  __shared__ __align__(128) float s[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(sa(&s[t])), "l"(&in[i]),
               "r"(i < n ? 4 : 0));
  // CHECK-DAG: async_copies.cu:[[#@LINE-1]]:{{[0-9]+}}: unmodelled load global 'in' `&in[i]` ?/? unknown
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 1024, [%2];\n"
               ::"r"(sa(&s[0])), "l"(in), "r"(sa(&s[255])));
  // CHECK-DAG: async_copies.cu:[[#@LINE-1]]:{{[0-9]+}}: unmodelled store shared 's' `sa(&s[0])` ?/? unknown
  asm volatile("cp.async.wait_all;\n" ::);
  __syncthreads();
  out[i] = s[t];
}

int main() {
  float *f;
  float4 *f4;
  ca4<<<64, 256>>>(f, f);
  cg16<<<64, 256>>>(f4, f4);
  cg16_partial<<<64, 256>>>(f4, f4);
  unmodelled<<<64, 256>>>(f, f, 100);
}
