// The values of modern C++ kernels, written as our own kernels after the
// constructs of CUTLASS's iterators (issue 38): objects built by
// constructors (member initializers, base and delegating constructors,
// default member initializers), an iterator whose first step differs from
// the others (a residue tile, then a flag cleared for good), per-thread
// arrays and arrays inside objects indexed at compile-time subscripts, a
// kernel parameter struct with an array copied into a local object, methods
// called on temporaries, a condition on a float kernel parameter (the same
// on every lane), and a pointer parameter compared with nullptr.
#include "harness.cuh"

constexpr int N = 1 << 20;

struct Stride {
  int ld;
  __device__ explicit Stride(int l) : ld(l) {}
};
struct Walker : Stride {
  const float *ptr;
  int col = 0; // a default member initializer
  __device__ Walker(const float *p, int l, int row) : Stride(l), ptr(p + row * l) {}
  __device__ Walker(const float *p, int l) : Walker(p, l, threadIdx.x / 4) { col = threadIdx.x % 4; }
  __device__ float at(int k) const { return ptr[col + 4 * k]; } // expect: load in 8/4; load in 8/4
};

// Rows of 4 floats, ld floats apart: 8 rows of half a sector each.
__global__ void ctor_walker(const float *in, float *out, int ld) {
  Walker w(in + blockIdx.x * 8 * ld, ld);
  out[blockIdx.x * 32 + threadIdx.x] = w.at(0) + w.at(1); // expect: store out 4/4
}

// A pointer that steps 2 floats past the first tile, then `stride` floats:
// every later tile starts 8 bytes into a sector.
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

__global__ void residue_iter(const float *in, float *out, int n) {
  TileIter it(in + blockIdx.x * 32, 4096 * 32);
  float acc = *it.p; // expect: load in 4/4
  ++it;
  for (int i = 1; i < n; ++i) {
    acc += *it.p; // expect: load in 5/4
    ++it;
  }
  out[blockIdx.x * 32 + threadIdx.x] = acc; // expect: store out 4/4
}

struct Coord2 {
  int idx[2];
  __device__ Coord2(int a, int b) { idx[0] = a; idx[1] = b; }
  __device__ int &operator[](int d) { return idx[d]; }
  __device__ Coord2 transposed() const { return Coord2(idx[1], idx[0]); }
};
struct Extent {
  int idx[2];
};
struct Bounds {
  Extent e;
  __device__ explicit Bounds(Extent x) : e(x) {}
};

// Per-thread arrays and the array of an object at constant subscripts; a
// kernel parameter's array copied into a local object; a method of a
// temporary (`c.transposed()[0]`).
__global__ void local_arrays(float *out, Extent ext) {
  int col[4] = {0, 1, 2, 3};
  int row[4];
  for (int i = 0; i < 4; ++i)
    row[i] = threadIdx.x + 32 * i;
  float *o = out + blockIdx.x * 4 * ext.idx[0];
#pragma unroll
  for (int i = 0; i < 4; ++i)
    o[row[i] * 4 + col[i]] = 1.0f; // expect: store out 16/4
  Coord2 c(threadIdx.x % 8, threadIdx.x / 8);
  Bounds b(ext);
  out[blockIdx.x * 256 + c[1] * b.e.idx[1] + c.transposed()[1]] = 2.0f; // expect: store out 4/4
}

// `if (beta != 0)` with beta a float kernel parameter: every lane takes the
// same side; the load under it reads every second float.
__global__ void uniform_float(const float *c, float *out, float beta, const float *alpha) {
  const int i = blockIdx.x * 32 + threadIdx.x;
  float acc = 1.0f;
  if (alpha != nullptr)
    acc = *alpha; // expect: load alpha 1/1
  if (beta != 0.0f)
    acc += beta * c[2 * i]; // expect: load c 8/4
  out[i] = acc; // expect: store out 4/4
}

int main(int argc, char **argv) {
  const int blocks = N / 256;
  const int n = sample::runtime_size("n", argc, argv, 1, 8);
  float *a = sample::alloc<float>(4 * N + 64);
  float *out = sample::alloc<float>(4 * N + 64);
  float *alpha = sample::alloc<float>(1);
  const double B = double(N) * 4;
  sample::run("ctor_walker", B, [&] { ctor_walker<<<blocks, 32>>>(a, out, 64); });
  sample::run("residue_iter", B, [&] { residue_iter<<<8, 32>>>(a, out, n); });
  Extent ext = {{32, 8}};
  sample::run("local_arrays", B, [&] { local_arrays<<<blocks / 8, 32>>>(out, ext); });
  sample::run("uniform_float", B, [&] { uniform_float<<<blocks, 32>>>(a, out, 0.5f, alpha); });
  return 0;
}
