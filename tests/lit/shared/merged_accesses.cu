// RUN: %lint --format=json %s | %records | FileCheck %s --check-prefix=REC
// RUN: %lint %s | FileCheck %s
// Only row's load is merged exactly:
// RUN: %lint --format=json %s | grep -o '"merged-by-ptxas"' | wc -l | FileCheck %s --check-prefix=COUNT
// COUNT: {{^ *}}1{{$}}
// Accesses the compiler merges into other instructions (docs/model.md,
// "Accesses the compiler merges"; the SASS of each case below was read on
// sm_90 with nvcc 13, sample_kernels/merged_rows.cu measures them):
//   - ptxas merges shared loads (stores) of one base at constant offsets in
//     one aligned 8- or 16-byte block into LDS.64/LDS.128 (STS) when the
//     address's computation proves the block's alignment. A row walked from
//     a block boundary by a loop nvcc unrolls completely is predicted as
//     one 16-byte access per block; other cases (a row starting inside a
//     block, a run-time trip count, struct fields) are unknown;
//   - nvcc makes a load or store written alike in both sides of a branch one
//     instruction that the lanes of both sides run: unknown.

// A row of 16 floats read in an unrolled loop: four LDS.128.
__global__ void row(float *out) {
  __shared__ float s[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  s[ty][tx] = tx;
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < 16; ++k)
    acc += s[ty][k] * (k + 1);
  // REC-DAG: merged_accesses.cu:[[@LINE-1]]:12: row load shared 's' `s[ty][k]` 2/2 ok
  out[ty * 16 + tx] = acc;
}

// The same row from its second element: ptxas reads the first block whole
// for three of its elements.
__global__ void row_inside(float *out) {
  __shared__ float s[16][20];
  int tx = threadIdx.x, ty = threadIdx.y;
  s[ty][tx] = tx;
  __syncthreads();
  float acc = 0;
  for (int k = 1; k < 17; ++k)
    acc += s[ty][k];
  // CHECK-DAG: :[[@LINE-1]]:12: remark: shared load from 's' cannot be predicted: ptxas may merge it with `s[ty][k]` (line [[@LINE-1]]), whose lanes read, in the next iteration, the adjacent bytes of the same aligned 8-byte block, into one wider instruction (LDS.64 or LDS.128): how many requests it takes, and what each costs, is not known
  out[ty * 16 + tx] = acc;
}

// The same with a counter declared before the loop, and a run-time trip
// count (the loop is unrolled by a factor of nvcc's choosing).
__global__ void row_counter(float *out, int n) {
  __shared__ float s[16][64];
  int tx = threadIdx.x, ty = threadIdx.y, k;
  s[ty][tx] = tx;
  __syncthreads();
  float acc = 0;
  for (k = 0; k < n; ++k)
    acc += s[ty][k];
  // REC-DAG: merged_accesses.cu:[[@LINE-1]]:12: row_counter load shared 's' `s[ty][k]` ?/? unknown
  out[ty * 16 + tx] = acc;
}

// Negative: rows of 17 floats prove only 4-byte alignment: 16 LDS.
__global__ void odd_pitch(float *out) {
  __shared__ float s[16][17];
  int tx = threadIdx.x, ty = threadIdx.y;
  s[ty][tx] = tx;
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < 16; ++k)
    acc += s[ty][k] * (k + 1);
  // REC-DAG: merged_accesses.cu:[[@LINE-1]]:12: odd_pitch load shared 's' `s[ty][k]` 1/1 ok
  out[ty * 16 + tx] = acc;
}

// Negative: a distance that is a run-time value (s is 1 in one iteration
// only as far as the analysis knows; ptxas sees a register).
__global__ void tree(float *out) {
  __shared__ float sd[256];
  unsigned t = threadIdx.x;
  sd[t] = t;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (t % (2 * s) == 0)
      sd[t] += sd[t + s];
    // REC-DAG: merged_accesses.cu:[[@LINE-1]]:16: tree load shared 'sd' `sd[t + s]` {{[0-9.]+}}/1 {{ok|bank-conflict}}
    __syncthreads();
  }
  out[t] = sd[0];
}

// Struct fields one after the other: one LDS.128, one STS.128.
struct P { float x, y, z, w; };
__global__ void fields(float *out) {
  __shared__ P s[256];
  int t = threadIdx.x;
  s[t].x = t; s[t].y = 2 * t; s[t].z = 3; s[t].w = 4;
  // REC-DAG: merged_accesses.cu:[[@LINE-1]]:3: fields store shared 's' `s[t].x` ?/? unknown
  __syncthreads();
  P &q = s[(t + 1) % 256];
  out[t] = q.x * q.y + q.z * q.w;
  // REC-DAG: merged_accesses.cu:[[@LINE-1]]:12: fields load shared 's' `q.x` ?/? unknown
}

// Negative: global loads through a pointer parameter (alignment not
// proven): 16 LDG.
__global__ void global_row(const float *in, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
  for (int k = 0; k < 16; ++k)
    acc += in[t * 16 + k];
  // REC-DAG: merged_accesses.cu:[[@LINE-1]]:12: global_row load global 'in' `in[t * 16 + k]` 32/4 uncoalesced
  out[t] = acc;
}

// A load written alike in both sides of a branch on a lane-varying
// condition; a branch on a warp-uniform one is left alone.
__global__ void sides(float *out, int f) {
  __shared__ float s[18][18];
  int tx = threadIdx.x, ty = threadIdx.y;
  s[ty][tx] = tx;
  __syncthreads();
  float a;
  if (tx == 0)
    a = s[ty][tx + 1] - 1.0f;
  else
    a = s[ty][tx + 1] + s[ty][tx - 1];
  // CHECK-DAG: :[[@LINE-1]]:9: remark: shared load from 's' cannot be predicted: nvcc may make it one instruction with `s[ty][tx + 1]` (line [[@LINE-3]]), written alike in the other side of the branch at line [[@LINE-4]], which both sides' lanes run: its lanes, its cost and the line Nsight Compute shows it on are not known
  // REC-DAG: merged_accesses.cu:[[@LINE-2]]:25: sides load shared 's' `s[ty][tx - 1]` {{[0-9.]+}}/1 {{ok|bank-conflict}}
  float b;
  if (f)
    b = s[ty][tx];
  else
    b = s[ty][tx] * 2.0f;
  // REC-DAG: merged_accesses.cu:[[@LINE-3]]:9: sides load shared 's' `s[ty][tx]` {{[0-9.]+}}/1 {{ok|bank-conflict}}
  out[ty * 16 + tx] = a + b;
}

int main() {
  float *f;
  row<<<1, dim3(16, 16)>>>(f);
  row_inside<<<1, dim3(16, 16)>>>(f);
  row_counter<<<1, dim3(16, 16)>>>(f, 64);
  odd_pitch<<<1, dim3(16, 16)>>>(f);
  tree<<<1, 256>>>(f);
  fields<<<1, 256>>>(f);
  global_row<<<4, 256>>>(f, f);
  sides<<<1, dim3(16, 16)>>>(f, 1);
}
