// RUN: %lint --format=json %s | %records | grep -v table_per_lane | FileCheck %s --check-prefix=REC --implicit-check-not=unknown --implicit-check-not=constant
// Compile-time constants are values the compiler folds into the instruction
// that uses them, never memory accesses, wherever they are read from:
// constexpr variables and static members (clang makes them implicitly
// __constant__ in device code, nvcc puts them in no memory at all), static
// members read through an object (`t.I`), fields of a constexpr object,
// `inline constexpr` variable templates, enumerators, sizeof/alignof, and
// elements of a constexpr array at a constant subscript. They were once
// reported as constant-memory loads with their values not folded into the
// index (issue 37: ggml's `t.I`, CUB's `constant_v<N>`).

template <int N> struct tile {
  static constexpr int I = N;
  static constexpr int ne = N * 2;
};
inline constexpr int kWidth = 16;
struct cfg { int a; int b; };
constexpr cfg kCfg = {4, 8};
template <int V> struct constant_t {
  static constexpr int value = V;
  constexpr operator int() const { return V; }
};
template <int V> inline constexpr constant_t<V> constant_v{};
enum { kEnum = 32 };
constexpr int kTable[4] = {1, 2, 4, 8};

__device__ int pick(const int &a, const int &b) { return a * b; }

__global__ void constants(const float *in, float *out) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  tile<8> t;
  out[i] = in[i % t.I];
  // REC: compile_time_constants.cu:[[@LINE-1]]:12: constants load global 'in' `in[i % t.I]` 1/1 ok
  // REC: compile_time_constants.cu:[[@LINE-2]]:3: constants store global 'out' `out[i]` 4/4 ok
  out[i] = in[i * tile<4>::ne];
  // REC: compile_time_constants.cu:[[@LINE-1]]:12: constants load global 'in' `in[i * tile<4>::ne]` 32/4 uncoalesced
  // REC: compile_time_constants.cu:[[@LINE-2]]:3: constants store global 'out' `out[i]` 4/4 ok
  out[i] = in[i * kWidth];
  // REC: compile_time_constants.cu:[[@LINE-1]]:12: constants load global 'in' `in[i * kWidth]` 32/4 uncoalesced
  // REC: compile_time_constants.cu:[[@LINE-2]]:3: constants store global 'out' `out[i]` 4/4 ok
  out[i] = in[i * kCfg.b];
  // REC: compile_time_constants.cu:[[@LINE-1]]:12: constants load global 'in' `in[i * kCfg.b]` 32/4 uncoalesced
  // REC: compile_time_constants.cu:[[@LINE-2]]:3: constants store global 'out' `out[i]` 4/4 ok
  out[i] = in[i * constant_v<2>.value];
  // REC: compile_time_constants.cu:[[@LINE-1]]:12: constants load global 'in' `in[i * constant_v<2>.value]` 8/4 uncoalesced
  // REC: compile_time_constants.cu:[[@LINE-2]]:3: constants store global 'out' `out[i]` 4/4 ok
  out[i] = in[i * constant_v<2>];
  // REC: compile_time_constants.cu:[[@LINE-1]]:12: constants load global 'in' `in[i * constant_v<2>]` 8/4 uncoalesced
  // REC: compile_time_constants.cu:[[@LINE-2]]:3: constants store global 'out' `out[i]` 4/4 ok
  out[i] = in[i * kEnum / 32 + sizeof(float4) / 16 + alignof(double) - 8];
  // REC: compile_time_constants.cu:[[@LINE-1]]:12: constants load global 'in' `in[i * kEnum / 32 + sizeof(float4) / 16 + alignof(double) - 8]` 5/4 uncoalesced
  // REC: compile_time_constants.cu:[[@LINE-2]]:3: constants store global 'out' `out[i]` 4/4 ok
  out[i] = in[i * kTable[3]];
  // REC: compile_time_constants.cu:[[@LINE-1]]:12: constants load global 'in' `in[i * kTable[3]]` 32/4 uncoalesced
  // REC: compile_time_constants.cu:[[@LINE-2]]:3: constants store global 'out' `out[i]` 4/4 ok
  // Bound to const references (a helper's parameters, a local reference).
  out[i] = in[pick(i, t.I)];
  // REC: compile_time_constants.cu:[[@LINE-1]]:12: constants load global 'in' `in[pick(i, t.I)]` 32/4 uncoalesced
  // REC: compile_time_constants.cu:[[@LINE-2]]:3: constants store global 'out' `out[i]` 4/4 ok
  const int &w = kCfg.a;
  out[i] = in[i * w];
  // REC: compile_time_constants.cu:[[@LINE-1]]:12: constants load global 'in' `in[i * w]` 16/4 uncoalesced
  // REC: compile_time_constants.cu:[[@LINE-2]]:3: constants store global 'out' `out[i]` 4/4 ok
}

// A copy of a constexpr object is no load either.
__global__ void copies(float *out) {
  cfg c = kCfg;
  out[threadIdx.x] = c.a;
  // REC: compile_time_constants.cu:[[@LINE-1]]:3: copies store global 'out' `out[threadIdx.x]` 4/4 ok
}

// Negative: a constexpr table read at a lane-dependent subscript is a load
// (each lane its own address: 4 distinct addresses for the warp).
__global__ void table_per_lane(float *out) {
  out[threadIdx.x] = kTable[threadIdx.x % 4];
}
// RUN: %lint --format=json %s | %records | FileCheck %s --check-prefix=TABLE
// TABLE: compile_time_constants.cu:[[@LINE-3]]:22: table_per_lane load constant 'kTable' `kTable[threadIdx.x % 4]` 4/1 serialised

void launch(const float *in, float *out) {
  constants<<<4, 128>>>(in, out);
  copies<<<1, 32>>>(out);
  table_per_lane<<<1, 32>>>(out);
}
