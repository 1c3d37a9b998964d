// 16-byte vector helpers: a packed struct of 16 bytes loaded and stored
// through a helper that only dereferences the pointer it is given (the way
// llm.c's load128/store128 are written). Each is one LDG.128/STG.128 at the
// caller's index; a finding is shown at the caller's argument.
#include "harness.cuh"

template <class T> struct alignas(16) Pack16 {
  T v[16 / sizeof(T)];
};

template <class T> __device__ __forceinline__ Pack16<T> load16(const T *p) {
  return *reinterpret_cast<const Pack16<T> *>(p);
  // expect(row_sums): load in 32/16
  // expect(scale_packed): load in 16/16
  // expect(scale_packed_strided): load in 32/16
}
template <class T> __device__ __forceinline__ void store16(T *p, Pack16<T> x) {
  *reinterpret_cast<Pack16<T> *>(p) = x;
  // expect(scale_packed): store out 16/16
  // expect(scale_packed_strided): store out 32/16
}

// Consecutive lanes take consecutive 16-byte packs: 16 sectors, ideal 16.
__global__ void scale_packed(float *out, const float *in) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  Pack16<float> x = load16(in + i);
  for (int k = 0; k < 4; ++k)
    x.v[k] *= 2.0f;
  store16(out + i, x);
}

// Every other pack: 32 sectors per request, ideal 16.
__global__ void scale_packed_strided(float *out, const float *in) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 8;
  Pack16<float> x = load16(in + i);
  for (int k = 0; k < 4; ++k)
    x.v[k] *= 2.0f;
  store16(out + i, x);
}

// One thread per row of 64 halves: the lanes are a row (128 bytes) apart.
__global__ void row_sums(float *out, const unsigned short *in) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int c = 0; c < 64; c += 8) {
    Pack16<unsigned short> x = load16(in + row * 64 + c);
    for (int k = 0; k < 8; ++k)
      s += float(x.v[k]);
  }
  out[row] = s; // expect: store out 4/4
}

int main() {
  const int blocks = 256, n = blocks * 256;
  float *in = sample::alloc<float>(n * 8), *out = sample::alloc<float>(n * 8);
  unsigned short *h = sample::alloc<unsigned short>(n * 64);
  sample::run("scale_packed", n * 32.0, [&] { scale_packed<<<blocks, 256>>>(out, in); });
  sample::run("scale_packed_strided", n * 32.0, [&] { scale_packed_strided<<<blocks, 256>>>(out, in); });
  sample::run("row_sums", n * 132.0, [&] { row_sums<<<blocks, 256>>>(out, h); });
  return 0;
}
