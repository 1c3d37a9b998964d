// RUN: %lint --format=json %s | %records | grep -v negatives | FileCheck %s --implicit-check-not=unknown
// RUN: %lint --format=json %s | %records | grep negatives | FileCheck %s --check-prefix=NEG
// Values kept in per-thread arrays and in the fields of local objects are
// followed per lane where the subscript is the same on every lane (a
// constant, the counter of a loop run iteration by iteration), as nvcc
// keeps them in registers; through pointers into them too, and through
// reinterpret_cast views of their bytes (issue 38: CUTLASS fragments, CUB's
// per-thread items, Coord<N>'s idx[N]).

struct Coord2 {
  int idx[2];
  __device__ Coord2(int a, int b) { idx[0] = a; idx[1] = b; }
  __device__ int &operator[](int d) { return idx[d]; }
};
struct Offsets { int v[4]; };

__global__ void arrays(float *out, int ld) {
  // An initializer list, and elements assigned in a loop.
  int col[4] = {0, 8, 16, 24};
  int row[4];
  for (int i = 0; i < 4; ++i)
    row[i] = threadIdx.x / 8 + 4 * i;
#pragma unroll
  for (int i = 0; i < 4; ++i)
    out[row[i] * ld + col[i] + threadIdx.x % 8] = 1.0f;
  // CHECK: local_arrays_and_objects.cu:[[@LINE-1]]:5: arrays store global 'out' `out[row[i] * ld + col[i] + threadIdx.x % 8]` 4/4 ok
  // An array member set by a constructor, read through a returned reference.
  Coord2 c(threadIdx.x % 4, threadIdx.x / 4);
  out[c[1] * ld + c[0]] = 2.0f;
  // CHECK: local_arrays_and_objects.cu:[[@LINE-1]]:3: arrays store global 'out' `out[c[1] * ld + c[0]]` 8/4 uncoalesced
  // Written through a pointer to the array, read by name; `= {}` is zeros.
  Offsets o = {};
  int *p = o.v;
  p[2] = 2 * threadIdx.x;
  out[o.v[2] + o.v[3]] = 3.0f;
  // CHECK: local_arrays_and_objects.cu:[[@LINE-1]]:3: arrays store global 'out' `out[o.v[2] + o.v[3]]` 8/4 uncoalesced
  // The bytes of an int2 viewed as two ints.
  int2 pair = make_int2(threadIdx.x, 0);
  const int *words = reinterpret_cast<const int *>(&pair);
  out[words[0] + words[1]] = 4.0f;
  // CHECK: local_arrays_and_objects.cu:[[@LINE-1]]:3: arrays store global 'out' `out[words[0] + words[1]]` 4/4 ok
}

// What is not known stays unknown.
__global__ void negatives(float *out, const int *idx, int n) {
  // Lanes write different elements: no element is known afterwards.
  int sel[2] = {1, 2};
  sel[threadIdx.x % 2] = 7;
  out[sel[0] + threadIdx.x] = 1.0f;
  // NEG: local_arrays_and_objects.cu:[[@LINE-1]]:3: negatives store global 'out' `out[sel[0] + threadIdx.x]` ?/? unknown
  // A float written over an integer's bytes: the integer is gone.
  union { int i; float f; } u;
  u.i = threadIdx.x;
  u.f = 1.0f;
  out[u.i] = 2.0f;
  // NEG: local_arrays_and_objects.cu:[[@LINE-1]]:3: negatives store global 'out' `out[u.i]` ?/? unknown
  // Changed through a pointer in a loop whose trip count is not known: the
  // value at the start is not the value in later iterations.
  int acc[1] = {0};
  int *q = acc;
  for (int i = 0; i < n; ++i) {
    out[acc[0] + threadIdx.x] = 3.0f;
    // NEG: local_arrays_and_objects.cu:[[@LINE-1]]:5: negatives store global 'out' `out[acc[0] + threadIdx.x]` ?/? unknown
    q[0] += idx[threadIdx.x + i];
  }
}

int main(int argc, char **) {
  float *b;
  int *i;
  arrays<<<1, 32>>>(b, 1024);
  negatives<<<1, 32>>>(b, i, argc);
}
