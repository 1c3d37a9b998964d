// Where the instructions nvcc and ptxas emit differ from what the source
// suggests: ground truth for reading the SASS (nvdisasm) instead of guessing.
// `measured:`: Nsight Compute on an H200 (nvcc 13.0 -O3 -lineinfo, sm_90) and
// the SASS; `expect(source):` the source alone; `expect(witness):` joined with
// what nvcc emitted (docs/witness.md), as measured (tests/verify/fixtures/h200).
// - outer_merge, outer_merge_rows: the shared tile of a 1D block-tiled
//   matrix product (SGEMM_CUDA's kernel 4) read as
//   As[(threadRow * TM + resIdx) * BK + dotIdx] in `for dotIdx` around
//   `for resIdx`: ptxas merges four iterations of the OUTER loop into one
//   LDS.128: a quarter of the requests, 16 bytes wide. A row per warp (every
//   lane at one address) costs 2 wavefronts; 8 rows in one bank, 32 (8 per
//   quarter-warp), the same wavefronts per warp as 8-way scalar loads.
// - branch_twins(_global): the same load written on both sides of an if/else
//   that splits the warp is one instruction before the branch, on a line of
//   neither side (the barrier's line for the shared one, the next
//   statement's for the global one).
// - multi_line: a statement over several lines; -lineinfo puts the load on
//   the statement's last line (where the subscript closes), not the line where
//   the statement or the access's expression starts.
// - no_vector, no_vector_twin: four consecutive floats per thread through a
//   `const float *` whose 16-byte alignment cannot be proved are four LDG.32;
//   the same bytes through `float4` are one LDG.128.
// - kept_in_register(_global): a load repeated after a store that cannot
//   overwrite it (another __shared__ array; a __restrict__ pointer) is not
//   issued again: the value stays in a register.
// - struct_fields, struct_fields_pairs: struct fields written and read one
//   after the other are merged as wide as the address is aligned: STS.128 and
//   LDS.128 for a 16-byte struct, STS.64 and LDS.64 pairs for a 24-byte one.
#include "harness.cuh"

constexpr int N = 1 << 20;
constexpr int BM = 64, BN = 32, BK = 8, TM = 8; // 256 threads, 8 results each

// A row of C per warp: threadRow = threadIdx.x / BN is the same in a warp.
__global__ void outer_merge(const float *A, const float *B, float *C, int n) {
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  const int threadCol = threadIdx.x % BN, threadRow = threadIdx.x / BN;
  const int aRow = threadIdx.x / BK, aCol = threadIdx.x % BK;
  const float *a = A + blockIdx.y * BM * n;
  const float *b = B + blockIdx.x * BN;
  float res[TM] = {0};
  for (int k0 = 0; k0 < n; k0 += BK) {
    As[aRow * BK + aCol] = a[aRow * n + k0 + aCol]; // expect: load A 4/4; store As 1/1
    As[(aRow + 32) * BK + aCol] = a[(aRow + 32) * n + k0 + aCol]; // expect: load A 4/4; store As 1/1
    Bs[threadRow * BN + threadCol] = b[(k0 + threadRow) * n + threadCol]; // expect: load B 4/4; store Bs 1/1
    __syncthreads();
    for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
      float tmpB = Bs[dotIdx * BN + threadCol]; // expect: load Bs 1/1
      for (int resIdx = 0; resIdx < TM; ++resIdx)
        res[resIdx] += As[(threadRow * TM + resIdx) * BK + dotIdx] * tmpB; // measured: load As 2/2, 16 LDS.128 a tile: 2048 requests a warp, not 8192 // expect(source): load As unknown // expect(witness): load As 2/2
    }
    __syncthreads();
  }
  for (int resIdx = 0; resIdx < TM; ++resIdx)
    C[(blockIdx.y * BM + threadRow * TM + resIdx) * n + blockIdx.x * BN + threadCol] = res[resIdx]; // expect: store C 4/4
}

