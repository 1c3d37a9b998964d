// Index arithmetic written the way template libraries (CuTe's tensors,
// pointers and tuples) write it: a pointer wrapper that is an aggregate with
// a base or inherits its base's constructors, members set in braces, a
// tuple-like coordinate taken apart by a structured binding, a cast to a
// base, a reference a helper returns into a temporary, a shared tile's
// address folded through a constexpr function, and a stride that is a
// quotient of a run-time size (llama.cpp's `nb11 / sizeof(half2)`). The
// analysis once answered every access here "not tracked" or "not known";
// the expectations were written from the tool's answers before the
// measurement.
#include "harness.cuh"

#include <utility>

template <class P, class Derived> struct adaptor {
  P ptr_;
  __device__ constexpr adaptor(P p = {}) : ptr_{p} {}
  __device__ constexpr auto &operator[](int i) const { return ptr_[i]; }
};
template <class P> struct gptr : adaptor<P, gptr<P>> {
  using adaptor<P, gptr<P>>::adaptor;
};
template <class P> struct sptr : adaptor<P, sptr<P>> {};
template <class P> __device__ constexpr sptr<P> make_sptr(P p) { return sptr<P>{p}; }

// A coordinate pair, tuple-like: get<I> returns references into it.
template <class A, class B> struct pair2 {
  A first;
  B second;
};
template <size_t I, class A, class B> __device__ auto &&get(pair2<A, B> &&p) {
  if constexpr (I == 0)
    return static_cast<A &&>(p.first);
  else
    return static_cast<B &&>(p.second);
}
namespace std {
template <class A, class B> struct tuple_size<pair2<A, B>> : integral_constant<size_t, 2> {};
template <class A, class B> struct tuple_element<0, pair2<A, B>> { using type = A; };
template <class A, class B> struct tuple_element<1, pair2<A, B>> { using type = B; };
} // namespace std

struct extent { int rows; };
struct layout2 : extent {
  int ld;
};
__device__ constexpr layout2 tile_layout() { return layout2{{32}, 33}; }
__device__ pair2<int, int> coord_of(int t, int width) { return {t / width, t % width}; }
__device__ const int &ld_of(const layout2 &l) { return l.ld; }

// A 32x32 tile through the wrappers: read by rows (lanes along a row),
// written by columns (lanes down a column, 32 floats apart), staged through
// a padded shared tile whose address a constexpr function folds.
__global__ void wrapped_transpose(const float *in, float *out, int n) {
  __shared__ float tile[32 * 33];
  gptr<const float *> src{in};
  auto dst = gptr<float *>{out};
  auto s = make_sptr(&tile[0]);
  const int bx = blockIdx.x * 32, by = blockIdx.y * 32;
  for (int i = 0; i < 32; i += 8) {
    auto [r, c] = coord_of(threadIdx.x + (threadIdx.y + i) * 32, 32);
    s[r * tile_layout().ld + c] = src[(by + r) * n + bx + c]; // expect: load in 4/4; store tile 1/1
  }
  __syncthreads();
  for (int i = 0; i < 32; i += 8) {
    auto [r, c] = coord_of(threadIdx.x + (threadIdx.y + i) * 32, 32);
    dst[(bx + r) * n + by + c] = s[c * ld_of(tile_layout()) + r]; // expect: load tile 1/1; store out 4/4
  }
}

// The same tile without the padding, read down its columns: 32 lanes in
// one bank. The column stride comes through a cast to the base.
__global__ void unpadded_columns(const float *in, float *out, int n) {
  __shared__ float tile[32 * 32];
  auto s = make_sptr(&tile[0]);
  const layout2 l{{32}, 32};
  const int rows = static_cast<const extent &>(l).rows;
  const int t = threadIdx.x + threadIdx.y * 32;
  s[t] = in[blockIdx.x * 1024 + t]; // expect: load in 4/4; store tile 1/1
  __syncthreads();
  out[blockIdx.x * 1024 + t] = s[threadIdx.x * rows + threadIdx.y]; // expect: load tile 32/1; store out 4/4
}

// Rows of 16 int4 (256 bytes) at a stride given in bytes and divided in the
// kernel: two rows a warp. The headline is the case of an even nb/16 (16
// sectors); this run's nb = 4112 gives nb/16 = 257, whose second row starts
// 16 bytes past a sector: 8 + 9 = 17 sectors, the case verify compares.
__global__ void byte_stride_rows(const int4 *kv, int4 *out, int nb) {
  const int stride = nb / 16;
  const int row = blockIdx.x * 2 + threadIdx.x / 16, col = threadIdx.x % 16;
  out[blockIdx.x * 32 + threadIdx.x] = kv[row * stride + col]; // expect: load kv 16/16; store out 16/16
}

// A rounded-up quotient as the distance between lanes: (len + 31) / 32 floats.
__global__ void rounded_stride(const float *a, float *out, int len) {
  const int stride = (len + 31) / 32;
  out[blockIdx.x * 32 + threadIdx.x] = a[(blockIdx.x * 32 + threadIdx.x) * stride]; // expect: load a 32/4; store out 4/4
}

int main(int argc, char **argv) {
  const int n = 2048;
  const int nb = sample::runtime_size("nb", argc, argv, 1, 4112);
  const int len = sample::runtime_size("len", argc, argv, 2, 1000);
  float *in = sample::alloc<float>(size_t(n) * n);
  float *out = sample::alloc<float>(size_t(n) * n);
  const int rows = 4096;
  int4 *kv = sample::alloc<int4>(size_t(rows) * (nb / 16) + 16);
  int4 *kout = sample::alloc<int4>(size_t(rows) * 16);
  const int warps = 4096;
  float *a = sample::alloc<float>(size_t(warps) * 32 * ((len + 31) / 32) + 32);
  sample::run("wrapped_transpose", 2.0 * n * n * sizeof(float),
              [&] { wrapped_transpose<<<dim3(n / 32, n / 32), dim3(32, 8)>>>(in, out, n); });
  sample::run("unpadded_columns", 2.0 * n * n * sizeof(float),
              [&] { unpadded_columns<<<n * n / 1024, dim3(32, 32)>>>(in, out, n); });
  sample::run("byte_stride_rows", 2.0 * rows * 16 * sizeof(int4),
              [&] { byte_stride_rows<<<rows / 2, 32>>>(kv, kout, nb); });
  sample::run("rounded_stride", 2.0 * warps * 32 * sizeof(float),
              [&] { rounded_stride<<<warps, 32>>>(a, out, len); });
  cudaFree(in);
  cudaFree(out);
  cudaFree(kv);
  cudaFree(kout);
  cudaFree(a);
  return 0;
}
