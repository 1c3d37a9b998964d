// RUN: %lint --format=json %s | %records | FileCheck %s --implicit-check-not=unknown
// Constructors are entered: member initializers, base constructors,
// delegating constructors and default member initializers set the fields
// of the object, then the body runs (CUTLASS's iterators are built this
// way: issue 38).

struct Stride {
  int ld;
  __device__ explicit Stride(int l) : ld(l) {}
};
struct Walker : Stride {
  const float *ptr;
  int col = 0; // a default member initializer
  __device__ Walker(const float *p, int l, int row) : Stride(l), ptr(p + row * l) {}
  __device__ Walker(const float *p, int l) : Walker(p, l, threadIdx.x / 8) { col = threadIdx.x % 8; }
  __device__ float at(int k) const { return ptr[col + k * 8]; }
  __device__ void next() { ptr += 4 * ld; }
};

__global__ void ctors(const float *in, float *out, int ld) {
  // Rows of 8 floats, ld apart: 4 rows of one sector each.
  Walker w(in, ld);
  float a = w.at(0);
  // CHECK: constructors.cu:16:45: ctors load global 'in' `ptr[col + k * 8]` 4/4 ok [in 'at' called at constructors.cu:[[@LINE-1]]]
  w.next();
  a += w.at(1);
  // CHECK: constructors.cu:16:45: ctors load global 'in' `ptr[col + k * 8]` 4/4 ok [in 'at' called at constructors.cu:[[@LINE-1]]]
  // A temporary object: its fields are the constructor's.
  out[Walker(in, 1, threadIdx.x).ptr - in] = a;
  // CHECK: constructors.cu:[[@LINE-1]]:3: ctors store global 'out' `out[Walker(in, 1, threadIdx.x).ptr - in]` 4/4 ok
}

// A pointer-bumping iterator whose first step differs (a residue tile): the
// flag it clears is false in every later iteration, so the steps of the
// loop are fixed.
struct TileIter {
  const float *p;
  int stride;
  bool residue;
  __device__ TileIter(const float *base, int s) : p(base + threadIdx.x), stride(s), residue(true) {}
  __device__ TileIter &operator++() {
    if (residue)
      p += 2;
    else
      p += stride;
    residue = false;
    return *this;
  }
};

__global__ void residue(const float *in, float *out, int s, int n) {
  TileIter it(in, s);
  float acc = *it.p;
  // CHECK: constructors.cu:[[@LINE-1]]:15: residue load global 'in' `*it.p` 4/4 ok
  ++it;
  for (int i = 1; i < n; ++i) {
    acc += *it.p;
    // CHECK: constructors.cu:[[@LINE-1]]:12: residue load global 'in' `*it.p` 5/4 uncoalesced
    ++it;
  }
  out[threadIdx.x] = acc;
  // CHECK: constructors.cu:[[@LINE-1]]:3: residue store global 'out' `out[threadIdx.x]` 4/4 ok
}

int main() {
  float *a, *b;
  ctors<<<1, 32>>>(a, b, 1024);
  residue<<<1, 32>>>(a, b, 4096, 8);
}
