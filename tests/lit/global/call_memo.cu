// Calls answered from the memo (interp/CallMemo.cpp): a call that reads
// only its arguments and changes nothing is walked once per argument
// values. The records are those of the walk of every call, byte for byte:
// each kernel below is a shape where a memo could go wrong (an object that
// changes between calls, a method that changes its object, a helper that
// reads memory, a returned reference, a branch inside the helper that ends
// the compiler's merge window, calls in a summarised loop).
// RUN: %lint --format=json --call-memo=off %s > %t.off.json
// RUN: %lint --format=json %s > %t.on.json
// RUN: diff %t.off.json %t.on.json
// RUN: %lint --call-memo=off %s > %t.off.txt
// RUN: %lint %s > %t.on.txt
// RUN: diff %t.off.txt %t.on.txt
// RUN: %lint %s | FileCheck %s
// RUN: not %lint --call-memo=maybe %s 2>&1 | FileCheck %s --check-prefix=BAD
// UNSUPPORTED: tidy
// BAD: --call-memo needs on or off

struct Coord {
  int r, c;
};
__device__ int flat(const Coord &p, int w) { return p.r * w + p.c; }

// The same object twice (the second call is the memo's), then changed: a
// new key.
// CHECK-DAG: call_memo.cu:[[@LINE+5]]:10: warning: global load from 'x' uses 32 sectors per request (ideal 4): lanes are 4096 bytes apart
// CHECK-DAG: call_memo.cu:[[@LINE+7]]:23: warning: global load from 'x' uses 32 sectors per request (ideal 4): lanes are 32 bytes apart
__global__ void struct_index(const float *x, float *o, int w) {
  Coord p{int(threadIdx.x), 0};
  int a = flat(p, w);
  o[a] = x[flat(p, w)];
  p.r = 0;
  p.c = threadIdx.x * 8;
  o[flat(p, w) + 1] = x[flat(p, w)];
}

struct Cursor {
  int at;
  __device__ int next() { return at++; }
  __device__ int &ref() { return at; }
};

// A method that changes its object is walked at every call; one that only
// returns a reference to it is kept.
// CHECK-DAG: call_memo.cu:[[@LINE+6]]:13: warning: global load from 'x' uses 16 sectors per request (ideal 4)
// CHECK-DAG: call_memo.cu:[[@LINE+6]]:8: warning: global load from 'x' uses 16 sectors per request (ideal 4)
// CHECK-DAG: call_memo.cu:[[@LINE+7]]:3: warning: global store to 'o' uses 17 sectors per request (ideal 4)
// CHECK-DAG: call_memo.cu:[[@LINE+7]]:3: warning: global store to 'o' uses 17 sectors per request (ideal 4)
__global__ void cursor(const float *x, float *o) {
  Cursor c{int(threadIdx.x) * 4};
  float s = x[c.next()];
  s += x[c.next()];
  c.ref() += 1;
  o[c.ref()] = s;
  o[c.ref() + 1] = s;
}

// A helper that reads memory is walked at every call: both loads of `idx`.
__device__ int load_idx(const int *idx, int i) { return idx[i]; }
// CHECK-DAG: call_memo.cu:[[@LINE+4]]:10: remark: global load from 'x' cannot be predicted: depends on data loaded by `idx[i]`
// CHECK-DAG: call_memo.cu:[[@LINE+3]]:32: remark: global load from 'x' cannot be predicted: depends on data loaded by `idx[i]`
__global__ void gathered(const int *idx, const float *x, float *o) {
  int t = threadIdx.x;
  o[t] = x[load_idx(idx, t)] + x[load_idx(idx, t)];
}

// A tuple-like pair read through getters that return references.
template <class A, class B> struct pr {
  A a;
  B b;
};
template <int I, class A, class B> __device__ const auto &get(const pr<A, B> &p) {
  if constexpr (I == 0)
    return p.a;
  else
    return p.b;
}
// CHECK-DAG: call_memo.cu:[[@LINE+4]]:47: warning: global load from 'x' uses 32 sectors per request (ideal 4): lanes are 4096 bytes apart
__global__ void tuple_rows(const float *x, float *o, int w) {
  pr<int, int> rc{int(threadIdx.x), int(blockIdx.x)};
  for (int k = 0; k < 40; k++)
    o[get<1>(rc) * w + get<0>(rc) + k * 32] = x[get<0>(rc) * w + k];
}

// A branch inside a helper ends the window in which ptxas merges adjacent
// shared loads: the memo's answer ends it too.
__device__ int pick(int a, int b) {
  if (a > b)
    return a;
  return b;
}
// CHECK-DAG: call_memo.cu:[[@LINE+8]]:13: warning: shared load from 's' has a 2-way bank conflict
// CHECK-DAG: call_memo.cu:[[@LINE+12]]:13: remark: shared load from 's' cannot be predicted: ptxas may merge it with `s[2 * t]` (line [[@LINE+13]])
__global__ void window(float *o) {
  __shared__ float s[512];
  int t = threadIdx.x;
  s[t] = t;
  s[t + 256] = t;
  __syncthreads();
  float a = s[2 * t];
  int k = pick(3, 5);
  float b = s[2 * t + 1];
  float c = s[2 * t];
  int k2 = pick(3, 5);
  float d = s[2 * t + 1];
  float e = s[2 * t];
  float f = s[2 * t + 1];
  o[t] = a + b + c + d + e + f + k + k2;
}

void launch(const float *x, float *o, const int *idx) {
  struct_index<<<4, 32>>>(x, o, 1024);
  cursor<<<4, 32>>>(x, o);
  gathered<<<4, 32>>>(idx, x, o);
  tuple_rows<<<4, 32>>>(x, o, 1024);
  window<<<1, 256>>>(o);
}
