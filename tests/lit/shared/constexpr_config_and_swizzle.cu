// RUN: %lint --format=json %s | %records | FileCheck %s --implicit-check-not=unknown
// Issue 38: a configuration struct returned by a constexpr function of
// template parameters (ggml's ggml_cuda_fattn_mma_get_config(...).nbatch_fa),
// `if constexpr` on it, and a CuTe-style layout: shape and stride as
// compile-time types, composed with a Swizzle<B, M, S> (the XOR of bits
// [M+S, M+S+B) into bits [M, M+B)), through ordinary member calls and
// operator overloads. clang evaluates the constexpr calls; the walk follows
// the rest per lane.

struct fattn_config {
  int nbatch_fa, nstages, row_stride;
};
template <int D> constexpr fattn_config get_config() {
  return D <= 64 ? fattn_config{32, 1, 64} : fattn_config{64, 2, 132};
}

template <int D> __global__ void config_tile(const float *in, float *out) {
  __shared__ float tile[64 * 132];
  constexpr fattn_config c = get_config<D>();
  const int r = threadIdx.x / 8, q = threadIdx.x % 8;
  if constexpr (get_config<D>().nstages > 1)
    tile[r * c.row_stride + q] = in[blockIdx.x * c.nbatch_fa + threadIdx.x];
  else
    tile[r * get_config<D>().row_stride + q] = in[threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 32 + threadIdx.x] = tile[threadIdx.x * c.row_stride];
}

// CuTe-style: compile-time integers as types, a layout as shape and stride,
// a swizzle as a functor.
template <int N> struct Int { static constexpr int value = N; constexpr operator int() const { return N; } };
template <class A, class B> struct Pair { A a; B b; };
template <class Shape, class Stride> struct Layout {
  Shape shape;
  Stride stride;
  __device__ int operator()(int row, int col) const { return row * stride.a + col * stride.b; }
};
template <int B, int M, int S> struct Swizzle {
  __device__ int operator()(int offset) const {
    const int mask = ((1 << B) - 1) << (M + S);
    return offset ^ ((offset & mask) >> S);
  }
};
template <class Sw, class L> struct ComposedLayout {
  Sw sw;
  L layout;
  __device__ int operator()(int row, int col) const { return sw(layout(row, col)); }
};

__global__ void swizzled_transpose(const float *in, float *out) {
  __shared__ float smem[32 * 32];
  using RowMajor = Layout<Pair<Int<32>, Int<32>>, Pair<Int<32>, Int<1>>>;
  const RowMajor plain{};
  const ComposedLayout<Swizzle<5, 0, 5>, RowMajor> swizzled{};
  for (int row = 0; row < 32; ++row)
    smem[swizzled(row, threadIdx.x)] = in[row * 32 + threadIdx.x];
  __syncthreads();
  // Reading a column: without the swizzle every lane is in bank 0.
  for (int col = 0; col < 32; ++col)
    out[col * 32 + threadIdx.x] = smem[swizzled(threadIdx.x, col)] + smem[plain(threadIdx.x, col)];
}

// Config: rows of 132 floats put four rows' first 8 words in 2 banks each
// (2 ways), a column of them in 8 banks (4 ways); of 64 floats, in one bank.
// Swizzled: row r's column c at c ^ r, one bank per lane either way.
// CHECK: constexpr_config_and_swizzle.cu:22:34: config_tile<128> load global 'in' `in[blockIdx.x * c.nbatch_fa + threadIdx.x]` 4/4 ok
// CHECK: constexpr_config_and_swizzle.cu:22:5: config_tile<128> store shared 'tile' `tile[r * c.row_stride + q]` 2/1 bank-conflict
// CHECK: constexpr_config_and_swizzle.cu:26:40: config_tile<128> load shared 'tile' `tile[threadIdx.x * c.row_stride]` 4/1 bank-conflict
// CHECK: constexpr_config_and_swizzle.cu:26:3: config_tile<128> store global 'out' `out[blockIdx.x * 32 + threadIdx.x]` 4/4 ok
// CHECK: constexpr_config_and_swizzle.cu:24:48: config_tile<32> load global 'in' `in[threadIdx.x]` 4/4 ok
// CHECK: constexpr_config_and_swizzle.cu:24:5: config_tile<32> store shared 'tile' `tile[r * get_config<D>().row_stride + q]` 4/1 bank-conflict
// CHECK: constexpr_config_and_swizzle.cu:26:40: config_tile<32> load shared 'tile' `tile[threadIdx.x * c.row_stride]` 32/1 bank-conflict
// CHECK: constexpr_config_and_swizzle.cu:26:3: config_tile<32> store global 'out' `out[blockIdx.x * 32 + threadIdx.x]` 4/4 ok
// CHECK: constexpr_config_and_swizzle.cu:56:40: swizzled_transpose load global 'in' `in[row * 32 + threadIdx.x]` 4/4 ok
// CHECK: constexpr_config_and_swizzle.cu:56:5: swizzled_transpose store shared 'smem' `smem[swizzled(row, threadIdx.x)]` 1/1 ok
// CHECK: constexpr_config_and_swizzle.cu:60:35: swizzled_transpose load shared 'smem' `smem[swizzled(threadIdx.x, col)]` 1/1 ok
// CHECK: constexpr_config_and_swizzle.cu:60:70: swizzled_transpose load shared 'smem' `smem[plain(threadIdx.x, col)]` 32/1 bank-conflict
// CHECK: constexpr_config_and_swizzle.cu:60:5: swizzled_transpose store global 'out' `out[col * 32 + threadIdx.x]` 4/4 ok

int main() {
  float *a, *b;
  config_tile<128><<<8, 64>>>(a, b);
  config_tile<32><<<8, 64>>>(a, b);
  swizzled_transpose<<<1, 32>>>(a, b);
}