// Eight rows per warp: threadRow = threadIdx.x % (BM / TM); the rows are
// TM * BK floats (256 bytes) apart, all in the same banks.
__global__ void outer_merge_rows(const float *A, const float *B, float *C, int n) {
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  const int threadRow = threadIdx.x % (BM / TM), threadCol = threadIdx.x / (BM / TM);
  const int aRow = threadIdx.x / BK, aCol = threadIdx.x % BK;
  const int bRow = threadIdx.x / BN, bCol = threadIdx.x % BN;
  const float *a = A + blockIdx.y * BM * n;
  const float *b = B + blockIdx.x * BN;
  float res[TM] = {0};
  for (int k0 = 0; k0 < n; k0 += BK) {
    As[aRow * BK + aCol] = a[aRow * n + k0 + aCol]; // expect: load A 4/4; store As 1/1
    As[(aRow + 32) * BK + aCol] = a[(aRow + 32) * n + k0 + aCol]; // expect: load A 4/4; store As 1/1
    Bs[bRow * BN + bCol] = b[(k0 + bRow) * n + bCol]; // expect: load B 4/4; store Bs 1/1
    __syncthreads();
    for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
      float tmpB = Bs[dotIdx * BN + threadCol]; // expect: load Bs 1/1
      for (int resIdx = 0; resIdx < TM; ++resIdx)
        res[resIdx] += As[(threadRow * TM + resIdx) * BK + dotIdx] * tmpB; // measured: load As 32/4, 16 LDS.128 a tile: 2048 requests a warp, not 8192 (the same 65536 wavefronts) // expect(source): load As unknown // expect(witness): load As 32/4
    }
    __syncthreads();
  }
  for (int resIdx = 0; resIdx < TM; ++resIdx)
    C[(blockIdx.y * BM + threadRow * TM + resIdx) * n + blockIdx.x * BN + threadCol] = res[resIdx]; // expect: store C 8/4
}

// Odd and even lanes take different sides; both read s[j] (stride 2).
__global__ void branch_twins(const float *in, float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * 256 + t;
  s[t] = in[i]; // expect: load in 4/4; store s 1/1
  __syncthreads(); // measured: load s 2/1, the one LDS of lines 96 and 98 // expect(witness): load s 2/1
  float v;
  int j = (t * 2) % 256;
  if (t & 1)
    v = s[j] * 2.0f; // measured: no instruction (the LDS on line 92) // expect(source): load s unknown
  else
    v = s[j] + 1.0f; // measured: no instruction (the LDS on line 92) // expect(source): load s unknown // expect(witness): load s none
  out[i] = v; // expect: store out 4/4
}

__global__ void branch_twins_global(const float *in, float *out) {
  int i = blockIdx.x * 256 + threadIdx.x;
  float v;
  if (threadIdx.x & 1)
    v = in[2 * i] * 2.0f; // measured: no instruction (the LDG on line 109) // expect(source): load in unknown
  else
    v = in[2 * i] + 1.0f; // measured: no instruction (the LDG on line 109) // expect(source): load in unknown // expect(witness): load in none
  out[i] = v; // measured: load in 8/4, the one LDG of lines 106 and 108 // expect: store out 4/4 // expect(witness): load in 8/4
}

__global__ void multi_line(const float *A, const float *B, float *out) {
  int i = blockIdx.x * 256 + threadIdx.x;
  float4 tmp =
      reinterpret_cast<const float4 *>( // measured: no instruction (the LDG.128 on line 116) // expect(source): load A 16/16
          &A[4 * i])[0]; // measured: load A 16/16, LDG.E.128 // expect(witness): load A 16/16
  float acc = tmp.x + tmp.y + tmp.z + tmp.w;
  acc +=
      A[i + 1] * // expect: load A 5/4
      B[i + // measured: no instruction (the LDG on line 121) // expect(source): load B 5/4
        2]; // measured: load B 5/4, LDG.E // expect(witness): load B 5/4
  out[i] = acc; // expect: store out 4/4
}

__global__ void no_vector(const float *p, float *out) {
  int i = blockIdx.x * 256 + threadIdx.x;
  float a = p[4 * i + 0]; // expect: load p 16/4
  float b = p[4 * i + 1]; // expect: load p 16/4
  float c = p[4 * i + 2]; // expect: load p 16/4
  float d = p[4 * i + 3]; // expect: load p 16/4
  out[i] = a + b + c + d; // expect: store out 4/4
}

__global__ void no_vector_twin(const float *p, float *out) {
  int i = blockIdx.x * 256 + threadIdx.x;
  float4 q = reinterpret_cast<const float4 *>(p)[i]; // expect: load p 16/16
  out[i] = q.x + q.y + q.z + q.w; // expect: store out 4/4
}

// The store to r cannot overwrite s: the second read of s is not issued.
__global__ void kept_in_register(const float *in, float *out) {
  __shared__ float s[256];
  __shared__ float r[256];
  int t = threadIdx.x;
  int i = blockIdx.x * 256 + t;
  s[t] = in[i]; // expect: load in 4/4; store s 1/1
  __syncthreads();
  float a = s[(t + 1) % 256]; // expect: load s 1/1
  r[t] = a * 2.0f; // expect: store r 1/1
  float b = s[(t + 1) % 256]; // measured: no instruction (the value of line 148) // expect(source): load s 1/1 // expect(witness): load s none
  __syncthreads();
  out[i] = a + b + r[(t + 3) % 256]; // expect: load r 1/1; store out 4/4
}

