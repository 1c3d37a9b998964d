// RUN: %lint --format=json %s | %records | FileCheck %s
// Plain loads and stores written in inline PTX (cache-hinted vector loads,
// shared stores through a shared-window address) are loads and stores of
// the width their type and vector give.

__global__ void vectors(const float4 *in, float *out) {
  __shared__ float s[1024];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  float a, b, c, d;
  asm volatile("ld.global.nc.L1::no_allocate.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(a), "=f"(b), "=f"(c), "=f"(d) : "l"(&in[i]));
  // CHECK-DAG: inline_ptx.cu:[[#@LINE-1]]:{{[0-9]+}}: vectors load global 'in' `&in[i]` 16/16 ok
  float e, f;
  asm volatile("ld.global.v2.f32 {%0, %1}, [%2+8];" : "=f"(e), "=f"(f) : "l"(&in[2 * i]));
  // CHECK-DAG: inline_ptx.cu:[[#@LINE-1]]:{{[0-9]+}}: vectors load global 'in' `&in[2 * i]` 32/8 uncoalesced
  unsigned sp = static_cast<unsigned>(__cvta_generic_to_shared(&s[t * 32 % 1024]));
  asm volatile("st.shared.f32 [%0], %1;" ::"r"(sp), "f"(a + b + c + d + e + f));
  // CHECK-DAG: inline_ptx.cu:[[#@LINE-1]]:{{[0-9]+}}: vectors store shared 's' `sp` 32/1 bank-conflict
  // A guarded instruction runs on lanes the analysis does not follow.
  asm volatile("{ .reg .pred p; setp.ne.s32 p, %1, 0; @p st.global.f32 [%0], %2; }"
               ::"l"(&out[i]), "r"(t & 1), "f"(a));
  // CHECK-DAG: inline_ptx.cu:[[#@LINE-1]]:{{[0-9]+}}: vectors store global 'out' `&out[i]` ?/? unknown
  // An asm with a loop: its statements do not run once in order.
  asm volatile("{ .reg .u32 k; mov.u32 k, 0; LOOP%=: st.shared.f32 [%0], %1; add.u32 k, k, 1;"
               " setp.lt.u32 p, k, 4; @p bra LOOP%=; }"
               ::"r"(sp), "f"(a));
  // CHECK-DAG: inline_ptx.cu:[[#@LINE-1]]:{{[0-9]+}}: vectors store shared 's' `sp` ?/? unknown
  // Global atomics and reductions in PTX are costed as atomicAdd is: the
  // width of their type at the address operand.
  asm volatile("red.global.add.f32 [%0], %1;" ::"l"(&out[i]), "f"(a));
  // CHECK-DAG: inline_ptx.cu:[[#@LINE-1]]:{{[0-9]+}}: vectors atomic global 'out' `&out[i]` 4/4 ok
  unsigned old;
  asm volatile("atom.global.add.u32 %0, [%1+4], %2;" : "=r"(old) : "l"(&out[8 * i]), "r"(1u));
  // CHECK-DAG: inline_ptx.cu:[[#@LINE-1]]:{{[0-9]+}}: vectors atomic global 'out' `&out[8 * i]` 32/4 uncoalesced
  // Packed and vector global ones: the width of the vector (measured alike:
  // sample_kernels/vector_atomics.cu); a packed shared one is recorded, not
  // costed.
  asm volatile("red.global.add.noftz.f16x2 [%0], %1;" ::"l"(&out[i]), "r"(old));
  // CHECK-DAG: inline_ptx.cu:[[#@LINE-1]]:{{[0-9]+}}: vectors atomic global 'out' `&out[i]` 4/4 ok
  asm volatile("red.global.add.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(&out[8 * i]), "f"(a), "f"(a), "f"(a), "f"(a));
  // CHECK-DAG: inline_ptx.cu:[[#@LINE-1]]:{{[0-9]+}}: vectors atomic global 'out' `&out[8 * i]` 32/16 uncoalesced
  asm volatile("red.shared.add.noftz.f16x2 [%0], %1;" ::"r"(sp), "r"(old));
  // CHECK-DAG: inline_ptx.cu:[[#@LINE-1]]:{{[0-9]+}}: vectors atomic shared 's' `sp` ?/? unknown
  // A global pointer through cvta.to.global keeps its address.
  unsigned long long gp;
  asm("cvta.to.global.u64 %0, %1;" : "=l"(gp) : "l"(&in[i]));
  asm volatile("ld.global.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(a), "=f"(b), "=f"(c), "=f"(d) : "l"(gp));
  // CHECK-DAG: inline_ptx.cu:[[#@LINE-1]]:{{[0-9]+}}: vectors load global 'in' `gp` 16/16 ok
  // The lane and thread indices read from special registers.
  unsigned lane, tid;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm("mov.u32 %0, %%tid.x;" : "=r"(tid));
  out[blockIdx.x * blockDim.x + (tid & ~31u) + lane] = s[t];
  // CHECK-DAG: inline_ptx.cu:[[#@LINE-1]]:{{[0-9]+}}: vectors store global 'out' `out[blockIdx.x * blockDim.x + (tid & ~31u) + lane]` 4/4 ok
}

int main() {
  float4 *in;
  float *out;
  vectors<<<64, 256>>>(in, out);
}
