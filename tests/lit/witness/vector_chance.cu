// REQUIRES: witness
// RUN: %witness-lint %s | FileCheck %s --implicit-check-not="nvcc emitted {{[0-9]+}} {{LDG|STG}}"
// RUN: %witness-lint --format=json %s | FileCheck %s --check-prefix=JSON
// RUN: %lint %s | FileCheck %s --check-prefix=SOURCE
// With the compiler witness: accesses of one thread that read (write) the
// adjacent pieces of a block aligned at run time, each emitted as its own
// instruction because nvcc cannot prove the alignment, could be one wider
// instruction (interp/models/EmittedCode.cpp, noteVectorChances()). The
// first of them says so, with the sectors before and after and the fixes
// (a vector type; __builtin_assume_aligned, after which nvcc emits the wide
// instruction: global_merges.cu). Without the witness nothing is said.
// SOURCE-NOT: nvcc emitted

// Four floats of a `const float *`: four LDG.E, one LDG.E.128 would do.
__global__ void four_floats(const float *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = p[4 * i + 0];
  // CHECK: vector_chance.cu:[[@LINE-1]]:13: note: nvcc emitted 4 LDG.E for the 4 accesses of lines [[#@LINE-1]] to [[#@LINE+7]], which read 16 adjacent bytes per lane that are 16-byte aligned at run time; it cannot prove that alignment: `p` is a `const float *`, known to be 4-byte aligned. One LDG.E.128 per lane would take 16 sectors per warp instead of 64 (4x fewer) and 1 request instead of 4: read them as one `float4`, or state the alignment where `p` is set: `p = static_cast<const float *>(__builtin_assume_aligned(p, 16));`
  // JSON: "vector_chance": {
  // JSON-NEXT: "accesses": 4,
  // JSON-NEXT: "bytes_per_lane": 16,
  // JSON-NEXT: "emitted": "4 LDG.E",
  float b = p[4 * i + 1];
  float c = p[4 * i + 2];
  float d = p[4 * i + 3];
  out[i] = a + b + c + d;
}

// Two doubles written one after the other: one STG.E.128.
__global__ void two_doubles(double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[2 * i] = 1.0;
  out[2 * i + 1] = 2.0;
  // CHECK: vector_chance.cu:[[@LINE-2]]:3: note: nvcc emitted 2 STG.E.64 for the 2 accesses of lines [[#@LINE-2]] to [[#@LINE-1]], which write 16 adjacent bytes per lane {{.*}} One STG.E.128 per lane would take 16 sectors per warp instead of 32 (2x fewer) and 1 request instead of 2: write them as one `double2`, or state the alignment {{.*}}__builtin_assume_aligned(out, 16));`
}

// A loop over a thread's four elements, unrolled: the same.
__global__ void loop(const int *p, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int s = 0;
  for (int k = 0; k < 2; ++k)
    s += p[2 * i + k];
  // CHECK: vector_chance.cu:[[@LINE-1]]:10: note: nvcc emitted 2 LDG.E for the 2 accesses of line [[#@LINE-1]], which read 8 adjacent bytes per lane {{.*}} One LDG.E.64 per lane would take 8 sectors per warp instead of 16 (2x fewer) and 1 request instead of 2: read them as one `int2`, or {{.*}}
  out[i] = s;
}

// Negatives.
// The pair starts one float into an 8-byte block: not aligned at run time.
__global__ void skewed(const float *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = p[2 * i + 1] + p[2 * i + 2];
}

// A barrier between the loads: the compiler does not move them together.
__global__ void barrier(const float *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = p[2 * i];
  __syncthreads();
  float b = p[2 * i + 1];
  out[i] = a + b;
}

// A store through another pointer between the loads: it may write p[].
__global__ void store_between(const float *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = p[2 * i];
  out[i] = a;
  float b = p[2 * i + 1];
  out[i + 4096] = b;
}

// Stated alignment: nvcc emitted the LDG.E.64 itself.
__global__ void stated(const float *p, float *out) {
  p = static_cast<const float *>(__builtin_assume_aligned(p, 8));
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = p[2 * i] + p[2 * i + 1];
}

// Bytes that are not adjacent: a gap between the two reads.
__global__ void gap(const float *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = p[4 * i] + p[4 * i + 2];
}

void launch(float *p, double *d, int *q, float *o) {
  four_floats<<<64, 256>>>(p, o);
  two_doubles<<<64, 256>>>(d);
  loop<<<64, 256>>>(q, q + (1 << 20));
  skewed<<<64, 256>>>(p, o);
  barrier<<<64, 256>>>(p, o);
  store_between<<<64, 256>>>(p, o);
  stated<<<64, 256>>>(p, o);
  gap<<<64, 256>>>(p, o);
}