// The same through __restrict__ pointers in global memory.
__global__ void kept_in_register_global(const float *__restrict__ in, float *__restrict__ out) {
  int i = blockIdx.x * 256 + threadIdx.x;
  float a = in[i + 1]; // expect: load in 5/4
  out[i] = a; // expect: store out 4/4
  float b = in[i + 1]; // measured: no instruction (the value of line 158) // expect(source): load in 5/4 // expect(witness): load in none
  out[N + i] = b * 2.0f; // expect: store out 4/4
}

struct Quad { // 16 bytes
  float x, y, z, w;
};
struct alignas(8) Hex { // 24 bytes: s[t] is 8-byte aligned only
  float x, y, z, w, u, v;
};

__global__ void struct_fields(float *out) {
  __shared__ Quad s[256];
  int t = threadIdx.x;
  s[t].x = t; // measured: no instruction (the STS.128 on line 177) // expect(source): store s unknown // expect(witness): store s none
  s[t].y = 2 * t; // measured: no instruction (the STS.128 on line 177) // expect(source): store s unknown // expect(witness): store s none
  s[t].z = 3; // measured: no instruction (the STS.128 on line 177) // expect(source): store s unknown // expect(witness): store s none
  s[t].w = 4; // measured: store s 4/4, one STS.128 for lines 174-177 // expect(source): store s unknown // expect(witness): store s 4/4
  __syncthreads();
  const Quad &q = s[(t + 1) % 256];
  out[blockIdx.x * 256 + t] = q.x * q.y + q.z * q.w; // measured: load s 4/4, one LDS.128 for q.x, q.y, q.z, q.w // expect: store out 4/4 // expect(source): load s unknown; load s unknown; load s unknown; load s unknown // expect(witness): load s 4/4; load s none; load s none; load s none
}

__global__ void struct_fields_pairs(float *out) {
  __shared__ Hex s[256];
  int t = threadIdx.x;
  s[t].x = t; // measured: no instruction (the STS.64 on line 187) // expect(source): store s unknown // expect(witness): store s none
  s[t].y = 2 * t; // measured: store s 2/2, one STS.64 for lines 186-187 // expect(source): store s unknown // expect(witness): store s 2/2
  s[t].z = 3; // measured: no instruction (the STS.64 on line 189) // expect(source): store s unknown // expect(witness): store s none
  s[t].w = 4; // measured: store s 2/2, one STS.64 for lines 188-189 // expect(source): store s unknown // expect(witness): store s 2/2
  __syncthreads();
  const Hex &q = s[(t + 1) % 256];
  out[blockIdx.x * 256 + t] = q.x * q.y + q.z * q.w; // measured: load s 2/2, two LDS.64 (q.x with q.y, q.z with q.w) // expect: store out 4/4 // expect(source): load s unknown; load s unknown; load s unknown; load s unknown // expect(witness): load s 2/2; load s 2/2; load s none; load s none
}

int main() {
  const int blocks = N / 256;
  const int M = 1024;
  float *a = sample::alloc<float>(size_t(M) * M);
  float *b = sample::alloc<float>(size_t(M) * M);
  float *c = sample::alloc<float>(size_t(M) * M);
  float *in = sample::alloc<float>(4 * size_t(N) + 64);
  float *out = sample::alloc<float>(2 * size_t(N));
  const double B = double(N) * 4;
  const double G = 3.0 * M * M * 4;
  sample::run("outer_merge", G, [&] { outer_merge<<<dim3(M / BN, M / BM), 256>>>(a, b, c, M); });
  sample::run("outer_merge_rows", G, [&] { outer_merge_rows<<<dim3(M / BN, M / BM), 256>>>(a, b, c, M); });
  sample::run("branch_twins", 2 * B, [&] { branch_twins<<<blocks, 256>>>(in, out); });
  sample::run("branch_twins_global", 3 * B, [&] { branch_twins_global<<<blocks, 256>>>(in, out); });
  sample::run("multi_line", 4 * B, [&] { multi_line<<<blocks, 256>>>(in, in + 8, out); });
  sample::run("no_vector", 5 * B, [&] { no_vector<<<blocks, 256>>>(in, out); });
  sample::run("no_vector_twin", 5 * B, [&] { no_vector_twin<<<blocks, 256>>>(in, out); });
  sample::run("kept_in_register", 2 * B, [&] { kept_in_register<<<blocks, 256>>>(in, out); });
  sample::run("kept_in_register_global", 3 * B, [&] { kept_in_register_global<<<blocks, 256>>>(in, out); });
  sample::run("struct_fields", B, [&] { struct_fields<<<blocks, 256>>>(out); });
  sample::run("struct_fields_pairs", B, [&] { struct_fields_pairs<<<blocks, 256>>>(out); });
  return 0;
}
