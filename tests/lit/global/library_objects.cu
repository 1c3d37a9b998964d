// RUN: %lint --format=json %s | %records | FileCheck %s --implicit-check-not=unknown
// The C++ that template libraries (CuTe's tensors, pointers and tuples)
// build their index arithmetic from, followed as the compiler folds it:
// aggregates with bases, inherited constructors, scalars in braces,
// structured bindings, casts to a base, references a callee returns into a
// temporary its caller made, folded results that hold a shared address or
// fields of a base, and call chains deeper than 24. Each was once a
// 'not tracked' or 'not known' remark.

#include <utility>

template <class P, class Derived> struct adaptor {
  P ptr_;
  __device__ constexpr adaptor(P p = {}) : ptr_(p) {}
  __device__ constexpr auto &operator[](int i) const { return ptr_[i]; }
};
// An aggregate whose base takes the pointer (C++17 `tagged<P>{p}`).
template <class P> struct tagged : adaptor<P, tagged<P>> {};
// The base's constructors inherited.
template <class P> struct inherits : adaptor<P, inherits<P>> {
  using adaptor<P, inherits<P>>::adaptor;
};
template <class P> struct base2 { P q; };
template <class P> struct agg2 : base2<P> { int s; };

__global__ void bases(float *a, float *b, float *c) {
  auto A = tagged<float *>{a};
  A[threadIdx.x * 2] = 1.0f;
  // CHECK: library_objects.cu:[[@LINE-1]]:3: bases store global 'a' {{.*}} 8/4 uncoalesced
  agg2<float *> B{{b}, 3};
  B.q[threadIdx.x * B.s] = 2.0f;
  // CHECK: library_objects.cu:[[@LINE-1]]:3: bases store global 'b' {{.*}} 12/4 uncoalesced
  inherits<float *> C{c};
  C[threadIdx.x] = 3.0f;
  // CHECK: library_objects.cu:[[@LINE-1]]:3: bases store global 'c' {{.*}} 4/4 ok
}

// Scalars in braces: `first_{first}` for a pointer member, `int x{...}`.
struct holder {
  float *p_;
  int s_;
  __device__ constexpr holder(float *p, int s) : p_{p}, s_{s} {}
};
__global__ void braces(float *a) {
  holder h(a, 4);
  float *q{h.p_};
  int stride{h.s_};
  q[threadIdx.x * stride] = 1.0f;
  // CHECK: library_objects.cu:[[@LINE-1]]:3: braces store global 'a' {{.*}} 16/4 uncoalesced
}

// Structured bindings: of a struct, and of a tuple-like type whose get<I>
// returns references into it (the binding's own variable).
struct qr { int q, r; };
__device__ qr divmod(int n, int d) { return {n / d, n % d}; }
template <class A, class B> struct duo {
  A first;
  B second;
};
template <size_t I, class A, class B> __device__ auto &&get(duo<A, B> &&d) {
  if constexpr (I == 0)
    return static_cast<A &&>(d.first);
  else
    return static_cast<B &&>(d.second);
}
template <size_t I, class A, class B> __device__ auto &get(duo<A, B> &d) {
  if constexpr (I == 0)
    return d.first;
  else
    return d.second;
}
namespace std {
template <class A, class B> struct tuple_size<duo<A, B>> : integral_constant<size_t, 2> {};
template <class A, class B> struct tuple_element<0, duo<A, B>> { using type = A; };
template <class A, class B> struct tuple_element<1, duo<A, B>> { using type = B; };
} // namespace std
__device__ duo<int, float *> split(float *p, int n) { return {n % 8, p + n / 8 * 64}; }

__global__ void bindings(float *a, float *b) {
  // Four rows of eight lanes, 256 bytes apart: a sector each.
  auto [row, col] = divmod(threadIdx.x, 8);
  a[row * 64 + col] = 1.0f;
  // CHECK: library_objects.cu:[[@LINE-1]]:3: bindings store global 'a' {{.*}} 4/4 ok
  auto [off, base] = split(b, threadIdx.x);
  base[off] = 2.0f;
  // CHECK: library_objects.cu:[[@LINE-1]]:3: bindings store global 'b' {{.*}} 4/4 ok
}

// A cast to a base reference names the base part (`static_cast<Base &&>`).
struct inner { float *ptr; };
struct outer : inner { int pad; };
template <class S> __device__ float *&&ptr_of(S &&s) { return static_cast<S &&>(s).ptr; }
__global__ void base_casts(float *a) {
  outer o{{a}, 0};
  ptr_of(static_cast<inner &&>(o))[threadIdx.x] = 1.0f;
  // CHECK: library_objects.cu:[[@LINE-1]]:3: base_casts store global 'a' {{.*}} 4/4 ok
}

// A reference returned into a temporary the caller made: valid until the
// caller's full expression ends.
struct shape2 { int rows, cols; };
__device__ const int &cols_of(const shape2 &s) { return s.cols; }
__device__ shape2 make_shape2(int r, int c) { return {r, c}; }
__global__ void temporaries(float *a, int n) {
  a[threadIdx.x * cols_of(make_shape2(n, 3))] = 1.0f;
  // CHECK: library_objects.cu:[[@LINE-1]]:3: temporaries store global 'a' {{.*}} 12/4 uncoalesced
}

// Folded at compile time: a struct holding a shared array's address is
// followed (the address is the walk's), and the fields of a folded
// struct's bases are its own.
struct sptr {
  float *p;
};
__device__ constexpr sptr wrap(float *p) { return sptr{p}; }
struct extent { int n; };
struct extent2 : extent { int m; };
__device__ constexpr extent2 dims() { return extent2{{33}, 2}; }
__global__ void folded(float *out) {
  __shared__ float tile[32 * 33];
  wrap(tile).p[threadIdx.x * dims().n] = 0.0f;
  // CHECK: library_objects.cu:[[@LINE-1]]:3: folded store shared 'tile' {{.*}} 1/1 ok
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x * 32];
  // CHECK: library_objects.cu:[[@LINE-1]]:22: folded load shared 'tile' {{.*}} 32/1 bank-conflict
  // CHECK: library_objects.cu:[[@LINE-2]]:3: folded store global 'out' {{.*}} 4/4 ok
}

// Calls nested 30 deep (a recursive template, as tuple accessors are).
template <int N> __device__ int index_of(int i) {
  if constexpr (N == 0)
    return i * 2;
  else
    return index_of<N - 1>(i);
}
__global__ void deep(float *a) {
  a[index_of<30>(threadIdx.x)] = 1.0f;
  // CHECK: library_objects.cu:[[@LINE-1]]:3: deep store global 'a' {{.*}} 8/4 uncoalesced
}

void launch(float *a, float *b, float *c, int n) {
  bases<<<1, 32>>>(a, b, c);
  braces<<<1, 32>>>(a);
  bindings<<<1, 32>>>(a, b);
  base_casts<<<1, 32>>>(a);
  temporaries<<<1, 32>>>(a, n);
  folded<<<1, 32>>>(a);
  deep<<<1, 32>>>(a);
}
