// RUN: %lint --format=json %s | %records | grep -v branches | FileCheck %s --implicit-check-not=unknown
// RUN: %lint --format=json %s | %records | FileCheck %s --check-prefix=BR
// Fields of struct values are followed per lane as the compiler keeps them
// in registers: a struct returned by a helper (ggml's fast_div_modulo
// returns make_uint2(q, r)), built by an initializer list, copied, assigned,
// passed by value, or a field of a temporary (`f().q`). The fields were
// once 'not tracked' unless the kernel assigned them one by one (issue 37:
// about 8,700 ggml accesses).

struct pair_t { int q, r; };
struct nested { pair_t a; int w; };
__device__ uint2 divmod(unsigned n, unsigned d) { return make_uint2(n / d, n % d); }
__device__ pair_t pr(int n) {
  pair_t p = {n / 4, n % 4};
  return p;
}
__device__ int use(pair_t p) { return p.q * 32 + p.r; }

__global__ void fields(const float *in, float *out) {
  // A uniform quotient and remainder: row and column of a tile.
  const uint2 t = divmod(blockIdx.x, 8);
  out[t.x * 256 + threadIdx.x] = in[t.y * 32 + threadIdx.x];
  // CHECK: struct_values.cu:[[@LINE-1]]:34: fields load global 'in' `in[t.y * 32 + threadIdx.x]` 4/4 ok
  // CHECK: struct_values.cu:[[@LINE-2]]:3: fields store global 'out' `out[t.x * 256 + threadIdx.x]` 4/4 ok
  // Assigned from a call: lanes 0..31 permuted over 32 floats.
  uint2 u;
  u = divmod(threadIdx.x, 4);
  out[u.x + u.y * 8] = 1.0f;
  // CHECK: struct_values.cu:[[@LINE-1]]:3: fields store global 'out' `out[u.x + u.y * 8]` 4/4 ok
  // A copy: groups of 4 lanes, 128 bytes apart.
  pair_t p = pr(threadIdx.x);
  pair_t p2 = p;
  out[p2.q * 32 + p2.r] = 2.0f;
  // CHECK: struct_values.cu:[[@LINE-1]]:3: fields store global 'out' `out[p2.q * 32 + p2.r]` 8/4 uncoalesced
  // Nested initializer lists: lanes 12 bytes apart.
  nested n = {{(int)threadIdx.x, 1}, 3};
  out[n.a.q * n.w] = 3.0f;
  // CHECK: struct_values.cu:[[@LINE-1]]:3: fields store global 'out' `out[n.a.q * n.w]` 12/4 uncoalesced
  // Passed by value, and a field of a temporary.
  out[use(pr(threadIdx.x))] = 4.0f;
  // CHECK: struct_values.cu:[[@LINE-1]]:3: fields store global 'out' `out[use(pr(threadIdx.x))]` 8/4 uncoalesced
  out[pr(threadIdx.x).q] = 5.0f;
  // CHECK: struct_values.cu:[[@LINE-1]]:3: fields store global 'out' `out[pr(threadIdx.x).q]` 1/1 ok
}

// A struct declared in a loop starts with nothing known in each iteration;
// one whose fields depend on the branch taken keeps what both sides agree
// on.
__global__ void per_iteration(float *out, int n) {
  for (int k = 0; k < 4; ++k) {
    pair_t s = {k, (int)threadIdx.x};
    if (threadIdx.x < 16)
      s.q = 0;
    out[s.r + 32 * k] = 6.0f;
    // CHECK: struct_values.cu:[[@LINE-1]]:5: per_iteration store global 'out' `out[s.r + 32 * k]` 4/4 ok
  }
}

// After a branch whose sides both run (on data, or uniform but unknown): a
// field both sides agree on keeps its value, one they set to different
// uniform values is a uniform value of the branch, others are not known.
__global__ void branches(const int *flag, float *out) {
  pair_t s = {(int)threadIdx.x, 0};
  if (flag[threadIdx.x])
    s.q = 2 * threadIdx.x;
  out[s.q] = 1.0f;
  // BR: struct_values.cu:[[@LINE-1]]:3: branches store global 'out' `out[s.q]` ?/? unknown
  pair_t u = {(int)threadIdx.x, 0};
  if (flag[0])
    u.r = 5;
  else
    u.r = 7;
  out[u.q + 32 * u.r] = 1.0f;
  // BR: struct_values.cu:[[@LINE-1]]:3: branches store global 'out' `out[u.q + 32 * u.r]` 4/4 ok
}

void launch(const float *in, float *out, const int *flag) {
  fields<<<16, 32>>>(in, out);
  per_iteration<<<1, 32>>>(out, 4);
  branches<<<1, 32>>>(flag, out);
}
