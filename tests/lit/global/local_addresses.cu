// RUN: %lint %s | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint --format=json %s | %records | FileCheck %s --check-prefix=REC \
// RUN:   --implicit-check-not=' load ' --implicit-check-not=' store '
// A pointer to a local variable, a local object's `this` or a temporary
// points to no memory a load or store instruction reaches (the values live
// in registers): accesses through it are not reported; reads and writes
// through it are the variable's. std::move and std::forward give their argument;
// std::min and std::max read each operand once and give their value.
// A bit-field or an array inside a local object is in registers too.

#include <algorithm>
#include <utility>

struct Pair {
  float a, b;
  __device__ float sum() const { return a + b; }
  __device__ float first() const { return *reinterpret_cast<const float *>(this); }
};

__device__ void put(float *dst, float v) { *dst = v; }

__global__ void locals(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t;
  float *p = &t;
  *p = in[i];
  // REC: [[#@LINE-1]]:8: locals load global 'in' `in[i]` 4/4 ok{{$}}
  out[i] = *p;
  // REC-NEXT: [[#@LINE-1]]:3: locals store global 'out' `out[i]` 4/4 ok{{$}}
  Pair q = {in[i], 1.0f};
  // REC-NEXT: [[#@LINE-1]]:13: locals load global 'in' `in[i]` 4/4 ok{{$}}
  out[i + 32] = q.sum() + q.first();
  // REC-NEXT: [[#@LINE-1]]:3: locals store global 'out' `out[i + 32]` 4/4 ok{{$}}
  float u;
  put(&u, 2.0f);
  out[i + 64] = std::move(u);
  // REC-NEXT: [[#@LINE-1]]:3: locals store global 'out' `out[i + 64]` 4/4 ok{{$}}

  // A store through a pointer to a local variable is a store to it; one
  // that writes a part of it leaves it unknown.
  int x = i;
  int *px = &x;
  *px = 2 * i;
  out[*px] = 0;
  // CHECK: :[[@LINE-1]]:3: warning: global store to 'out' uses 8 sectors per request (ideal 4)
  // REC-NEXT: [[#@LINE-2]]:3: locals store global 'out' `out[*px]` 8/4 uncoalesced{{$}}
  *reinterpret_cast<char *>(px) = 1;
  out[x] = 0;
  // CHECK: :[[@LINE-1]]:3: remark: global store to 'out' cannot be predicted: 'x' is changed through a pointer at line [[#@LINE-2]]
  // REC-NEXT: [[#@LINE-2]]:3: locals store global 'out' `out[x]` ?/? unknown{{$}}

  // std::min of indices: a value, not a reference to a temporary.
  int m = std::min(i, n - 1);
  out[m] = std::max(in[i], 0.0f);
  // REC-NEXT: [[#@LINE-1]]:21: locals load global 'in' `in[i]` 4/4 ok{{$}}
  // REC-NEXT: [[#@LINE-2]]:3: locals store global 'out' `out[m]` 4/4 ok{{$}}
}

// A bit-field of a local object is in registers; one in memory is an access
// whose address is not modelled.
struct Bits {
  unsigned low : 4, high : 4;
};

__global__ void bits(Bits *flags, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Bits b;
  b.low = i & 15;
  b.high = 1;
  out[i] = b.low + b.high;
  // REC-NEXT: [[#@LINE-1]]:3: bits store global 'out' `out[i]` 4/4 ok{{$}}
  flags[i].high = 2;
  // CHECK: :[[@LINE-1]]:3: remark: global store to 'flags[i].high' cannot be predicted: bit-field access
  // REC-NEXT: [[#@LINE-2]]:3: bits store global 'flags[i].high' `flags[i].high` ?/? unknown{{$}}
}

// An array inside a local object (a packed vector, a wmma fragment) is in
// registers. A builtin that reads no memory is no access to its argument.
struct Packed {
  float v[4];
  __device__ float &operator[](int k) { return v[k]; }
};

__global__ void packed(const float4 *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Packed p;
  for (int k = 0; k < 4; k++)
    p[k] = 0.0f;
  p.v[1] = in[i].y;
  // REC-NEXT: [[#@LINE-1]]:12: packed load global 'in' `in[i].y` 16/4 uncoalesced{{$}}
  // CHECK: :[[@LINE-2]]:12: warning: global load from 'in' uses 16 sectors per request (ideal 4)
  bool global = __nvvm_isspacep_global(out);
  out[i] = p[0] + p[1] + global;
  // REC-NEXT: [[#@LINE-1]]:3: packed store global 'out' `out[i]` 4/4 ok{{$}}
}

int main() {
  float *a;
  float4 *a4;
  packed<<<64, 256>>>(a4, a);
  Bits *f;
  locals<<<64, 256>>>(a, a, 1 << 14);
  bits<<<64, 256>>>(f, a);
}
