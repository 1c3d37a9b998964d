// RUN: %lint --format=json %s | %records | grep -v not_magic | FileCheck %s --implicit-check-not=unknown
// RUN: %lint --format=json %s | %records | FileCheck %s --check-prefix=NEG
// The high half of a product (__umulhi, __mulhi, __umul64hi, __mul64hi):
// fast division by magic numbers (ggml's fastdiv, CUTLASS's FastDivmod)
// computes an index with it. Exact per lane when both operands are known
// per lane; warp-uniform when both are (a derived value, which a uniform
// offset of every lane does not change the cost of). They were opaque, and
// every index through them unknown (issue 37).

// n / 3 by Granlund-Montgomery: L = 2, mp = 2^32 * (2^2 - 3) / 3 + 1.
__device__ unsigned fastdiv3(unsigned n) {
  const unsigned hi = __umulhi(n, 1431655766u);
  return (hi + n) >> 2;
}

__global__ void per_lane(const float *in, float *out) {
  // Lanes 0..31: threadIdx.x / 3 = 0,0,0,1,1,1,...: 11 distinct floats, 2 sectors.
  out[threadIdx.x] = in[fastdiv3(threadIdx.x)];
  // CHECK: mulhi.cu:[[@LINE-1]]:22: per_lane load global 'in' `in[fastdiv3(threadIdx.x)]` 2/2 ok
  // CHECK: mulhi.cu:[[@LINE-2]]:3: per_lane store global 'out' `out[threadIdx.x]` 4/4 ok
  // Signed: (lane * 2^20 * 2^12) >> 32 = lane; 64-bit: (lane * 2^32 * 2^33) >> 64 = 2 * lane.
  out[threadIdx.x + 32] = in[__mulhi((int)threadIdx.x << 20, 1 << 12)];
  // CHECK: mulhi.cu:[[@LINE-1]]:27: per_lane load global 'in' `in[__mulhi((int)threadIdx.x << 20, 1 << 12)]` 4/4 ok
  // CHECK: mulhi.cu:[[@LINE-2]]:3: per_lane store global 'out' `out[threadIdx.x + 32]` 4/4 ok
  out[threadIdx.x + 64] = in[__umul64hi(threadIdx.x * 4294967296ull, 4294967296ull * 2)];
  // CHECK: mulhi.cu:[[@LINE-1]]:27: per_lane load global 'in' `in[__umul64hi(threadIdx.x * 4294967296ull, 4294967296ull * 2)]` 8/4 uncoalesced
  // CHECK: mulhi.cu:[[@LINE-2]]:3: per_lane store global 'out' `out[threadIdx.x + 64]` 4/4 ok
}

// A row picked by a uniform quotient (blockIdx.x / rows, by magic numbers
// given as parameters): the same row for the whole warp, so the lanes
// keep their unit stride.
__global__ void uniform_row(const float *in, float *out, unsigned mp, unsigned l, int w) {
  const unsigned row = (__umulhi(blockIdx.x, mp) + blockIdx.x) >> l;
  out[blockIdx.x * 32 + threadIdx.x] = in[row * w + threadIdx.x];
  // CHECK: mulhi.cu:[[@LINE-1]]:40: uniform_row load global 'in' `in[row * w + threadIdx.x]` 4/4 ok
  // CHECK: mulhi.cu:[[@LINE-2]]:3: uniform_row store global 'out' `out[blockIdx.x * 32 + threadIdx.x]` 4/4 ok
}

// ggml's fastdiv, with the magic numbers of 3 known at the launch: the
// idiom (__umulhi(n, mp) + n) >> L is n / 3, exact for every n below 2^31
// (where the 32-bit sum cannot wrap). With blocks of 96 threads,
// n / 3 = 32 * blockIdx.x + threadIdx.x / 3: 11 floats per warp, 2 sectors.
__device__ unsigned fastdiv(unsigned n, const uint3 v) {
  const unsigned hi = __umulhi(n, v.x);
  return (hi + n) >> v.y;
}
__global__ void magic(const float *in, float *out, uint3 v) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[fastdiv(i, v)];
  // CHECK: mulhi.cu:[[@LINE-1]]:12: magic load global 'in' `in[fastdiv(i, v)]` 2/2 ok
  // CHECK: mulhi.cu:[[@LINE-2]]:3: magic store global 'out' `out[i]` 4/4 ok
}
// Negative: numbers that are no divisor's magic numbers.
__global__ void not_magic(const float *in, float *out, uint3 v) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[fastdiv(i, v)];
  // NEG: mulhi.cu:[[@LINE-1]]:12: not_magic load global 'in' `in[fastdiv(i, v)]` ?/? unknown
}

void launch(const float *in, float *out, unsigned mp, unsigned l, int w) {
  per_lane<<<1, 32>>>(in, out);
  uniform_row<<<8, 32>>>(in, out, mp, l, w);
  magic<<<64, 96>>>(in, out, make_uint3(1431655766u, 2, 3));
  not_magic<<<64, 96>>>(in, out, make_uint3(1431655700u, 2, 3));
}
