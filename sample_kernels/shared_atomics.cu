// Atomics on shared memory (ATOMS), by atomicAdd and inline PTX (atom/red.shared),
// measured on an H100 (tests/verify/fixtures/h100): lanes on one word are served
// one by one, not shared as a load's are: the most lanes on one bank
// (model/Instructions.h). Each pattern in its own kernel.
#include "harness.cuh"

__device__ __forceinline__ unsigned shared_address(const void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// Every lane its own word, 32 banks: one wavefront.
__global__ void add_own_word(unsigned *out) {
  __shared__ unsigned s[256];
  int t = threadIdx.x;
  s[t] = 0; // expect: store s 1/1
  __syncthreads();
  atomicAdd(&s[t], unsigned(t)); // expect: atomic s 1/1
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[t]; // expect: load s 1/1; store out 4/4
}

// Lanes 32 words apart: one bank, 32 addresses.
__global__ void add_one_bank(unsigned *out) {
  __shared__ unsigned s[1024];
  int t = threadIdx.x;
  for (int k = t; k < 1024; k += 256)
    s[k] = 0; // expect: store s 1/1
  __syncthreads();
  atomicAdd(&s[(t % 32) * 32], unsigned(t)); // expect: atomic s 32/1
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[t]; // expect: load s 1/1; store out 4/4
}

// Every lane the same word.
__global__ void add_same_word(unsigned *out) {
  __shared__ unsigned s[256];
  int t = threadIdx.x;
  s[t] = 0; // expect: store s 1/1
  __syncthreads();
  atomicAdd(&s[0], unsigned(t)); // measured: 1/1, one predicated ATOMS (nvcc combines the warp's) // expect: atomic s unknown
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[t]; // expect: load s 1/1; store out 4/4
}

// Pairs of lanes on one word.
__global__ void add_pairs(unsigned *out) {
  __shared__ unsigned s[256];
  int t = threadIdx.x;
  s[t] = 0; // expect: store s 1/1
  __syncthreads();
  atomicAdd(&s[t / 2], unsigned(t)); // measured: 2/1 (a store of these lanes: 1/1) // expect: atomic s 2/1
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[t]; // expect: load s 1/1; store out 4/4
}

// Four lanes on each word, eight words in eight banks.
__global__ void add_quads(unsigned *out) {
  __shared__ unsigned s[256];
  int t = threadIdx.x;
  s[t] = 0; // expect: store s 1/1
  __syncthreads();
  atomicAdd(&s[t / 4], unsigned(t)); // expect: atomic s 4/1
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[t]; // expect: load s 1/1; store out 4/4
}

// Half-warps on two words of one bank (16 lanes each).
__global__ void add_two_words_one_bank(unsigned *out) {
  __shared__ unsigned s[256];
  int t = threadIdx.x;
  s[t] = 0; // expect: store s 1/1
  __syncthreads();
  atomicAdd(&s[((t % 32) / 16) * 32], unsigned(t)); // expect: atomic s 32/1
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[t]; // expect: load s 1/1; store out 4/4
}

// One word per warp, the index from threadIdx (t / 32): the same for the
// warp's lanes, which nvcc cannot prove.
__global__ void add_warp_word(unsigned *out) {
  __shared__ unsigned s[256];
  int t = threadIdx.x;
  s[t] = 0; // expect: store s 1/1
  __syncthreads();
  atomicAdd(&s[t / 32], unsigned(t)); // measured: 32/1, 32 ATOMS (nvcc cannot prove the word the same for all lanes) // expect: atomic s unknown
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[t]; // expect: load s 1/1; store out 4/4
}

// Two lanes on each word, the pairs' words in one bank two by two (lanes
// 0-1 and 2-3 on words 0 and 32).
__global__ void add_pairs_two_banks(unsigned *out) {
  __shared__ unsigned s[1024];
  int t = threadIdx.x;
  for (int k = t; k < 1024; k += 256)
    s[k] = 0; // expect: store s 1/1
  __syncthreads();
  int l = t % 32;
  atomicAdd(&s[(l / 4) + ((l / 2) % 2) * 32], unsigned(t)); // expect: atomic s 4/1
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[t]; // expect: load s 1/1; store out 4/4
}

// 64-bit words, each lane its own.
__global__ void add_own_u64(unsigned long long *out) {
  __shared__ unsigned long long s[256];
  int t = threadIdx.x;
  s[t] = 0; // expect: store s 2/2
  __syncthreads();
  atomicAdd(&s[t], (unsigned long long)t); // measured: 4/4 and an LDS.64 2/2 (a compare-and-swap loop) // expect: atomic s unknown; load s 2/2
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[t]; // expect: load s 2/2; store out 8/8
}

// Floats, each lane its own word.
__global__ void add_own_float(float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = 0; // expect: store s 1/1
  __syncthreads();
  atomicAdd(&s[t], float(t)); // measured: 2/2 and an LDS 1/1 (a compare-and-swap loop) // expect: atomic s unknown; load s 1/1
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[t]; // expect: load s 1/1; store out 4/4
}

// The same in inline PTX: red.shared (no result), atom.shared (a result).
__global__ void ptx_red_one_bank(unsigned *out) {
  __shared__ unsigned s[1024];
  int t = threadIdx.x;
  for (int k = t; k < 1024; k += 256)
    s[k] = 0; // expect: store s 1/1
  __syncthreads();
  asm volatile("red.shared.add.u32 [%0], %1;" ::"r"(shared_address(&s[(t % 32) * 32])), "r"(t)); // expect: atomic s 32/1
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[t]; // expect: load s 1/1; store out 4/4
}

__global__ void ptx_atom_own_word(unsigned *out) {
  __shared__ unsigned s[256];
  int t = threadIdx.x;
  s[t] = 0; // expect: store s 1/1
  __syncthreads();
  unsigned old;
  asm volatile("atom.shared.add.u32 %0, [%1], %2;" : "=r"(old) : "r"(shared_address(&s[t])), "r"(t)); // expect: atomic s 1/1
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[t] + old; // expect: load s 1/1; store out 4/4
}

int main() {
  const int blocks = 512, n = blocks * 256;
  unsigned *u = sample::alloc<unsigned>(n);
  unsigned long long *u64 = sample::alloc<unsigned long long>(n);
  float *f = sample::alloc<float>(n);
  sample::run("add_own_word", n * 4.0, [&] { add_own_word<<<blocks, 256>>>(u); });
  sample::run("add_one_bank", n * 4.0, [&] { add_one_bank<<<blocks, 256>>>(u); });
  sample::run("add_same_word", n * 4.0, [&] { add_same_word<<<blocks, 256>>>(u); });
  sample::run("add_pairs", n * 4.0, [&] { add_pairs<<<blocks, 256>>>(u); });
  sample::run("add_quads", n * 4.0, [&] { add_quads<<<blocks, 256>>>(u); });
  sample::run("add_two_words_one_bank", n * 4.0, [&] { add_two_words_one_bank<<<blocks, 256>>>(u); });
  sample::run("add_warp_word", n * 4.0, [&] { add_warp_word<<<blocks, 256>>>(u); });
  sample::run("add_pairs_two_banks", n * 4.0, [&] { add_pairs_two_banks<<<blocks, 256>>>(u); });
  sample::run("add_own_u64", n * 8.0, [&] { add_own_u64<<<blocks, 256>>>(u64); });
  sample::run("add_own_float", n * 4.0, [&] { add_own_float<<<blocks, 256>>>(f); });
  sample::run("ptx_red_one_bank", n * 4.0, [&] { ptx_red_one_bank<<<blocks, 256>>>(u); });
  sample::run("ptx_atom_own_word", n * 4.0, [&] { ptx_atom_own_word<<<blocks, 256>>>(u); });
  return 0;
}
