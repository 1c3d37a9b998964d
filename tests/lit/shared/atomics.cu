// RUN: %lint --format=json %s | %records | FileCheck %s
// Atomics on shared memory (ATOMS): lanes on one word are served one by
// one, not shared as a load's read is (model/Instructions.h; measured on an
// H100: sample_kernels/shared_atomics.cu). 64-bit and floating-point ones
// are compare-and-swap loops, and a word all lanes share may be combined by
// nvcc: unknown.
__device__ __forceinline__ unsigned saddr(const void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__global__ void atomics(unsigned *out, float *fout, unsigned long long *wout) {
  __shared__ unsigned s[1024];
  __shared__ float f[256];
  __shared__ unsigned long long w[256];
  int t = threadIdx.x;
  atomicAdd(&s[t], 1u);
  // CHECK-DAG: atomics.cu:[[@LINE-1]]:3: atomics atomic shared 's' `atomicAdd(&s[t], 1u)` 1/1 ok
  atomicMax(&s[t / 2], 7u);
  // CHECK-DAG: atomics.cu:[[@LINE-1]]:3: atomics atomic shared 's' `atomicMax(&s[t / 2], 7u)` 2/1 bank-conflict
  atomicAdd(&s[(t % 32) * 32], 1u);
  // CHECK-DAG: atomics.cu:[[@LINE-1]]:3: atomics atomic shared 's' `atomicAdd(&s[(t % 32) * 32], 1u)` 32/1 bank-conflict
  // A store of the same lanes: one wavefront (a broadcast).
  s[t / 2] = 1u;
  // CHECK-DAG: atomics.cu:[[@LINE-1]]:3: atomics store shared 's' `s[t / 2]` 1/1 ok
  atomicAdd(&s[((t % 32) / 16) * 32], 1u);
  // CHECK-DAG: atomics.cu:[[@LINE-1]]:3: atomics atomic shared 's' `atomicAdd(&s[((t % 32) / 16) * 32], 1u)` 32/1 bank-conflict
  atomicAdd(&s[0], 1u);
  // CHECK-DAG: atomics.cu:[[@LINE-1]]:3: atomics atomic shared 's' `atomicAdd(&s[0], 1u)` ?/? unknown
  atomicAdd(&f[t], 1.0f);
  // CHECK-DAG: atomics.cu:[[@LINE-1]]:3: atomics atomic shared 'f' `atomicAdd(&f[t], 1.0f)` ?/? unknown
  // The compare-and-swap loop's first read of the word, once: a plain load.
  // CHECK-DAG: atomics.cu:[[@LINE-3]]:3: atomics load shared 'f' `atomicAdd(&f[t], 1.0f)` 1/1 ok
  atomicAdd(&w[t], 1ull);
  // CHECK-DAG: atomics.cu:[[@LINE-1]]:3: atomics atomic shared 'w' `atomicAdd(&w[t], 1ull)` ?/? unknown
  // CHECK-DAG: atomics.cu:[[@LINE-2]]:3: atomics load shared 'w' `atomicAdd(&w[t], 1ull)` 2/2 ok
  asm volatile("red.shared.add.u32 [%0], %1;" ::"r"(saddr(&s[t / 2])), "r"(t));
  // CHECK-DAG: atomics.cu:[[@LINE-1]]:53: atomics atomic shared 's' `saddr(&s[t / 2])` 2/1 bank-conflict
  asm volatile("red.shared.add.f32 [%0], %1;" ::"r"(saddr(&f[t])), "f"(1.0f));
  // CHECK-DAG: atomics.cu:[[@LINE-1]]:53: atomics atomic shared 'f' `saddr(&f[t])` ?/? unknown
  __syncthreads();
  out[t] = s[t];
  fout[t] = f[t];
  wout[t] = w[t];
}

int main() { atomics<<<1, 256>>>(nullptr, nullptr, nullptr); }
